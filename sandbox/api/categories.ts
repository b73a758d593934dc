/**
 * Categories ([reference §3.4](../../docs/kick-wire-reference.md#34-categories)): the v2 cursor-paginated search, and the deprecated v1 keyword search and
 * lookup by id. Any live token works; no scope is needed.
 */
import type { KickCategory, KickCategoryDetail, KickCategoryRef, KickCategoryV1 } from '../../shared/kick/resources';
import { LIMITS } from '../../shared/limits';
import type { SandboxContext } from '../context';
import type { Router } from '../http/router';
import type { SandboxRequest, SandboxResponse } from '../http/types';
import type { SandboxCategory, SandboxState } from '../state';
import { authenticate } from './auth-guard';
import { queryInt } from './params';
import { fail, ok, paged } from './respond';

/** Results per page of the deprecated v1 search ([reference §3.4](../../docs/kick-wire-reference.md#34-categories): "up to 100 results per page"). */
const V1_PAGE_SIZE = 100;

/** v2 `name` filters shorter than this are refused ([reference §3.4](../../docs/kick-wire-reference.md#34-categories), S10). */
const NAME_FILTER_MIN = 3;

/** `{id, name, thumbnail}` of a category; `{id: 0, name: "", thumbnail: ""}` when unset or unknown. */
export function categoryRef(state: SandboxState, categoryId: number): KickCategoryRef {
  const category = state.categories.get(categoryId);
  if (!category) {
    return { id: 0, name: '', thumbnail: '' };
  }
  return { id: category.id, name: category.name, thumbnail: category.thumbnail };
}

/** Registers the v2 and deprecated v1 category routes. */
export function registerCategoryRoutes(router: Router, ctx: SandboxContext): void {
  router.get('/public/v2/categories', (req) => {
    authenticate(ctx.state, req, { token: 'any' });
    return listCategoriesV2(ctx.state, req);
  });

  router.get('/public/v1/categories', (req) => {
    authenticate(ctx.state, req, { token: 'any' });
    const q = (req.query.get('q') ?? '').trim();
    if (q.length === 0) {
      fail(400, 'q: is required');
    }
    const page = queryInt(req, 'page', { min: 1 }) ?? 1;
    const needle = q.toLowerCase();
    const matches = sortedCategories(ctx.state).filter((c) => c.name.toLowerCase().includes(needle));
    const slice = matches.slice((page - 1) * V1_PAGE_SIZE, page * V1_PAGE_SIZE);
    return ok(slice.map((c): KickCategoryV1 => ({ id: c.id, name: c.name, thumbnail: c.thumbnail })));
  });

  router.get('/public/v1/categories/:category_id', (req) => {
    authenticate(ctx.state, req, { token: 'any' });
    const raw = req.params.category_id ?? '';
    if (!/^\d+$/.test(raw)) {
      fail(400, 'category_id: must be an integer');
    }
    const category = ctx.state.categories.get(Number(raw));
    if (!category) {
      fail(404, `category_id: category ${raw} not found`);
    }
    const detail: KickCategoryDetail = {
      id: category.id,
      name: category.name,
      thumbnail: category.thumbnail,
      tags: [...category.tags],
      viewer_count: category.viewerCount,
    };
    return ok(detail);
  });
}

// --- v2 search ---

function listCategoriesV2(state: SandboxState, req: SandboxRequest): SandboxResponse {
  const names = listParam(req, 'name').map((name) => {
    if ([...name].length < NAME_FILTER_MIN) {
      fail(400, `name: each value must be at least ${NAME_FILTER_MIN} characters`);
    }
    return name.toLowerCase();
  });
  const tags = listParam(req, 'tag').map((tag) => tag.toLowerCase());
  const ids = listParam(req, 'id').map((id) => {
    if (!/^\d+$/.test(id)) {
      fail(400, 'id: must be an integer');
    }
    return Number(id);
  });
  const limit =
    queryInt(req, 'limit', { min: LIMITS.categoriesLimitMin, max: LIMITS.categoriesLimitMax }) ??
    LIMITS.categoriesLimitDefault;
  const afterId = decodeCursor(req.query.get('cursor'));

  const matches = sortedCategories(state).filter(
    (c) =>
      (names.length === 0 || names.some((n) => c.name.toLowerCase().includes(n))) &&
      (tags.length === 0 || c.tags.some((t) => tags.includes(t.toLowerCase()))) &&
      (ids.length === 0 || ids.includes(c.id)),
  );
  const rest = afterId === null ? matches : matches.filter((c) => c.id > afterId);
  const page = rest.slice(0, limit);
  const last = page[page.length - 1];
  const nextCursor = rest.length > limit && last ? encodeCursor(last.id) : null;
  return paged(
    page.map((c): KickCategory => ({ id: c.id, name: c.name, tags: [...c.tags], thumbnail: c.thumbnail })),
    nextCursor,
  );
}

/**
 * A multi-valued filter. Clients disagree on the encoding ([reference §3.4](../../docs/kick-wire-reference.md#34-categories)): kickcom.py and gokick send
 * `name=a,b`, KickLib sends `name=a&name=b`, so both are accepted and merged. Blank pieces are dropped.
 */
function listParam(req: SandboxRequest, key: string): string[] {
  return req.query
    .getAll(key)
    .flatMap((value) => value.split(','))
    .map((piece) => piece.trim())
    .filter((piece) => piece.length > 0);
}

function sortedCategories(state: SandboxState): SandboxCategory[] {
  return [...state.categories.values()].sort((a, b) => a.id - b.id);
}

// --- Cursor ---

/**
 * The cursor is opaque to clients: base64url of `cat:<last id>`, so pages are keyed on the id rather than
 * an offset and never repeat or skip an item when categories are added between requests.
 */
function encodeCursor(lastId: number): string {
  return Buffer.from(`cat:${lastId}`, 'utf8').toString('base64url');
}

function decodeCursor(raw: string | null): number | null {
  if (raw === null || raw === '') {
    return null;
  }
  const match = /^cat:(\d{1,15})$/.exec(Buffer.from(raw, 'base64url').toString('utf8'));
  if (!match || !/^[A-Za-z0-9_-]+$/.test(raw)) {
    fail(400, 'cursor: invalid cursor');
  }
  return Number(match[1]);
}
