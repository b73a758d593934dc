/** Cursor pagination ([reference §1](../../docs/kick-wire-reference.md#1-hosts-and-general-conventions)): `pagination.next_cursor`, empty or missing on the last page. */
import type { z } from 'zod';
import type { Page } from '../../shared/kick/resources';
import type { KickResponse } from './kick-http';
import { KickApiError } from './kick-errors';
import { readAnswer } from './kick-response';

/** One page of `item`s, each read through its schema (`kick-response.ts`). */
export function toPage<T>(operation: string, res: KickResponse, item: z.ZodType<T, unknown>): Page<T> {
  const body = res.body as { data?: unknown; pagination?: { next_cursor?: unknown } } | undefined;
  if (!body || !Array.isArray(body.data)) {
    throw new KickApiError('ServerError', `${operation}: Kick answered without a data list`, {
      operation,
      status: res.status,
    });
  }
  const next = body.pagination?.next_cursor;
  const items = body.data.map((entry, i) => readAnswer(operation, item, entry, `data[${i}]`));
  return { items, nextCursor: typeof next === 'string' && next.length > 0 ? next : null };
}

/**
 * Walks every page from `first`, stopping at the last page or if Kick hands back a cursor it already gave
 * (which would otherwise loop forever).
 */
export async function* walkPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  cursor?: string,
): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>();
  let next: string | undefined = cursor;
  for (;;) {
    const page = await fetchPage(next);
    yield* page.items;
    if (page.nextCursor === null || seen.has(page.nextCursor)) {
      return;
    }
    seen.add(page.nextCursor);
    next = page.nextCursor;
  }
}
