/**
 * Livestream listings (v2, per user, deprecated v1, stats) and categories (v2, deprecated v1 search and
 * lookup) against a real sandbox over HTTP ([reference §3.3](../../../docs/kick-wire-reference.md#33-livestreams), [§3.4](../../../docs/kick-wire-reference.md#34-categories)): shapes, filters, limits, cursor walks.
 *
 * This file: “GET /public/v2/categories”; “deprecated v1 categories”; “robustness”.
 */
import { describe, expect, it } from 'vitest';
import { call, mintAppToken, mintUserToken } from '../../helpers/sandbox';
import { fx, get, items, liveChannels, useSetup, walk } from './api-livestreams-categories-fixtures';

useSetup();

describe('GET /public/v2/categories', () => {
  const all = () => [...fx.sandbox.ctx.state.categories.values()].sort((a, b) => a.id - b.id);

  it('pages through every category by id with the default limit of 25', async () => {
    const first = await get('/public/v2/categories');
    expect(first.status).toBe(200);
    expect(first.json.data).toHaveLength(25);
    expect(first.json.data[0]).toEqual({
      id: 101,
      name: 'Just Chatting',
      tags: ['IRL', 'Talk'],
      thumbnail: `${fx.api}/assets/categories/101.png`,
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
        { id: 110, name: 'Music', tags: ['Creative', 'Performance'], thumbnail: `${fx.api}/assets/categories/110.png` },
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
    expect((await get('/public/v2/categories', { token: mintUserToken(fx.sandbox, []) })).status).toBe(200);
    expect((await call(fx.api, 'GET', '/public/v2/categories')).status).toBe(401);
  });
});

describe('deprecated v1 categories', () => {
  it('searches by q with 100 per page', async () => {
    const res = await get('/public/v1/categories', { query: [['q', 'craft']] });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      data: [
        { id: 107, name: 'Minecraft', thumbnail: `${fx.api}/assets/categories/107.png` },
        { id: 118, name: 'World of Warcraft', thumbnail: `${fx.api}/assets/categories/118.png` },
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
        thumbnail: `${fx.api}/assets/categories/101.png`,
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
    expect((await call(fx.api, 'GET', '/public/v1/categories/101')).status).toBe(401);
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
    const raw = await call(fx.api, 'GET', '/public/v2/livestreams?limit=%ZZ&cursor=%E0%A4%A', {
      token: mintAppToken(fx.sandbox),
    });
    expect([200, 400]).toContain(raw.status);
    expect((await get('/public/v1/livestreams/stats')).status).toBe(200);
  });
});
