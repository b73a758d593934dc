/**
 * GET /public/v1/users, GET and PATCH /public/v1/channels against a real sandbox over HTTP (
 * [reference §3.1](../../../docs/kick-wire-reference.md#31-users), [§3.2](../../../docs/kick-wire-reference.md#32-channels)): exact bodies, token and scope rules, limits, the metadata event, and resilience to junk.
 *
 * This file: “PATCH /public/v1/channels”.
 */
import { describe, expect, it } from 'vitest';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { call, mintAppToken, mintUserToken } from '../../helpers/sandbox';
import { allBut, captureEvents, fx, useSetup } from './api-users-channels-fixtures';

useSetup();

describe('PATCH /public/v1/channels', () => {
  it('updates title, category and tags with 204, visible on GET, and announces livestream.metadata.updated', async () => {
    const token = mintUserToken(fx.sandbox);
    const { events, stop } = captureEvents();
    const res = await call(fx.api, 'PATCH', '/public/v1/channels', {
      token,
      body: { category_id: 104, stream_title: 'Ranked grind', custom_tags: ['English', 'Competitive'] },
    });
    stop();
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const after = await call(fx.api, 'GET', '/public/v1/channels', { token });
    expect(after.json.data[0]).toMatchObject({
      stream_title: 'Ranked grind',
      category: { id: 104, name: 'Counter-Strike 2', thumbnail: `${fx.api}/assets/categories/104.png` },
      stream: { custom_tags: ['English', 'Competitive'] },
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'livestream.metadata.updated',
      version: 1,
      broadcasterUserId: STREAMER_USER_ID,
    });
    expect(events[0]!.payload).toEqual({
      broadcaster: expect.objectContaining({
        user_id: STREAMER_USER_ID,
        username: 'sandbox_streamer',
        is_anonymous: false,
      }),
      metadata: {
        title: 'Ranked grind',
        language: 'en',
        has_mature_content: false,
        category: { id: 104, name: 'Counter-Strike 2', thumbnail: `${fx.api}/assets/categories/104.png` },
      },
    });
  });

  it('announces nothing for a tags-only or unchanged update', async () => {
    const token = mintUserToken(fx.sandbox);
    const title = fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)!.streamTitle;
    const { events, stop } = captureEvents();
    expect(
      (await call(fx.api, 'PATCH', '/public/v1/channels', { token, body: { custom_tags: ['Chill'] } })).status,
    ).toBe(204);
    expect((await call(fx.api, 'PATCH', '/public/v1/channels', { token, body: { stream_title: title } })).status).toBe(
      204,
    );
    stop();
    expect(events).toEqual([]);
    expect(fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)!.customTags).toEqual(['Chill']);
  });

  it('moves a live channel’s viewers to its new category', async () => {
    const { state } = fx.sandbox.ctx;
    const channel = state.channels.get(STREAMER_USER_ID)!;
    const from = channel.categoryId;
    const to = from === 105 ? 106 : 105;
    // Go live the way the sandbox keeps its books: the category counts the stream's viewers.
    Object.assign(channel, { isLive: true, startedAtMs: state.now(), viewerCount: 40 });
    state.categories.get(from)!.viewerCount += 40;
    const viewers = async (id: number): Promise<number> =>
      (await call(fx.api, 'GET', `/public/v1/categories/${id}`, { token: mintAppToken(fx.sandbox) })).json.data
        .viewer_count as number;
    try {
      const [fromBefore, toBefore] = [await viewers(from), await viewers(to)];
      const res = await call(fx.api, 'PATCH', '/public/v1/channels', {
        token: mintUserToken(fx.sandbox),
        body: { category_id: to },
      });
      expect(res.status).toBe(204);
      expect(await viewers(from)).toBe(fromBefore - 40);
      expect(await viewers(to)).toBe(toBefore + 40);
    } finally {
      state.categories.get(channel.categoryId)!.viewerCount -= 40;
      Object.assign(channel, { isLive: false, startedAtMs: null, viewerCount: 0 });
    }
  });

  it('rejects an unknown category by name and applies nothing', async () => {
    const token = mintUserToken(fx.sandbox);
    const before = fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)!.streamTitle;
    const res = await call(fx.api, 'PATCH', '/public/v1/channels', {
      token,
      body: { category_id: 999, stream_title: 'changed?' },
    });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ data: 'category_id: category 999 not found', message: 'Bad request' });
    expect(fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)!.streamTitle).toBe(before);
  });

  it.each([
    [{}, 'at least one of category_id, stream_title, custom_tags is required'],
    [{ unrelated: 1 }, 'at least one of category_id, stream_title, custom_tags is required'],
    [{ category_id: '101' }, 'category_id: must be an integer'],
    [{ category_id: 1.5 }, 'category_id: must be an integer'],
    [{ category_id: 0 }, 'category_id: must be at least 1'],
    [{ stream_title: 5 }, 'stream_title: must be a string'],
    [{ custom_tags: 'solo' }, 'custom_tags: must be an array of strings'],
    [{ custom_tags: [1] }, 'custom_tags[0]: must be a string'],
    [{ custom_tags: ['ok', ''] }, 'custom_tags[1]: must not be empty'],
    [{ custom_tags: ['x'.repeat(26)] }, 'custom_tags[0]: must be at most 25 characters'],
    [{ custom_tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, 'custom_tags: must have at most 10 items'],
  ])('rejects %j with "%s"', async (body, detail) => {
    const res = await call(fx.api, 'PATCH', '/public/v1/channels', { token: mintUserToken(fx.sandbox), body });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ data: detail, message: 'Bad request' });
  });

  it('accepts exactly 10 tags of 25 characters', async () => {
    const tags = Array.from({ length: 10 }, (_, i) => `${i}`.padEnd(25, 'x'));
    const res = await call(fx.api, 'PATCH', '/public/v1/channels', {
      token: mintUserToken(fx.sandbox),
      body: { custom_tags: tags },
    });
    expect(res.status).toBe(204);
    expect(fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)!.customTags).toEqual(tags);
  });

  it('needs a user token with channel:write', async () => {
    const body = { stream_title: 'x' };
    const app = await call(fx.api, 'PATCH', '/public/v1/channels', { token: mintAppToken(fx.sandbox), body });
    expect(app.json).toEqual({ data: 'a user access token is required', message: 'Forbidden' });
    const scopeless = await call(fx.api, 'PATCH', '/public/v1/channels', {
      token: mintUserToken(fx.sandbox, allBut('channel:write')),
      body,
    });
    expect(scopeless.json).toEqual({ data: 'missing scope: channel:write', message: 'Forbidden' });
    expect((await call(fx.api, 'PATCH', '/public/v1/channels', { body })).status).toBe(401);
  });

  it('survives malformed and wrongly typed bodies, then still works', async () => {
    const token = mintUserToken(fx.sandbox);
    const malformed = await call(fx.api, 'PATCH', '/public/v1/channels', { token, rawBody: '{"stream_title": ' });
    expect(malformed.json).toEqual({ data: 'request body: malformed JSON', message: 'Bad request' });
    for (const rawBody of ['[]', 'null', '"text"', '42', '', '\u0000\u00ff']) {
      const res = await call(fx.api, 'PATCH', '/public/v1/channels', { token, rawBody });
      expect(res.status).toBe(400);
    }
    const huge = await call(fx.api, 'PATCH', '/public/v1/channels', { token, rawBody: '{"category_id": 1e400}' });
    expect(huge.json.data).toBe('category_id: must be an integer');
    const fine = await call(fx.api, 'PATCH', '/public/v1/channels', { token, body: { stream_title: 'Still alive' } });
    expect(fine.status).toBe(204);
    const users = await call(fx.api, 'GET', '/public/v1/users', { token });
    expect(users.status).toBe(200);
  });
});
