/**
 * Livestream listings (v2, per user, deprecated v1, stats) and categories (v2, deprecated v1 search and
 * lookup) against a real sandbox over HTTP ([reference §3.3](../../../docs/kick-wire-reference.md#33-livestreams), [§3.4](../../../docs/kick-wire-reference.md#34-categories)): shapes, filters, limits, cursor walks.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSigningKeys, type Sandbox } from '../../../sandbox/index';
import type { SandboxChannel } from '../../../sandbox/state';
import { FIRST_OTHER_STREAMER_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import {
  call,
  type CallOptions,
  type CallResult,
  mintAppToken,
  mintUserToken,
  startSandbox,
} from '../../helpers/sandbox';

const keys = createSigningKeys();
/** The `data` array of a list answer, typed as the fields a test reads. */
function items<T>(res: CallResult): T[] {
  return res.json.data as T[];
}

let sandbox: Sandbox;
let api: string;
const logs: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ keys, log: (line) => logs.push(line) });
  api = sandbox.urls.api;
});
afterAll(async () => {
  await sandbox.close();
});
afterEach(() => {
  expect(logs.filter((line) => line.includes('handler error'))).toEqual([]);
});

const get = (path: string, options: CallOptions = {}) =>
  call(api, 'GET', path, { token: mintAppToken(sandbox), ...options });

function liveChannels(): SandboxChannel[] {
  return [...sandbox.ctx.state.channels.values()].filter((c) => c.isLive);
}

/** Follows `next_cursor` until it is empty, returning every page's items. */
async function walk<T>(path: string, query: [string, string | number][], startCursor = ''): Promise<T[][]> {
  const pages: T[][] = [];
  let cursor = startCursor;
  do {
    const res = await get(path, { query: cursor ? [...query, ['cursor', cursor]] : query });
    expect(res.status).toBe(200);
    pages.push(items<T>(res));
    cursor = res.json.pagination.next_cursor as string;
    expect(pages.length).toBeLessThan(50);
  } while (cursor !== '');
  return pages;
}

describe('GET /public/v2/livestreams', () => {
  it('lists live streams oldest first as LivestreamV2 items in the paginated envelope', async () => {
    const res = await get('/public/v2/livestreams');
    expect(res.status).toBe(200);
    const live = liveChannels();
    expect(res.json.message).toBe('OK');
    expect(res.json.pagination).toEqual({ next_cursor: '' });
    expect(res.json.data).toHaveLength(live.length);
    const starts = items<{ started_at: string }>(res).map((s) => Date.parse(s.started_at));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    const channel = sandbox.ctx.state.channels.get(FIRST_OTHER_STREAMER_USER_ID)!;
    const user = sandbox.ctx.state.user(FIRST_OTHER_STREAMER_USER_ID)!;
    const item = items<{ id: string; broadcaster_user: { id: number } }>(res).find(
      (s) => s.broadcaster_user.id === channel.broadcasterUserId,
    );
    expect(item).toEqual({
      id: channel.livestreamId,
      title: channel.streamTitle,
      thumbnail: channel.thumbnail,
      started_at: new Date(channel.startedAtMs!).toISOString(),
      viewer_count: channel.viewerCount,
      language_code: channel.language,
      tags: channel.customTags,
      has_mature_content: channel.isMature,
      broadcaster_user: { id: user.userId, username: user.username, profile_picture: user.profilePicture },
      category: { id: 101, name: 'Just Chatting', thumbnail: `${api}/assets/categories/101.png` },
      channel: { slug: channel.slug },
    });
    expect(item?.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('walks every page without duplicates, and a stream starting mid-walk lands at the end', async () => {
    const first = await get('/public/v2/livestreams', { query: [['limit', 5]] });
    expect(first.json.data).toHaveLength(5);
    expect(first.json.pagination.next_cursor).not.toBe('');
    // The streamer goes live now: the newest stream, so it belongs on the last page.
    const own = sandbox.ctx.state.channels.get(STREAMER_USER_ID)!;
    Object.assign(own, {
      isLive: true,
      startedAtMs: sandbox.ctx.state.now(),
      livestreamId: 'own-stream',
      viewerCount: 3,
    });
    try {
      type Stream = { broadcaster_user: { id: number } };
      const rest = await walk<Stream>(
        '/public/v2/livestreams',
        [['limit', 5]],
        first.json.pagination.next_cursor as string,
      );
      const ids = [items<Stream>(first), ...rest].flatMap((page) => page.map((s) => s.broadcaster_user.id));
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.sort()).toEqual(
        liveChannels()
          .map((c) => c.broadcasterUserId)
          .sort(),
      );
      expect(rest.at(-1)!.at(-1)!.broadcaster_user.id).toBe(STREAMER_USER_ID);
    } finally {
      Object.assign(own, { isLive: false, startedAtMs: null, livestreamId: null, viewerCount: 0 });
    }
  });

  it('walks limit=1 pages one stream at a time', async () => {
    const pages = await walk('/public/v2/livestreams', [['limit', 1]]);
    expect(pages.every((p) => p.length === 1)).toBe(true);
    expect(pages).toHaveLength(liveChannels().length);
  });

  it('filters by repeated category_id and language_code (case-insensitive)', async () => {
    const byCategory = await get('/public/v2/livestreams', {
      query: [
        ['category_id', 101],
        ['category_id', 102],
      ],
    });
    const expected = liveChannels().filter((c) => c.categoryId === 101 || c.categoryId === 102);
    expect(
      items<{ category: { id: number } }>(byCategory)
        .map((s) => s.category.id)
        .sort(),
    ).toEqual(expected.map((c) => c.categoryId).sort());
    expect(expected.length).toBeGreaterThan(1);
    const spanish = await get('/public/v2/livestreams', { query: [['language_code', 'ES']] });
    const es = liveChannels().filter((c) => c.language === 'es');
    expect(es.length).toBeGreaterThan(0);
    expect(items<{ language_code: string }>(spanish).map((s) => s.language_code)).toEqual(es.map(() => 'es'));
  });

  it.each([
    [[['limit', 0]], 'limit: must be at least 1'],
    [[['limit', 1001]], 'limit: must be at most 1000'],
    [[['limit', 'ten']], 'limit: must be an integer'],
    [[['category_id', '101,102']], 'category_id: must be an integer'],
    [Array.from({ length: 26 }, (_, i) => ['category_id', 101 + i]), 'category_id: at most 25 values'],
    [Array.from({ length: 26 }, () => ['language_code', 'en']), 'language_code: at most 25 values'],
    [[['cursor', '!!not-a-cursor!!']], 'cursor: invalid cursor'],
    [[['cursor', Buffer.from('cat:5').toString('base64url')]], 'cursor: invalid cursor'],
  ] as [[string, string | number][], string][])('rejects %j with "%s"', async (query, detail) => {
    const res = await get('/public/v2/livestreams', { query });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ data: detail, message: 'Bad request' });
  });

  it('accepts 25 category ids and the 1000 limit, and any token kind without scopes', async () => {
    const ids = Array.from({ length: 25 }, (_, i): [string, number] => ['category_id', 101 + i]);
    expect((await get('/public/v2/livestreams', { query: [...ids, ['limit', 1000]] })).status).toBe(200);
    const scopeless = await get('/public/v2/livestreams', { token: mintUserToken(sandbox, []) });
    expect(scopeless.status).toBe(200);
    expect((await call(api, 'GET', '/public/v2/livestreams')).json).toEqual({ data: {}, message: 'Unauthorized' });
    const token = mintUserToken(sandbox, [], STREAMER_USER_ID, 5);
    sandbox.ctx.clock.advance(5_000);
    expect((await get('/public/v2/livestreams', { token })).status).toBe(401);
  });
});

describe('GET /public/v1/users/livestreams', () => {
  it('returns LivestreamV2 items for the live users only', async () => {
    const res = await get('/public/v1/users/livestreams', {
      query: [
        ['user_id', FIRST_OTHER_STREAMER_USER_ID + 1],
        ['user_id', STREAMER_USER_ID],
        ['user_id', 999_999],
        ['user_id', FIRST_OTHER_STREAMER_USER_ID + 1],
      ],
    });
    expect(res.status).toBe(200);
    expect(res.json.pagination).toBeUndefined();
    expect(res.json.data).toHaveLength(1);
    const channel = sandbox.ctx.state.channels.get(FIRST_OTHER_STREAMER_USER_ID + 1)!;
    expect(res.json.data[0]).toMatchObject({
      id: channel.livestreamId,
      channel: { slug: channel.slug },
      title: channel.streamTitle,
    });
    const offline = await get('/public/v1/users/livestreams', { query: [['user_id', STREAMER_USER_ID]] });
    expect(offline.json).toEqual({ data: [], message: 'OK' });
  });

  it('requires 1 to 100 user ids', async () => {
    const none = await get('/public/v1/users/livestreams');
    expect(none.json).toEqual({ data: 'user_id: is required (1 to 100 values)', message: 'Bad request' });
    const many = Array.from({ length: 101 }, (_, i): [string, number] => ['user_id', i + 1]);
    expect((await get('/public/v1/users/livestreams', { query: many })).json.data).toBe('user_id: at most 100 values');
    expect((await get('/public/v1/users/livestreams', { query: many.slice(0, 100) })).status).toBe(200);
    expect((await call(api, 'GET', '/public/v1/users/livestreams', { query: [['user_id', 1]] })).status).toBe(401);
  });
});

describe('GET /public/v1/livestreams (deprecated)', () => {
  it('lists LivestreamV1 items by viewer count by default', async () => {
    const res = await get('/public/v1/livestreams');
    expect(res.status).toBe(200);
    const counts = items<{ viewer_count: number }>(res).map((s) => s.viewer_count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(counts).toHaveLength(liveChannels().length);
    const channel = sandbox.ctx.state.channels.get(FIRST_OTHER_STREAMER_USER_ID)!;
    const item = items<{ broadcaster_user_id: number }>(res).find(
      (s) => s.broadcaster_user_id === FIRST_OTHER_STREAMER_USER_ID,
    );
    expect(item).toEqual({
      broadcaster_user_id: FIRST_OTHER_STREAMER_USER_ID,
      channel_id: FIRST_OTHER_STREAMER_USER_ID,
      slug: channel.slug,
      stream_title: channel.streamTitle,
      language: channel.language,
      has_mature_content: channel.isMature,
      viewer_count: channel.viewerCount,
      thumbnail: channel.thumbnail,
      started_at: new Date(channel.startedAtMs!).toISOString(),
      category: { id: 101, name: 'Just Chatting', thumbnail: `${api}/assets/categories/101.png` },
      custom_tags: channel.customTags,
      profile_picture: sandbox.ctx.state.user(FIRST_OTHER_STREAMER_USER_ID)!.profilePicture,
    });
  });

  it('sorts by started_at newest first, filters, and honours limit', async () => {
    const res = await get('/public/v1/livestreams', { query: [['sort', 'started_at']] });
    const starts = items<{ started_at: string }>(res).map((s) => Date.parse(s.started_at));
    expect(starts).toEqual([...starts].sort((a, b) => b - a));
    const two = await get('/public/v1/livestreams', { query: [['limit', 2]] });
    expect(two.json.data).toHaveLength(2);
    const picked = await get('/public/v1/livestreams', {
      query: [
        ['broadcaster_user_id', FIRST_OTHER_STREAMER_USER_ID],
        ['broadcaster_user_id', FIRST_OTHER_STREAMER_USER_ID + 3],
        ['broadcaster_user_id', STREAMER_USER_ID],
      ],
    });
    expect(
      items<{ broadcaster_user_id: number }>(picked)
        .map((s) => s.broadcaster_user_id)
        .sort(),
    ).toEqual([FIRST_OTHER_STREAMER_USER_ID, FIRST_OTHER_STREAMER_USER_ID + 3]);
    const es = await get('/public/v1/livestreams', { query: [['language', 'es']] });
    expect(es.json.data.length).toBe(liveChannels().filter((c) => c.language === 'es').length);
    const cat = await get('/public/v1/livestreams', { query: [['category_id', 102]] });
    expect(items<{ category: { id: number } }>(cat).map((s) => s.category.id)).toEqual(
      liveChannels()
        .filter((c) => c.categoryId === 102)
        .map(() => 102),
    );
  });

  it.each([
    [[['sort', 'popularity']], 'sort: must be one of viewer_count, started_at'],
    [[['limit', 101]], 'limit: must be at most 100'],
    [[['limit', 0]], 'limit: must be at least 1'],
    [[['category_id', 'x']], 'category_id: must be an integer'],
    [Array.from({ length: 51 }, (_, i) => ['broadcaster_user_id', i + 1]), 'broadcaster_user_id: at most 50 values'],
  ] as [[string, string | number][], string][])('rejects %j with "%s"', async (query, detail) => {
    const res = await get('/public/v1/livestreams', { query });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ data: detail, message: 'Bad request' });
  });
});

describe('GET /public/v1/livestreams/stats', () => {
  it('counts live streams platform-wide', async () => {
    const res = await get('/public/v1/livestreams/stats');
    expect(res.json).toEqual({ data: { total_count: liveChannels().length }, message: 'OK' });
    expect(liveChannels().length).toBe(12);
    expect((await call(api, 'GET', '/public/v1/livestreams/stats')).status).toBe(401);
  });
});

describe('GET /public/v2/categories', () => {
  const all = () => [...sandbox.ctx.state.categories.values()].sort((a, b) => a.id - b.id);

  it('pages through every category by id with the default limit of 25', async () => {
    const first = await get('/public/v2/categories');
    expect(first.status).toBe(200);
    expect(first.json.data).toHaveLength(25);
    expect(first.json.data[0]).toEqual({
      id: 101,
      name: 'Just Chatting',
      tags: ['IRL', 'Talk'],
      thumbnail: `${api}/assets/categories/101.png`,
    });
    expect(first.json.pagination.next_cursor).toMatch(/^[A-Za-z0-9_-]{4,28}$/);
    const pages = await walk<{ id: number }>('/public/v2/categories', [['limit', 7]]);
    expect(pages.map((p) => p.length)).toEqual([7, 7, 7, 7, 2]);
    const ids = pages.flatMap((p) => p.map((c) => c.id));
    expect(ids).toEqual(all().map((c) => c.id));
  });

  it('matches names by case-insensitive substring, repeated or comma-joined', async () => {
    const one = await get('/public/v2/categories', { query: [['name', 'FORT']] });
    expect(items<{ name: string }>(one).map((c) => c.name)).toEqual(['Fortnite']);
    const repeated = await get('/public/v2/categories', {
      query: [
        ['name', 'fort'],
        ['name', 'chess'],
      ],
    });
    const joined = await get('/public/v2/categories', { query: [['name', 'fort,chess']] });
    expect(items<{ name: string }>(repeated).map((c) => c.name)).toEqual(['Fortnite', 'Chess']);
    expect(joined.json.data).toEqual(repeated.json.data);
    const short = await get('/public/v2/categories', { query: [['name', 'fo']] });
    expect(short.json).toEqual({ data: 'name: each value must be at least 3 characters', message: 'Bad request' });
  });

  it('filters by tag and id (repeated or comma-joined), combining kinds with AND', async () => {
    const fps = await get('/public/v2/categories', { query: [['tag', 'fps']] });
    const expected = all().filter((c) => c.tags.includes('FPS'));
    expect(items<{ id: number }>(fps).map((c) => c.id)).toEqual(expected.map((c) => c.id));
    expect(expected.length).toBeGreaterThan(3);
    const ids = await get('/public/v2/categories', { query: [['id', '105,101']] });
    expect(items<{ id: number }>(ids).map((c) => c.id)).toEqual([101, 105]);
    const both = await get('/public/v2/categories', {
      query: [
        ['tag', 'FPS'],
        ['id', 101],
        ['id', 104],
      ],
    });
    expect(items<{ id: number }>(both).map((c) => c.id)).toEqual([104]);
    const byIdLimit1 = await get('/public/v2/categories', {
      query: [
        ['id', 110],
        ['limit', 1],
      ],
    });
    expect(byIdLimit1.json).toEqual({
      data: [
        { id: 110, name: 'Music', tags: ['Creative', 'Performance'], thumbnail: `${api}/assets/categories/110.png` },
      ],
      message: 'OK',
      pagination: { next_cursor: '' },
    });
  });

  it.each([
    [[['limit', 0]], 'limit: must be at least 1'],
    [[['limit', 1001]], 'limit: must be at most 1000'],
    [[['id', '10x']], 'id: must be an integer'],
    [[['cursor', 'zz']], 'cursor: invalid cursor'],
    [[['cursor', Buffer.from('1.2').toString('base64url')]], 'cursor: invalid cursor'],
  ] as [[string, string | number][], string][])('rejects %j with "%s"', async (query, detail) => {
    const res = await get('/public/v2/categories', { query });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ data: detail, message: 'Bad request' });
  });

  it('needs a live token of either kind', async () => {
    expect((await get('/public/v2/categories', { token: mintUserToken(sandbox, []) })).status).toBe(200);
    expect((await call(api, 'GET', '/public/v2/categories')).status).toBe(401);
  });
});

describe('deprecated v1 categories', () => {
  it('searches by q with 100 per page', async () => {
    const res = await get('/public/v1/categories', { query: [['q', 'craft']] });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      data: [
        { id: 107, name: 'Minecraft', thumbnail: `${api}/assets/categories/107.png` },
        { id: 118, name: 'World of Warcraft', thumbnail: `${api}/assets/categories/118.png` },
      ],
      message: 'OK',
    });
    const page2 = await get('/public/v1/categories', {
      query: [
        ['q', 'a'],
        ['page', 2],
      ],
    });
    expect(page2.json).toEqual({ data: [], message: 'OK' });
  });

  it('requires q and a positive page', async () => {
    expect((await get('/public/v1/categories')).json).toEqual({ data: 'q: is required', message: 'Bad request' });
    expect((await get('/public/v1/categories', { query: [['q', '  ']] })).json.data).toBe('q: is required');
    const page0 = await get('/public/v1/categories', {
      query: [
        ['q', 'x'],
        ['page', 0],
      ],
    });
    expect(page0.json.data).toBe('page: must be at least 1');
  });

  it('returns a CategoryDetail by id with the live viewer count, 404 for unknown ids', async () => {
    const res = await get('/public/v1/categories/101');
    const viewers = liveChannels()
      .filter((c) => c.categoryId === 101)
      .reduce((n, c) => n + c.viewerCount, 0);
    expect(viewers).toBeGreaterThan(0);
    expect(res.json).toEqual({
      data: {
        id: 101,
        name: 'Just Chatting',
        thumbnail: `${api}/assets/categories/101.png`,
        tags: ['IRL', 'Talk'],
        viewer_count: viewers,
      },
      message: 'OK',
    });
    const missing = await get('/public/v1/categories/999');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ data: 'category_id: category 999 not found', message: 'Not found' });
    const bad = await get('/public/v1/categories/abc');
    expect(bad.json).toEqual({ data: 'category_id: must be an integer', message: 'Bad request' });
    expect((await call(api, 'GET', '/public/v1/categories/101')).status).toBe(401);
  });
});

describe('robustness', () => {
  it('survives odd query strings and still answers afterwards', async () => {
    const odd: [string, string][][] = [
      [['limit', '1e3']],
      [['limit', '-1']],
      [['limit', '99999999999999999999999']],
      [['cursor', '%%%']],
      [['cursor', 'A'.repeat(5000)]],
      [['category_id', '']],
      [['name', ',,,']],
    ];
    for (const query of odd) {
      for (const path of ['/public/v2/livestreams', '/public/v2/categories', '/public/v1/livestreams']) {
        const res = await get(path, { query });
        expect([200, 400]).toContain(res.status);
      }
    }
    const raw = await call(api, 'GET', '/public/v2/livestreams?limit=%ZZ&cursor=%E0%A4%A', {
      token: mintAppToken(sandbox),
    });
    expect([200, 400]).toContain(raw.status);
    expect((await get('/public/v1/livestreams/stats')).status).toBe(200);
  });
});
