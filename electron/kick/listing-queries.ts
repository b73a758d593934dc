/**
 * The query strings of Kick's listing operations (livestreams v2 and v1, categories, reward redemptions),
 * each checked against Kick's limits ([seed §8](../../docs/product-spec.md#8-limits)) before anything is
 * sent. Kept apart from the client so its methods stay one request each; how repeated parameters are
 * encoded is a wire assumption (`wire-assumptions.ts`).
 */
import { LIMITS } from '../../shared/limits';
import type { KickRedemptionStatus } from '../../shared/kick/resources';
import { Checks, nonEmpty, positiveId } from './checks';
import { WIRE_ASSUMPTIONS } from './wire-assumptions';

export type Query = [string, string][];

const BCP47 = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;

export interface LivestreamsV2Filter {
  categoryIds?: number[];
  languageCodes?: string[];
  limit?: number;
  cursor?: string;
}

export interface LivestreamsV1Filter {
  broadcasterUserIds?: number | number[];
  categoryId?: number;
  language?: string;
  limit?: number;
  sort?: 'viewer_count' | 'started_at';
}

export interface CategoriesFilter {
  /** Shorthand for one name. */
  query?: string;
  names?: string[];
  tags?: string[];
  categoryIds?: number[];
  limit?: number;
  cursor?: string;
}

export interface RedemptionsFilter {
  rewardId?: string;
  status?: KickRedemptionStatus;
  /** Cannot be combined with `rewardId` or `status`. */
  ids?: string[];
  cursor?: string;
}

function limitParam(c: Checks, query: Query, limit: number | undefined, min: number, max: number): void {
  const checked = c.optionalInt('limit', limit, { min, max });
  if (checked !== undefined) {
    query.push(['limit', String(checked)]);
  }
}

function cursorParam(c: Checks, query: Query, cursor: string | undefined): void {
  if (cursor !== undefined) {
    query.push(['cursor', c.string('cursor', cursor, { min: 1 })]);
  }
}

export function livestreamsV2Query(input: LivestreamsV2Filter): Query {
  const c = new Checks('fetchLivestreamsV2');
  const query: Query = [];
  const ids = c.list(
    'category_ids',
    input.categoryIds ?? [],
    { max: LIMITS.livestreamsV2CategoryIdsMax },
    positiveId(c),
  );
  for (const id of ids) {
    query.push(['category_id', String(id)]);
  }
  const codes = c.list(
    'language_codes',
    input.languageCodes ?? [],
    { max: LIMITS.livestreamsV2LanguageCodesMax },
    (v, n) => c.string(n, v, { pattern: BCP47, hint: 'a BCP 47 language code such as en' }),
  );
  for (const code of codes) {
    query.push(['language_code', code]);
  }
  limitParam(c, query, input.limit, LIMITS.livestreamsV2LimitMin, LIMITS.livestreamsV2LimitMax);
  cursorParam(c, query, input.cursor);
  return query;
}

export function livestreamsV1Query(input: LivestreamsV1Filter): Query {
  const c = new Checks('fetchLivestreams');
  const query: Query = [];
  if (input.broadcasterUserIds !== undefined) {
    const ids = c.oneOrMany(
      'broadcaster_user_id',
      input.broadcasterUserIds,
      { max: LIMITS.livestreamsV1BroadcasterIdsMax },
      positiveId(c),
    );
    for (const id of ids) {
      query.push(['broadcaster_user_id', String(id)]);
    }
  }
  if (input.categoryId !== undefined) {
    query.push(['category_id', String(c.int('category_id', input.categoryId, { min: 1 }))]);
  }
  if (input.language !== undefined) {
    query.push([
      'language',
      c.string('language', input.language, { pattern: BCP47, hint: 'a language code such as en' }),
    ]);
  }
  limitParam(c, query, input.limit, LIMITS.livestreamsV1LimitMin, LIMITS.livestreamsV1LimitMax);
  if (input.sort !== undefined) {
    if (input.sort !== 'viewer_count' && input.sort !== 'started_at') {
      c.fail('sort', 'must be viewer_count or started_at');
    }
    query.push(['sort', input.sort]);
  }
  return query;
}

export function categoriesQuery(input: CategoriesFilter): Query {
  const c = new Checks('fetchCategories');
  const names = c.list(
    'name',
    [...(input.query !== undefined ? [input.query] : []), ...(input.names ?? [])],
    {},
    nonEmpty(c),
  );
  const tags = c.list('tag', input.tags ?? [], {}, nonEmpty(c));
  const ids = c.list('category_id', input.categoryIds ?? [], {}, positiveId(c));
  const query: Query = [];
  const add = (key: string, values: (string | number)[]): void => {
    if (values.length === 0) {
      return;
    }
    if (WIRE_ASSUMPTIONS.categoriesArrayEncoding === 'comma') {
      query.push([key, values.join(',')]);
    } else {
      for (const v of values) {
        query.push([key, String(v)]);
      }
    }
  };
  add('name', names);
  add('tag', tags);
  add('id', ids);
  limitParam(c, query, input.limit, LIMITS.categoriesLimitMin, LIMITS.categoriesLimitMax);
  cursorParam(c, query, input.cursor);
  return query;
}

export function redemptionsQuery(input: RedemptionsFilter): Query {
  const c = new Checks('fetchRewardRedemptions');
  const query: Query = [];
  if (input.ids !== undefined) {
    if (input.rewardId !== undefined || input.status !== undefined) {
      c.fail('ids', 'cannot be combined with reward_id or status');
    }
    const ids = c.list('ids', input.ids, { min: 1, max: LIMITS.redemptionIdFilterMax, unique: true }, nonEmpty(c));
    for (const id of ids) {
      query.push(['id', id]);
    }
  }
  if (input.rewardId !== undefined) {
    query.push(['reward_id', c.string('reward_id', input.rewardId, { min: 1 })]);
  }
  if (input.status !== undefined) {
    if (!['pending', 'accepted', 'rejected'].includes(input.status)) {
      c.fail('status', 'must be pending, accepted or rejected');
    }
    query.push(['status', input.status]);
  }
  cursorParam(c, query, input.cursor);
  return query;
}

/** fetch_user_livestreams: 1–100 unique broadcaster ids; the parameter's name is a wire assumption. */
export function userLivestreamsQuery(userIds: number | number[]): Query {
  const c = new Checks('fetchUserLivestreams');
  const ids = c.oneOrMany(
    'user_ids',
    userIds,
    { min: LIMITS.userLivestreamsUserIdsMin, max: LIMITS.userLivestreamsUserIdsMax, unique: true },
    positiveId(c),
  );
  return ids.map((id): [string, string] => [WIRE_ASSUMPTIONS.userLivestreamsParam, String(id)]);
}
