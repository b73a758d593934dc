/**
 * GET /public/v1/users, GET and PATCH /public/v1/channels against a real sandbox over HTTP (
 * [reference §3.1](../../../docs/kick-wire-reference.md#31-users), [§3.2](../../../docs/kick-wire-reference.md#32-channels)): exact bodies, token and scope rules, limits, the metadata event, and resilience to junk.
 *
 * This file: “GET /public/v1/users”; “GET /public/v1/channels”.
 */
import { describe, expect, it } from 'vitest';
import { FIRST_OTHER_STREAMER_USER_ID, MODERATOR_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { KICK_SCOPES } from '../../../shared/kick/scopes';
import { call, mintAppToken, mintUserToken } from '../../helpers/sandbox';
import { allBut, fx, items, useSetup } from './api-users-channels-fixtures';

useSetup();

describe('GET /public/v1/users', () => {
  it('returns the token user, email included, when no id is given', async () => {
    const res = await call(fx.api, 'GET', '/public/v1/users', { token: mintUserToken(fx.sandbox) });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      data: [
        {
          user_id: STREAMER_USER_ID,
          name: 'sandbox_streamer',
          email: 'sandbox_streamer@sandbox.greenroom.invalid',
          profile_picture: `${fx.api}/assets/avatars/${STREAMER_USER_ID}.png`,
        },
      ],
      message: 'OK',
    });
  });

  it('looks up repeated ids in order, skips unknown ones, dedupes, and shows email only for self', async () => {
    const res = await call(fx.api, 'GET', '/public/v1/users', {
      token: mintUserToken(fx.sandbox),
      query: [
        ['id', MODERATOR_USER_ID],
        ['id', 999_999],
        ['id', STREAMER_USER_ID],
        ['id', MODERATOR_USER_ID],
      ],
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual([
      {
        user_id: MODERATOR_USER_ID,
        name: 'sandbox_mod',
        email: '',
        profile_picture: `${fx.api}/assets/avatars/${MODERATOR_USER_ID}.png`,
      },
      {
        user_id: STREAMER_USER_ID,
        name: 'sandbox_streamer',
        email: 'sandbox_streamer@sandbox.greenroom.invalid',
        profile_picture: `${fx.api}/assets/avatars/${STREAMER_USER_ID}.png`,
      },
    ]);
  });

  it('answers an app token with ids, never with an email', async () => {
    const res = await call(fx.api, 'GET', '/public/v1/users', {
      token: mintAppToken(fx.sandbox),
      query: [['id', STREAMER_USER_ID]],
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual([
      {
        user_id: STREAMER_USER_ID,
        name: 'sandbox_streamer',
        email: '',
        profile_picture: `${fx.api}/assets/avatars/${STREAMER_USER_ID}.png`,
      },
    ]);
  });

  it('refuses an app token without ids with 403 (an app has no "me")', async () => {
    const res = await call(fx.api, 'GET', '/public/v1/users', { token: mintAppToken(fx.sandbox) });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({
      data: 'User not authenticated: give id, or use a user access token',
      message: 'Forbidden',
    });
  });

  it('needs user:read on a user token', async () => {
    const res = await call(fx.api, 'GET', '/public/v1/users', {
      token: mintUserToken(fx.sandbox, allBut('user:read')),
    });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ data: 'missing scope: user:read', message: 'Forbidden' });
  });

  it('answers 401 without a token, with an unknown one, and once the token expired', async () => {
    expect((await call(fx.api, 'GET', '/public/v1/users')).json).toEqual({ data: {}, message: 'Unauthorized' });
    expect((await call(fx.api, 'GET', '/public/v1/users', { token: 'nope' })).status).toBe(401);
    const token = mintUserToken(fx.sandbox, KICK_SCOPES, STREAMER_USER_ID, 60);
    expect((await call(fx.api, 'GET', '/public/v1/users', { token })).status).toBe(200);
    fx.sandbox.ctx.clock.advance(61_000);
    const expired = await call(fx.api, 'GET', '/public/v1/users', { token });
    expect(expired.status).toBe(401);
    expect(expired.json).toEqual({ data: {}, message: 'Unauthorized' });
  });

  it('rejects ids that are not positive integers, naming the field', async () => {
    const token = mintUserToken(fx.sandbox);
    const bad = await call(fx.api, 'GET', '/public/v1/users', { token, query: [['id', 'abc']] });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ data: 'id: must be an integer', message: 'Bad request' });
    const zero = await call(fx.api, 'GET', '/public/v1/users', { token, query: [['id', 0]] });
    expect(zero.json).toEqual({ data: 'id: must be at least 1', message: 'Bad request' });
  });
});

describe('GET /public/v1/channels', () => {
  it('returns the token user’s own channel with the stream key when streamkey:read is granted', async () => {
    const channel = fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)!;
    const res = await call(fx.api, 'GET', '/public/v1/channels', { token: mintUserToken(fx.sandbox) });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      data: [
        {
          broadcaster_user_id: STREAMER_USER_ID,
          slug: 'sandbox-streamer',
          channel_description: channel.description,
          banner_picture: `${fx.api}/assets/banners/${STREAMER_USER_ID}.png`,
          stream_title: channel.streamTitle,
          category: { id: 101, name: 'Just Chatting', thumbnail: `${fx.api}/assets/categories/101.png` },
          stream: {
            is_live: false,
            is_mature: false,
            language: 'en',
            viewer_count: 0,
            start_time: '0001-01-01T00:00:00Z',
            thumbnail: `${fx.api}/assets/thumbnails/${STREAMER_USER_ID}.png`,
            custom_tags: channel.customTags,
            url: channel.streamUrl,
            key: channel.streamKey,
          },
          active_subscribers_count: 42,
          canceled_subscribers_count: 3,
        },
      ],
      message: 'OK',
    });
    expect(channel.streamKey).toMatch(/^sk_sandbox_/);
  });

  it('blanks url and key without streamkey:read, and on other channels', async () => {
    const own = await call(fx.api, 'GET', '/public/v1/channels', {
      token: mintUserToken(fx.sandbox, allBut('streamkey:read')),
    });
    expect(own.json.data[0].stream).toMatchObject({ url: '', key: '' });
    const other = await call(fx.api, 'GET', '/public/v1/channels', {
      token: mintUserToken(fx.sandbox),
      query: [['broadcaster_user_id', FIRST_OTHER_STREAMER_USER_ID]],
    });
    const live = fx.sandbox.ctx.state.channels.get(FIRST_OTHER_STREAMER_USER_ID)!;
    expect(other.json.data).toHaveLength(1);
    expect(other.json.data[0].stream).toEqual({
      is_live: true,
      is_mature: live.isMature,
      language: live.language,
      viewer_count: live.viewerCount,
      start_time: new Date(live.startedAtMs!).toISOString(),
      thumbnail: live.thumbnail,
      custom_tags: live.customTags,
      url: '',
      key: '',
    });
  });

  it('answers an unset category as {id:0,name:"",thumbnail:""}', async () => {
    const res = await call(fx.api, 'GET', '/public/v1/channels', {
      token: mintAppToken(fx.sandbox),
      query: [['broadcaster_user_id', MODERATOR_USER_ID]],
    });
    expect(res.status).toBe(200);
    expect(res.json.data[0].category).toEqual({ id: 0, name: '', thumbnail: '' });
    expect(res.json.data[0].stream.start_time).toBe('0001-01-01T00:00:00Z');
  });

  it('looks up repeated slugs case-insensitively and repeated ids, skipping unknown ones', async () => {
    const token = mintUserToken(fx.sandbox);
    const bySlug = await call(fx.api, 'GET', '/public/v1/channels', {
      token,
      query: [
        ['slug', 'SANDBOX-MOD'],
        ['slug', 'no-such-channel'],
        ['slug', 'sandbox-streamer'],
      ],
    });
    expect(items<{ broadcaster_user_id: number }>(bySlug).map((c) => c.broadcaster_user_id)).toEqual([
      MODERATOR_USER_ID,
      STREAMER_USER_ID,
    ]);
    const byId = await call(fx.api, 'GET', '/public/v1/channels', {
      token,
      query: [
        ['broadcaster_user_id', 999_999],
        ['broadcaster_user_id', STREAMER_USER_ID],
      ],
    });
    expect(items<{ slug: string }>(byId).map((c) => c.slug)).toEqual(['sandbox-streamer']);
    const none = await call(fx.api, 'GET', '/public/v1/channels', { token, query: [['broadcaster_user_id', 999_999]] });
    expect(none.json).toEqual({ data: [], message: 'OK' });
  });

  it('rejects mixing filters and going past the limits, naming field and limit', async () => {
    const token = mintUserToken(fx.sandbox);
    const mixed = await call(fx.api, 'GET', '/public/v1/channels', {
      token,
      query: [
        ['broadcaster_user_id', STREAMER_USER_ID],
        ['slug', 'sandbox-mod'],
      ],
    });
    expect(mixed.status).toBe(400);
    expect(mixed.json).toEqual({
      data: 'broadcaster_user_id and slug: use one or the other, not both',
      message: 'Bad request',
    });
    const ids = Array.from({ length: 51 }, (_, i): [string, number] => ['broadcaster_user_id', i + 1]);
    expect((await call(fx.api, 'GET', '/public/v1/channels', { token, query: ids })).json.data).toBe(
      'broadcaster_user_id: at most 50 values',
    );
    const fifty = ids.slice(0, 50);
    expect((await call(fx.api, 'GET', '/public/v1/channels', { token, query: fifty })).status).toBe(200);
    const slugs = Array.from({ length: 51 }, (_, i): [string, string] => ['slug', `s${i}`]);
    expect((await call(fx.api, 'GET', '/public/v1/channels', { token, query: slugs })).json.data).toBe(
      'slug: at most 50 values',
    );
    const long = await call(fx.api, 'GET', '/public/v1/channels', { token, query: [['slug', 'a'.repeat(26)]] });
    expect(long.json).toEqual({ data: 'slug: must be at most 25 characters', message: 'Bad request' });
    const ok25 = await call(fx.api, 'GET', '/public/v1/channels', { token, query: [['slug', 'a'.repeat(25)]] });
    expect(ok25.json).toEqual({ data: [], message: 'OK' });
  });

  it('needs channel:read on user tokens, a filter on app tokens, and a live token', async () => {
    const scopeless = await call(fx.api, 'GET', '/public/v1/channels', {
      token: mintUserToken(fx.sandbox, allBut('channel:read')),
    });
    expect(scopeless.json).toEqual({ data: 'missing scope: channel:read', message: 'Forbidden' });
    const app = await call(fx.api, 'GET', '/public/v1/channels', { token: mintAppToken(fx.sandbox) });
    expect(app.status).toBe(403);
    expect(app.json.data).toBe('User not authenticated: give broadcaster_user_id or slug, or use a user access token');
    expect((await call(fx.api, 'GET', '/public/v1/channels')).status).toBe(401);
    const token = mintUserToken(fx.sandbox, KICK_SCOPES, STREAMER_USER_ID, 10);
    fx.sandbox.ctx.clock.advance(10_000);
    expect((await call(fx.api, 'GET', '/public/v1/channels', { token })).status).toBe(401);
  });
});
