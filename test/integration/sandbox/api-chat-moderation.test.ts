/**
 * Chat send/delete and bans/timeouts/unbans against a real sandbox over HTTP ([reference §3.5](../../../docs/kick-wire-reference.md#35-chat), [§3.6](../../../docs/kick-wire-reference.md#36-moderation)): exact
 * bodies, who may act where, limits, the events announced, timeouts lapsing by the sandbox clock.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSigningKeys, type Sandbox } from '../../../sandbox/index';
import type { SandboxEvent } from '../../../sandbox/state';
import {
  BOT_USER_ID,
  FIRST_OTHER_STREAMER_USER_ID,
  FIRST_VIEWER_USER_ID,
  MODERATOR_USER_ID,
  STREAMER_USER_ID,
} from '../../../sandbox/world';
import { KICK_SCOPES } from '../../../shared/kick/scopes';
import { call, type CallOptions, mintAppToken, mintUserToken, startSandbox } from '../../helpers/sandbox';

const keys = createSigningKeys();
/** A frozen base clock, so times in answers and payloads can be asserted exactly (advance() still works). */
const START_MS = Date.UTC(2026, 5, 17, 12, 0, 0);
const VIEWER = FIRST_VIEWER_USER_ID + 1;
const OTHER_CHANNEL = FIRST_OTHER_STREAMER_USER_ID;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const allBut = (scope: string): string[] => KICK_SCOPES.filter((s) => s !== scope);

let sandbox: Sandbox;
let api: string;
let logs: string[];
let events: SandboxEvent[];

beforeEach(async () => {
  logs = [];
  events = [];
  sandbox = await startSandbox({ keys, clock: { now: () => START_MS }, log: (line) => logs.push(line) });
  api = sandbox.urls.api;
  sandbox.ctx.state.onEvent((event) => events.push(event));
});
afterEach(async () => {
  await sandbox.close();
  expect(logs.filter((line) => line.includes('handler error'))).toEqual([]);
});

const as = (userId: number, scopes: readonly string[] = KICK_SCOPES) => mintUserToken(sandbox, scopes, userId);
const post = (path: string, options: CallOptions) => call(api, 'POST', path, options);
const del = (path: string, options: CallOptions) => call(api, 'DELETE', path, options);

async function say(userId: number, broadcasterUserId: number, content: string): Promise<string> {
  const res = await post('/public/v1/chat', {
    token: as(userId),
    body: { type: 'user', content, broadcaster_user_id: broadcasterUserId },
  });
  expect(res.status).toBe(200);
  return res.json.data.message_id as string;
}

describe('POST /public/v1/chat', () => {
  it('sends as the user into the named channel, stores it and announces chat.message.sent', async () => {
    const res = await post('/public/v1/chat', {
      token: as(VIEWER),
      body: { type: 'user', content: 'hello [emote:37226:KEKW]', broadcaster_user_id: STREAMER_USER_ID },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: { is_sent: true, message_id: expect.stringMatching(UUID) }, message: 'OK' });
    const id = res.json.data.message_id as string;
    expect(sandbox.ctx.state.chatMessages.get(id)).toMatchObject({
      broadcasterUserId: STREAMER_USER_ID,
      senderUserId: VIEWER,
      type: 'user',
      content: 'hello [emote:37226:KEKW]',
      deleted: false,
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'chat.message.sent', version: 1, broadcasterUserId: STREAMER_USER_ID });
    expect(events[0]!.payload).toMatchObject({
      message_id: id,
      content: 'hello [emote:37226:KEKW]',
      broadcaster: { user_id: STREAMER_USER_ID },
      sender: { user_id: VIEWER, identity: { username_color: expect.any(String), badges: expect.any(Array) } },
      emotes: [{ emote_id: '37226', positions: [{ s: 6, e: 23 }] }],
      created_at: new Date(sandbox.ctx.state.now()).toISOString(),
    });
  });

  it('sends as the app bot into the token user’s channel, ignoring broadcaster_user_id', async () => {
    for (const broadcaster_user_id of [OTHER_CHANNEL, 'junk', undefined]) {
      const res = await post('/public/v1/chat', {
        token: as(STREAMER_USER_ID),
        body: { type: 'bot', content: 'beep', broadcaster_user_id },
      });
      expect(res.status).toBe(200);
      const stored = sandbox.ctx.state.chatMessages.get(res.json.data.message_id as string)!;
      expect(stored).toMatchObject({ senderUserId: BOT_USER_ID, broadcasterUserId: STREAMER_USER_ID, type: 'bot' });
    }
    expect(events.map((e) => (e.payload as { sender: { user_id: number } }).sender.user_id)).toEqual([
      BOT_USER_ID,
      BOT_USER_ID,
      BOT_USER_ID,
    ]);
  });

  it('threads replies to a message in the same channel only', async () => {
    const parent = await say(VIEWER, STREAMER_USER_ID, 'question?');
    const reply = await post('/public/v1/chat', {
      token: as(STREAMER_USER_ID),
      body: { type: 'user', content: 'answer', broadcaster_user_id: STREAMER_USER_ID, reply_to_message_id: parent },
    });
    expect(reply.status).toBe(200);
    expect(events.at(-1)!.payload).toMatchObject({
      replies_to: { message_id: parent, content: 'question?', sender: { user_id: VIEWER } },
    });
    const elsewhere = await say(VIEWER, OTHER_CHANNEL, 'hi');
    for (const target of [elsewhere, '00000000-0000-0000-0000-000000000000']) {
      const res = await post('/public/v1/chat', {
        token: as(STREAMER_USER_ID),
        body: { type: 'user', content: 'x', broadcaster_user_id: STREAMER_USER_ID, reply_to_message_id: target },
      });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({
        data: 'reply_to_message_id: no such message in this channel',
        message: 'Bad request',
      });
    }
  });

  it('counts content in code points: 500 emoji pass, 501 characters do not', async () => {
    const token = as(VIEWER);
    const emoji = '😀'.repeat(500);
    const okRes = await post('/public/v1/chat', {
      token,
      body: { type: 'user', content: emoji, broadcaster_user_id: STREAMER_USER_ID },
    });
    expect(okRes.status).toBe(200);
    const long = await post('/public/v1/chat', {
      token,
      body: { type: 'user', content: 'a'.repeat(501), broadcaster_user_id: STREAMER_USER_ID },
    });
    expect(long.json).toEqual({ data: 'content: must be at most 500 characters', message: 'Bad request' });
  });

  it.each([
    [{ content: 'x', broadcaster_user_id: STREAMER_USER_ID }, 'type: is required'],
    [{ type: 'viewer', content: 'x', broadcaster_user_id: STREAMER_USER_ID }, 'type: must be one of user, bot'],
    [{ type: 1, content: 'x' }, 'type: must be a string'],
    [{ type: 'user', broadcaster_user_id: STREAMER_USER_ID }, 'content: is required'],
    [{ type: 'user', content: '', broadcaster_user_id: STREAMER_USER_ID }, 'content: must not be empty'],
    [{ type: 'user', content: ['x'], broadcaster_user_id: STREAMER_USER_ID }, 'content: must be a string'],
    [{ type: 'user', content: 'x' }, 'broadcaster_user_id: is required'],
    [{ type: 'user', content: 'x', broadcaster_user_id: '100001' }, 'broadcaster_user_id: must be an integer'],
    [{ type: 'user', content: 'x', broadcaster_user_id: 999_999 }, 'Channel not found'],
    [
      { type: 'user', content: 'x', broadcaster_user_id: STREAMER_USER_ID, reply_to_message_id: 7 },
      'reply_to_message_id: must be a string',
    ],
  ])('rejects %j with "%s"', async (body, detail) => {
    const res = await post('/public/v1/chat', { token: as(VIEWER), body });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ data: detail, message: 'Bad request' });
    expect(events).toEqual([]);
  });

  it('refuses a banned or timed-out sender with 403 until the timeout lapses', async () => {
    const ban = (body: object) => post('/public/v1/moderation/bans', { token: as(STREAMER_USER_ID), body });
    expect((await ban({ broadcaster_user_id: STREAMER_USER_ID, user_id: VIEWER, duration: 1 })).status).toBe(200);
    const body = { type: 'user', content: 'let me speak', broadcaster_user_id: STREAMER_USER_ID };
    const timedOut = await post('/public/v1/chat', { token: as(VIEWER), body });
    expect(timedOut.status).toBe(403);
    const until = new Date(sandbox.ctx.state.now() + 60_000).toISOString();
    expect(timedOut.json).toEqual({ data: `sender is timed out in this channel until ${until}`, message: 'Forbidden' });
    expect(
      (await post('/public/v1/chat', { token: as(VIEWER), body: { ...body, broadcaster_user_id: OTHER_CHANNEL } }))
        .status,
    ).toBe(200);
    sandbox.ctx.clock.advance(60_000);
    expect((await post('/public/v1/chat', { token: as(VIEWER), body })).status).toBe(200);
    expect((await ban({ broadcaster_user_id: STREAMER_USER_ID, user_id: VIEWER })).status).toBe(200);
    const banned = await post('/public/v1/chat', { token: as(VIEWER), body });
    expect(banned.json).toEqual({ data: 'sender is banned from this channel', message: 'Forbidden' });
  });

  it('needs a live user token with chat:write', async () => {
    const body = { type: 'bot', content: 'x' };
    expect((await post('/public/v1/chat', { token: mintAppToken(sandbox), body })).json).toEqual({
      data: 'a user access token is required',
      message: 'Forbidden',
    });
    expect((await post('/public/v1/chat', { token: as(STREAMER_USER_ID, allBut('chat:write')), body })).json.data).toBe(
      'missing scope: chat:write',
    );
    const token = mintUserToken(sandbox, KICK_SCOPES, STREAMER_USER_ID, 30);
    sandbox.ctx.clock.advance(30_000);
    expect((await post('/public/v1/chat', { token, body })).json).toEqual({ data: {}, message: 'Unauthorized' });
    expect((await post('/public/v1/chat', { body })).status).toBe(401);
  });

  it('survives junk bodies and keeps working', async () => {
    const token = as(VIEWER);
    for (const rawBody of [
      '{',
      '[1,2]',
      'null',
      '{"type":"user","content":"x","broadcaster_user_id":1e999}',
      '\u{1F600}',
    ]) {
      const res = await post('/public/v1/chat', { token, rawBody, headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
    }
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    expect((await post('/public/v1/chat', { token, rawBody: deep })).status).toBe(400);
    expect(await say(VIEWER, STREAMER_USER_ID, 'still here')).toMatch(UUID);
  });
});

describe('DELETE /public/v1/chat/:message_id', () => {
  it('lets the broadcaster delete a message in their channel: 204, then 404, and no event', async () => {
    const id = await say(VIEWER, STREAMER_USER_ID, 'oops');
    events.length = 0;
    const res = await del(`/public/v1/chat/${id}`, { token: as(STREAMER_USER_ID) });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(sandbox.ctx.state.chatMessages.get(id)!.deleted).toBe(true);
    expect(events).toEqual([]);
    const again = await del(`/public/v1/chat/${id}`, { token: as(STREAMER_USER_ID) });
    expect(again.status).toBe(404);
    expect(again.json).toEqual({ data: 'message_id: message not found', message: 'Not found' });
    const reply = await post('/public/v1/chat', {
      token: as(STREAMER_USER_ID),
      body: { type: 'user', content: 're', broadcaster_user_id: STREAMER_USER_ID, reply_to_message_id: id },
    });
    expect(reply.status).toBe(400);
  });

  it('lets a moderator of the channel delete, but not a viewer or another broadcaster', async () => {
    const id = await say(VIEWER, STREAMER_USER_ID, 'rude');
    const viewer = await del(`/public/v1/chat/${id}`, { token: as(VIEWER + 1) });
    expect(viewer.status).toBe(403);
    expect(viewer.json).toEqual({
      data: 'not the broadcaster or a moderator of the channel of this message',
      message: 'Forbidden',
    });
    expect((await del(`/public/v1/chat/${id}`, { token: as(OTHER_CHANNEL) })).status).toBe(403);
    expect((await del(`/public/v1/chat/${id}`, { token: as(MODERATOR_USER_ID) })).status).toBe(204);
    const elsewhere = await say(VIEWER, OTHER_CHANNEL, 'hi');
    expect((await del(`/public/v1/chat/${elsewhere}`, { token: as(STREAMER_USER_ID) })).status).toBe(403);
    expect((await del(`/public/v1/chat/${elsewhere}`, { token: as(MODERATOR_USER_ID) })).status).toBe(403);
  });

  it('answers 404 for unknown ids and needs a user token with moderation:chat_message:manage', async () => {
    expect((await del('/public/v1/chat/not-a-message', { token: as(STREAMER_USER_ID) })).status).toBe(404);
    expect((await del('/public/v1/chat/%E0%A4%A', { token: as(STREAMER_USER_ID) })).status).toBe(404);
    const id = await say(VIEWER, STREAMER_USER_ID, 'x');
    expect((await del(`/public/v1/chat/${id}`, { token: mintAppToken(sandbox) })).status).toBe(403);
    const scopeless = await del(`/public/v1/chat/${id}`, {
      token: as(STREAMER_USER_ID, allBut('moderation:chat_message:manage')),
    });
    expect(scopeless.json).toEqual({ data: 'missing scope: moderation:chat_message:manage', message: 'Forbidden' });
    expect((await del(`/public/v1/chat/${id}`, {})).status).toBe(401);
    expect(sandbox.ctx.state.chatMessages.get(id)!.deleted).toBe(false);
  });
});

describe('POST /public/v1/moderation/bans', () => {
  const ban = (token: string, body: unknown) => post('/public/v1/moderation/bans', { token, body });

  it('bans permanently with {data:{},message:"OK"} and announces moderation.banned', async () => {
    const res = await ban(as(STREAMER_USER_ID), {
      broadcaster_user_id: STREAMER_USER_ID,
      user_id: VIEWER,
      reason: 'spam',
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: {}, message: 'OK' });
    const now = new Date(sandbox.ctx.state.now()).toISOString();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'moderation.banned', version: 1, broadcasterUserId: STREAMER_USER_ID });
    expect(events[0]!.payload).toMatchObject({
      broadcaster: { user_id: STREAMER_USER_ID },
      moderator: { user_id: STREAMER_USER_ID },
      banned_user: { user_id: VIEWER },
      metadata: { reason: 'spam', created_at: now, expires_at: null },
    });
    expect(sandbox.ctx.state.activeBan(STREAMER_USER_ID, VIEWER)).toMatchObject({ expiresAtMs: null, reason: 'spam' });
  });

  it('times out for duration minutes, by a moderator, and the timeout lapses by the clock', async () => {
    const res = await ban(as(MODERATOR_USER_ID), {
      broadcaster_user_id: STREAMER_USER_ID,
      user_id: VIEWER,
      duration: 10,
    });
    expect(res.json).toEqual({ data: {}, message: 'OK' });
    const now = sandbox.ctx.state.now();
    expect(events[0]!.payload).toMatchObject({
      moderator: { user_id: MODERATOR_USER_ID },
      metadata: {
        reason: '',
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + 600_000).toISOString(),
      },
    });
    sandbox.ctx.clock.advance(599_000);
    expect(sandbox.ctx.state.activeBan(STREAMER_USER_ID, VIEWER)).toBeDefined();
    sandbox.ctx.clock.advance(1_000);
    expect(sandbox.ctx.state.activeBan(STREAMER_USER_ID, VIEWER)).toBeUndefined();
  });

  it('accepts the duration and reason limits exactly', async () => {
    const token = as(STREAMER_USER_ID);
    const max = await ban(token, {
      broadcaster_user_id: STREAMER_USER_ID,
      user_id: VIEWER,
      duration: 10080,
      reason: 'r'.repeat(100),
    });
    expect(max.status).toBe(200);
    expect((await ban(token, { broadcaster_user_id: STREAMER_USER_ID, user_id: VIEWER + 1, duration: 1 })).status).toBe(
      200,
    );
  });

  it('refuses acting on a channel you do not moderate with 403', async () => {
    const viewer = await ban(as(VIEWER), { broadcaster_user_id: STREAMER_USER_ID, user_id: VIEWER + 1 });
    expect(viewer.status).toBe(403);
    expect(viewer.json).toEqual({ data: 'not the broadcaster or a moderator of this channel', message: 'Forbidden' });
    expect((await ban(as(STREAMER_USER_ID), { broadcaster_user_id: OTHER_CHANNEL, user_id: VIEWER })).status).toBe(403);
    expect(events).toEqual([]);
  });

  it.each([
    [{ user_id: VIEWER }, 'broadcaster_user_id: is required'],
    [{ broadcaster_user_id: STREAMER_USER_ID }, 'user_id: is required'],
    [{ broadcaster_user_id: String(STREAMER_USER_ID), user_id: VIEWER }, 'broadcaster_user_id: must be an integer'],
    [{ broadcaster_user_id: STREAMER_USER_ID, user_id: VIEWER, duration: 0 }, 'duration: must be at least 1'],
    [{ broadcaster_user_id: STREAMER_USER_ID, user_id: VIEWER, duration: 10081 }, 'duration: must be at most 10080'],
    [{ broadcaster_user_id: STREAMER_USER_ID, user_id: VIEWER, duration: '5' }, 'duration: must be an integer'],
    [
      { broadcaster_user_id: STREAMER_USER_ID, user_id: VIEWER, reason: 'r'.repeat(101) },
      'reason: must be at most 100 characters',
    ],
    [{ broadcaster_user_id: STREAMER_USER_ID, user_id: VIEWER, reason: 5 }, 'reason: must be a string'],
    [{ broadcaster_user_id: 999_999, user_id: VIEWER }, 'broadcaster_user_id: channel 999999 not found'],
    [{ broadcaster_user_id: STREAMER_USER_ID, user_id: 999_999 }, 'user_id: user 999999 not found'],
    [
      { broadcaster_user_id: STREAMER_USER_ID, user_id: STREAMER_USER_ID },
      'user_id: the broadcaster cannot be banned from their own channel',
    ],
  ])('rejects %j with "%s"', async (body, detail) => {
    const res = await ban(as(STREAMER_USER_ID), body);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ data: detail, message: 'Bad request' });
    expect(events).toEqual([]);
  });

  it('refuses banning yourself and the broadcaster as a moderator', async () => {
    const self = await ban(as(MODERATOR_USER_ID), {
      broadcaster_user_id: STREAMER_USER_ID,
      user_id: MODERATOR_USER_ID,
    });
    expect(self.json).toEqual({ data: 'user_id: you cannot ban yourself', message: 'Bad request' });
    const owner = await ban(as(MODERATOR_USER_ID), {
      broadcaster_user_id: STREAMER_USER_ID,
      user_id: STREAMER_USER_ID,
    });
    expect(owner.status).toBe(400);
  });

  it('needs a live user token with moderation:ban', async () => {
    const body = { broadcaster_user_id: STREAMER_USER_ID, user_id: VIEWER };
    expect((await ban(mintAppToken(sandbox), body)).status).toBe(403);
    expect((await ban(as(STREAMER_USER_ID, allBut('moderation:ban')), body)).json.data).toBe(
      'missing scope: moderation:ban',
    );
    const token = mintUserToken(sandbox, KICK_SCOPES, STREAMER_USER_ID, 1);
    sandbox.ctx.clock.advance(1_000);
    expect((await ban(token, body)).status).toBe(401);
    expect(sandbox.ctx.state.activeBan(STREAMER_USER_ID, VIEWER)).toBeUndefined();
  });
});

describe('DELETE /public/v1/moderation/bans', () => {
  const unban = (token: string, options: CallOptions) => del('/public/v1/moderation/bans', { token, ...options });
  const target = { broadcaster_user_id: STREAMER_USER_ID, user_id: VIEWER };

  it('lifts a ban given a JSON body, then answers 400 because nothing is left to lift', async () => {
    const token = as(STREAMER_USER_ID);
    await post('/public/v1/moderation/bans', { token, body: target });
    events.length = 0;
    const res = await unban(token, { body: target });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: {}, message: 'OK' });
    expect(sandbox.ctx.state.activeBan(STREAMER_USER_ID, VIEWER)).toBeUndefined();
    expect(events).toEqual([]);
    const again = await unban(token, { body: target });
    expect(again.status).toBe(400);
    expect(again.json).toEqual({
      data: `user_id: user ${VIEWER} is not banned or timed out in this channel`,
      message: 'Bad request',
    });
    expect(await say(VIEWER, STREAMER_USER_ID, 'back')).toMatch(UUID);
  });

  it('lifts a timeout (as a moderator), and a lapsed timeout counts as not banned', async () => {
    const mod = as(MODERATOR_USER_ID);
    await post('/public/v1/moderation/bans', { token: mod, body: { ...target, duration: 5 } });
    expect((await unban(mod, { body: target })).status).toBe(200);
    await post('/public/v1/moderation/bans', { token: mod, body: { ...target, duration: 5 } });
    sandbox.ctx.clock.advance(5 * 60_000);
    expect((await unban(mod, { body: target })).status).toBe(400);
  });

  it('reads the body, not the query, and checks fields and permission', async () => {
    const token = as(STREAMER_USER_ID);
    const query: [string, number][] = [
      ['broadcaster_user_id', STREAMER_USER_ID],
      ['user_id', VIEWER],
    ];
    const viaQuery = await unban(token, { query });
    expect(viaQuery.json).toEqual({ data: 'request body: expected a JSON object', message: 'Bad request' });
    expect((await unban(token, { body: { broadcaster_user_id: STREAMER_USER_ID } })).json.data).toBe(
      'user_id: is required',
    );
    expect((await unban(token, { rawBody: '{"user_id":' })).json.data).toBe('request body: malformed JSON');
    expect((await unban(as(VIEWER + 1), { body: target })).status).toBe(403);
    expect((await unban(as(STREAMER_USER_ID, allBut('moderation:ban')), { body: target })).status).toBe(403);
    expect((await unban(mintAppToken(sandbox), { body: target })).status).toBe(403);
    expect((await del('/public/v1/moderation/bans', { body: target })).status).toBe(401);
  });
});
