/**
 * Livestream listings (v2, per user, deprecated v1, stats) and categories (v2, deprecated v1 search and
 * lookup) against a real sandbox over HTTP ([reference §3.3](../../../docs/kick-wire-reference.md#33-livestreams), [§3.4](../../../docs/kick-wire-reference.md#34-categories)): shapes, filters, limits, cursor walks.
 *
 * This file: “GET /public/v2/livestreams”; “GET /public/v1/users/livestreams”; “GET /public/v1/livestreams (deprecated)”; “GET /public/v1/livestreams/stats”.
 */
import { describe, expect, it } from 'vitest';
import { FIRST_OTHER_STREAMER_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { call, mintUserToken } from '../../helpers/sandbox';
import { fx, get, items, liveChannels, useSetup, walk } from './api-livestreams-categories-fixtures';

useSetup();

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
    const channel = fx.sandbox.ctx.state.channels.get(FIRST_OTHER_STREAMER_USER_ID)!;
    const user = fx.sandbox.ctx.state.user(FIRST_OTHER_STREAMER_USER_ID)!;
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
      category: { id: 101, name: 'Just Chatting', thumbnail: `${fx.api}/assets/categories/101.png` },
      channel: { slug: channel.slug },
    });
    expect(item?.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('walks every page without duplicates, and a stream starting mid-walk lands at the end', async () => {
    const first = await get('/public/v2/livestreams', { query: [['limit', 5]] });
    expect(first.json.data).toHaveLength(5);
    expect(first.json.pagination.next_cursor).not.toBe('');
    // The streamer goes live now: the newest stream, so it belongs on the last page.
    const own = fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)!;
    Object.assign(own, {
      isLive: true,
      startedAtMs: fx.sandbox.ctx.state.now(),
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
    const scopeless = await get('/public/v2/livestreams', { token: mintUserToken(fx.sandbox, []) });
    expect(scopeless.status).toBe(200);
    expect((await call(fx.api, 'GET', '/public/v2/livestreams')).json).toEqual({ data: {}, message: 'Unauthorized' });
    const token = mintUserToken(fx.sandbox, [], STREAMER_USER_ID, 5);
    fx.sandbox.ctx.clock.advance(5_000);
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
    const channel = fx.sandbox.ctx.state.channels.get(FIRST_OTHER_STREAMER_USER_ID + 1)!;
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
    expect((await call(fx.api, 'GET', '/public/v1/users/livestreams', { query: [['user_id', 1]] })).status).toBe(401);
  });
});

describe('GET /public/v1/livestreams (deprecated)', () => {
  it('lists LivestreamV1 items by viewer count by default', async () => {
    const res = await get('/public/v1/livestreams');
    expect(res.status).toBe(200);
    const counts = items<{ viewer_count: number }>(res).map((s) => s.viewer_count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(counts).toHaveLength(liveChannels().length);
    const channel = fx.sandbox.ctx.state.channels.get(FIRST_OTHER_STREAMER_USER_ID)!;
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
      category: { id: 101, name: 'Just Chatting', thumbnail: `${fx.api}/assets/categories/101.png` },
      custom_tags: channel.customTags,
      profile_picture: fx.sandbox.ctx.state.user(FIRST_OTHER_STREAMER_USER_ID)!.profilePicture,
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
    expect((await call(fx.api, 'GET', '/public/v1/livestreams/stats')).status).toBe(401);
  });
});
