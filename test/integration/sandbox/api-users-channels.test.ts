/**
 * GET /public/v1/users, GET and PATCH /public/v1/channels against a real sandbox over HTTP (
 * [reference §3.1](../../../docs/kick-wire-reference.md#31-users), [§3.2](../../../docs/kick-wire-reference.md#32-channels)): exact bodies, token and scope rules, limits, the metadata event, and resilience to junk.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSigningKeys, type Sandbox } from '../../../sandbox/index';
import type { SandboxEvent } from '../../../sandbox/state';
import { FIRST_OTHER_STREAMER_USER_ID, MODERATOR_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { KICK_SCOPES } from '../../../shared/kick/scopes';
import { call, type CallResult, mintAppToken, mintUserToken, startSandbox } from '../../helpers/sandbox';

const keys = createSigningKeys();
const allBut = (scope: string): string[] => KICK_SCOPES.filter((s) => s !== scope);

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
  // A handler that throws answers 500 and logs; no request in these tests may get there.
  expect(logs.filter((line) => line.includes('handler error'))).toEqual([]);
});

function captureEvents(): { events: SandboxEvent[]; stop: () => void } {
  const events: SandboxEvent[] = [];
  const stop = sandbox.ctx.state.onEvent((event) => events.push(event));
  return { events, stop };
}

describe('GET /public/v1/users', () => {
  it('returns the token user, email included, when no id is given', async () => {
    const res = await call(api, 'GET', '/public/v1/users', { token: mintUserToken(sandbox) });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      data: [
        {
          user_id: STREAMER_USER_ID,
          name: 'sandbox_streamer',
          email: 'sandbox_streamer@sandbox.greenroom.invalid',
          profile_picture: `${api}/assets/avatars/${STREAMER_USER_ID}.png`,
        },
      ],
      message: 'OK',
    });
  });

  it('looks up repeated ids in order, skips unknown ones, dedupes, and shows email only for self', async () => {
    const res = await call(api, 'GET', '/public/v1/users', {
      token: mintUserToken(sandbox),
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
        profile_picture: `${api}/assets/avatars/${MODERATOR_USER_ID}.png`,
      },
      {
        user_id: STREAMER_USER_ID,
        name: 'sandbox_streamer',
        email: 'sandbox_streamer@sandbox.greenroom.invalid',
        profile_picture: `${api}/assets/avatars/${STREAMER_USER_ID}.png`,
      },
    ]);
  });

  it('answers an app token with ids, never with an email', async () => {
    const res = await call(api, 'GET', '/public/v1/users', {
      token: mintAppToken(sandbox),
      query: [['id', STREAMER_USER_ID]],
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual([
      {
        user_id: STREAMER_USER_ID,
        name: 'sandbox_streamer',
        email: '',
        profile_picture: `${api}/assets/avatars/${STREAMER_USER_ID}.png`,
      },
    ]);
  });

  it('refuses an app token without ids with 403 (an app has no "me")', async () => {
    const res = await call(api, 'GET', '/public/v1/users', { token: mintAppToken(sandbox) });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({
      data: 'User not authenticated: give id, or use a user access token',
      message: 'Forbidden',
    });
  });

  it('needs user:read on a user token', async () => {
    const res = await call(api, 'GET', '/public/v1/users', { token: mintUserToken(sandbox, allBut('user:read')) });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ data: 'missing scope: user:read', message: 'Forbidden' });
  });

  it('answers 401 without a token, with an unknown one, and once the token expired', async () => {
    expect((await call(api, 'GET', '/public/v1/users')).json).toEqual({ data: {}, message: 'Unauthorized' });
    expect((await call(api, 'GET', '/public/v1/users', { token: 'nope' })).status).toBe(401);
    const token = mintUserToken(sandbox, KICK_SCOPES, STREAMER_USER_ID, 60);
    expect((await call(api, 'GET', '/public/v1/users', { token })).status).toBe(200);
    sandbox.ctx.clock.advance(61_000);
    const expired = await call(api, 'GET', '/public/v1/users', { token });
    expect(expired.status).toBe(401);
    expect(expired.json).toEqual({ data: {}, message: 'Unauthorized' });
  });

  it('rejects ids that are not positive integers, naming the field', async () => {
    const token = mintUserToken(sandbox);
    const bad = await call(api, 'GET', '/public/v1/users', { token, query: [['id', 'abc']] });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ data: 'id: must be an integer', message: 'Bad request' });
    const zero = await call(api, 'GET', '/public/v1/users', { token, query: [['id', 0]] });
    expect(zero.json).toEqual({ data: 'id: must be at least 1', message: 'Bad request' });
  });
});

describe('GET /public/v1/channels', () => {
  it('returns the token user’s own channel with the stream key when streamkey:read is granted', async () => {
    const channel = sandbox.ctx.state.channels.get(STREAMER_USER_ID)!;
    const res = await call(api, 'GET', '/public/v1/channels', { token: mintUserToken(sandbox) });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      data: [
        {
          broadcaster_user_id: STREAMER_USER_ID,
          slug: 'sandbox-streamer',
          channel_description: channel.description,
          banner_picture: `${api}/assets/banners/${STREAMER_USER_ID}.png`,
          stream_title: channel.streamTitle,
          category: { id: 101, name: 'Just Chatting', thumbnail: `${api}/assets/categories/101.png` },
          stream: {
            is_live: false,
            is_mature: false,
            language: 'en',
            viewer_count: 0,
            start_time: '0001-01-01T00:00:00Z',
            thumbnail: `${api}/assets/thumbnails/${STREAMER_USER_ID}.png`,
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
    const own = await call(api, 'GET', '/public/v1/channels', {
      token: mintUserToken(sandbox, allBut('streamkey:read')),
    });
    expect(own.json.data[0].stream).toMatchObject({ url: '', key: '' });
    const other = await call(api, 'GET', '/public/v1/channels', {
      token: mintUserToken(sandbox),
      query: [['broadcaster_user_id', FIRST_OTHER_STREAMER_USER_ID]],
    });
    const live = sandbox.ctx.state.channels.get(FIRST_OTHER_STREAMER_USER_ID)!;
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
    const res = await call(api, 'GET', '/public/v1/channels', {
      token: mintAppToken(sandbox),
      query: [['broadcaster_user_id', MODERATOR_USER_ID]],
    });
    expect(res.status).toBe(200);
    expect(res.json.data[0].category).toEqual({ id: 0, name: '', thumbnail: '' });
    expect(res.json.data[0].stream.start_time).toBe('0001-01-01T00:00:00Z');
  });

  it('looks up repeated slugs case-insensitively and repeated ids, skipping unknown ones', async () => {
    const token = mintUserToken(sandbox);
    const bySlug = await call(api, 'GET', '/public/v1/channels', {
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
    const byId = await call(api, 'GET', '/public/v1/channels', {
      token,
      query: [
        ['broadcaster_user_id', 999_999],
        ['broadcaster_user_id', STREAMER_USER_ID],
      ],
    });
    expect(items<{ slug: string }>(byId).map((c) => c.slug)).toEqual(['sandbox-streamer']);
    const none = await call(api, 'GET', '/public/v1/channels', { token, query: [['broadcaster_user_id', 999_999]] });
    expect(none.json).toEqual({ data: [], message: 'OK' });
  });

  it('rejects mixing filters and going past the limits, naming field and limit', async () => {
    const token = mintUserToken(sandbox);
    const mixed = await call(api, 'GET', '/public/v1/channels', {
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
    expect((await call(api, 'GET', '/public/v1/channels', { token, query: ids })).json.data).toBe(
      'broadcaster_user_id: at most 50 values',
    );
    const fifty = ids.slice(0, 50);
    expect((await call(api, 'GET', '/public/v1/channels', { token, query: fifty })).status).toBe(200);
    const slugs = Array.from({ length: 51 }, (_, i): [string, string] => ['slug', `s${i}`]);
    expect((await call(api, 'GET', '/public/v1/channels', { token, query: slugs })).json.data).toBe(
      'slug: at most 50 values',
    );
    const long = await call(api, 'GET', '/public/v1/channels', { token, query: [['slug', 'a'.repeat(26)]] });
    expect(long.json).toEqual({ data: 'slug: must be at most 25 characters', message: 'Bad request' });
    const ok25 = await call(api, 'GET', '/public/v1/channels', { token, query: [['slug', 'a'.repeat(25)]] });
    expect(ok25.json).toEqual({ data: [], message: 'OK' });
  });

  it('needs channel:read on user tokens, a filter on app tokens, and a live token', async () => {
    const scopeless = await call(api, 'GET', '/public/v1/channels', {
      token: mintUserToken(sandbox, allBut('channel:read')),
    });
    expect(scopeless.json).toEqual({ data: 'missing scope: channel:read', message: 'Forbidden' });
    const app = await call(api, 'GET', '/public/v1/channels', { token: mintAppToken(sandbox) });
    expect(app.status).toBe(403);
    expect(app.json.data).toBe('User not authenticated: give broadcaster_user_id or slug, or use a user access token');
    expect((await call(api, 'GET', '/public/v1/channels')).status).toBe(401);
    const token = mintUserToken(sandbox, KICK_SCOPES, STREAMER_USER_ID, 10);
    sandbox.ctx.clock.advance(10_000);
    expect((await call(api, 'GET', '/public/v1/channels', { token })).status).toBe(401);
  });
});

describe('PATCH /public/v1/channels', () => {
  it('updates title, category and tags with 204, visible on GET, and announces livestream.metadata.updated', async () => {
    const token = mintUserToken(sandbox);
    const { events, stop } = captureEvents();
    const res = await call(api, 'PATCH', '/public/v1/channels', {
      token,
      body: { category_id: 104, stream_title: 'Ranked grind', custom_tags: ['English', 'Competitive'] },
    });
    stop();
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const after = await call(api, 'GET', '/public/v1/channels', { token });
    expect(after.json.data[0]).toMatchObject({
      stream_title: 'Ranked grind',
      category: { id: 104, name: 'Counter-Strike 2', thumbnail: `${api}/assets/categories/104.png` },
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
        category: { id: 104, name: 'Counter-Strike 2', thumbnail: `${api}/assets/categories/104.png` },
      },
    });
  });

  it('announces nothing for a tags-only or unchanged update', async () => {
    const token = mintUserToken(sandbox);
    const title = sandbox.ctx.state.channels.get(STREAMER_USER_ID)!.streamTitle;
    const { events, stop } = captureEvents();
    expect((await call(api, 'PATCH', '/public/v1/channels', { token, body: { custom_tags: ['Chill'] } })).status).toBe(
      204,
    );
    expect((await call(api, 'PATCH', '/public/v1/channels', { token, body: { stream_title: title } })).status).toBe(
      204,
    );
    stop();
    expect(events).toEqual([]);
    expect(sandbox.ctx.state.channels.get(STREAMER_USER_ID)!.customTags).toEqual(['Chill']);
  });

  it('moves a live channel’s viewers to its new category', async () => {
    const { state } = sandbox.ctx;
    const channel = state.channels.get(STREAMER_USER_ID)!;
    const from = channel.categoryId;
    const to = from === 105 ? 106 : 105;
    // Go live the way the sandbox keeps its books: the category counts the stream's viewers.
    Object.assign(channel, { isLive: true, startedAtMs: state.now(), viewerCount: 40 });
    state.categories.get(from)!.viewerCount += 40;
    const viewers = async (id: number): Promise<number> =>
      (await call(api, 'GET', `/public/v1/categories/${id}`, { token: mintAppToken(sandbox) })).json.data
        .viewer_count as number;
    try {
      const [fromBefore, toBefore] = [await viewers(from), await viewers(to)];
      const res = await call(api, 'PATCH', '/public/v1/channels', {
        token: mintUserToken(sandbox),
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
    const token = mintUserToken(sandbox);
    const before = sandbox.ctx.state.channels.get(STREAMER_USER_ID)!.streamTitle;
    const res = await call(api, 'PATCH', '/public/v1/channels', {
      token,
      body: { category_id: 999, stream_title: 'changed?' },
    });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ data: 'category_id: category 999 not found', message: 'Bad request' });
    expect(sandbox.ctx.state.channels.get(STREAMER_USER_ID)!.streamTitle).toBe(before);
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
    const res = await call(api, 'PATCH', '/public/v1/channels', { token: mintUserToken(sandbox), body });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ data: detail, message: 'Bad request' });
  });

  it('accepts exactly 10 tags of 25 characters', async () => {
    const tags = Array.from({ length: 10 }, (_, i) => `${i}`.padEnd(25, 'x'));
    const res = await call(api, 'PATCH', '/public/v1/channels', {
      token: mintUserToken(sandbox),
      body: { custom_tags: tags },
    });
    expect(res.status).toBe(204);
    expect(sandbox.ctx.state.channels.get(STREAMER_USER_ID)!.customTags).toEqual(tags);
  });

  it('needs a user token with channel:write', async () => {
    const body = { stream_title: 'x' };
    const app = await call(api, 'PATCH', '/public/v1/channels', { token: mintAppToken(sandbox), body });
    expect(app.json).toEqual({ data: 'a user access token is required', message: 'Forbidden' });
    const scopeless = await call(api, 'PATCH', '/public/v1/channels', {
      token: mintUserToken(sandbox, allBut('channel:write')),
      body,
    });
    expect(scopeless.json).toEqual({ data: 'missing scope: channel:write', message: 'Forbidden' });
    expect((await call(api, 'PATCH', '/public/v1/channels', { body })).status).toBe(401);
  });

  it('survives malformed and wrongly typed bodies, then still works', async () => {
    const token = mintUserToken(sandbox);
    const malformed = await call(api, 'PATCH', '/public/v1/channels', { token, rawBody: '{"stream_title": ' });
    expect(malformed.json).toEqual({ data: 'request body: malformed JSON', message: 'Bad request' });
    for (const rawBody of ['[]', 'null', '"text"', '42', '', '\u0000\u00ff']) {
      const res = await call(api, 'PATCH', '/public/v1/channels', { token, rawBody });
      expect(res.status).toBe(400);
    }
    const huge = await call(api, 'PATCH', '/public/v1/channels', { token, rawBody: '{"category_id": 1e400}' });
    expect(huge.json.data).toBe('category_id: must be an integer');
    const fine = await call(api, 'PATCH', '/public/v1/channels', { token, body: { stream_title: 'Still alive' } });
    expect(fine.status).toBe(204);
    const users = await call(api, 'GET', '/public/v1/users', { token });
    expect(users.status).toBe(200);
  });
});
