/**
 * Chat send/delete and bans/timeouts/unbans against a real sandbox over HTTP ([reference §3.5](../../../docs/kick-wire-reference.md#35-chat), [§3.6](../../../docs/kick-wire-reference.md#36-moderation)): exact
 * bodies, who may act where, limits, the events announced, timeouts lapsing by the sandbox clock.
 *
 * This file: “POST /public/v1/chat”; “DELETE /public/v1/chat/:message_id”.
 */
import { describe, expect, it } from 'vitest';
import { BOT_USER_ID, MODERATOR_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { KICK_SCOPES } from '../../../shared/kick/scopes';
import { mintAppToken, mintUserToken } from '../../helpers/sandbox';
import { OTHER_CHANNEL, UUID, VIEWER, allBut, as, del, fx, post, say, useSetup } from './api-chat-moderation-fixtures';

useSetup();

describe('POST /public/v1/chat', () => {
  it('sends as the user into the named channel, stores it and announces chat.message.sent', async () => {
    const res = await post('/public/v1/chat', {
      token: as(VIEWER),
      body: { type: 'user', content: 'hello [emote:37226:KEKW]', broadcaster_user_id: STREAMER_USER_ID },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: { is_sent: true, message_id: expect.stringMatching(UUID) }, message: 'OK' });
    const id = res.json.data.message_id as string;
    expect(fx.sandbox.ctx.state.chatMessages.get(id)).toMatchObject({
      broadcasterUserId: STREAMER_USER_ID,
      senderUserId: VIEWER,
      type: 'user',
      content: 'hello [emote:37226:KEKW]',
      deleted: false,
    });
    expect(fx.events).toHaveLength(1);
    expect(fx.events[0]).toMatchObject({ type: 'chat.message.sent', version: 1, broadcasterUserId: STREAMER_USER_ID });
    expect(fx.events[0]!.payload).toMatchObject({
      message_id: id,
      content: 'hello [emote:37226:KEKW]',
      broadcaster: { user_id: STREAMER_USER_ID },
      sender: { user_id: VIEWER, identity: { username_color: expect.any(String), badges: expect.any(Array) } },
      emotes: [{ emote_id: '37226', positions: [{ s: 6, e: 23 }] }],
      created_at: new Date(fx.sandbox.ctx.state.now()).toISOString(),
    });
  });

  it('sends as the app bot into the token user’s channel, ignoring broadcaster_user_id', async () => {
    for (const broadcaster_user_id of [OTHER_CHANNEL, 'junk', undefined]) {
      const res = await post('/public/v1/chat', {
        token: as(STREAMER_USER_ID),
        body: { type: 'bot', content: 'beep', broadcaster_user_id },
      });
      expect(res.status).toBe(200);
      const stored = fx.sandbox.ctx.state.chatMessages.get(res.json.data.message_id as string)!;
      expect(stored).toMatchObject({ senderUserId: BOT_USER_ID, broadcasterUserId: STREAMER_USER_ID, type: 'bot' });
    }
    expect(fx.events.map((e) => (e.payload as { sender: { user_id: number } }).sender.user_id)).toEqual([
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
    expect(fx.events.at(-1)!.payload).toMatchObject({
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
    expect(fx.events).toEqual([]);
  });

  it('refuses a banned or timed-out sender with 403 until the timeout lapses', async () => {
    const ban = (body: object) => post('/public/v1/moderation/bans', { token: as(STREAMER_USER_ID), body });
    expect((await ban({ broadcaster_user_id: STREAMER_USER_ID, user_id: VIEWER, duration: 1 })).status).toBe(200);
    const body = { type: 'user', content: 'let me speak', broadcaster_user_id: STREAMER_USER_ID };
    const timedOut = await post('/public/v1/chat', { token: as(VIEWER), body });
    expect(timedOut.status).toBe(403);
    const until = new Date(fx.sandbox.ctx.state.now() + 60_000).toISOString();
    expect(timedOut.json).toEqual({ data: `sender is timed out in this channel until ${until}`, message: 'Forbidden' });
    expect(
      (await post('/public/v1/chat', { token: as(VIEWER), body: { ...body, broadcaster_user_id: OTHER_CHANNEL } }))
        .status,
    ).toBe(200);
    fx.sandbox.ctx.clock.advance(60_000);
    expect((await post('/public/v1/chat', { token: as(VIEWER), body })).status).toBe(200);
    expect((await ban({ broadcaster_user_id: STREAMER_USER_ID, user_id: VIEWER })).status).toBe(200);
    const banned = await post('/public/v1/chat', { token: as(VIEWER), body });
    expect(banned.json).toEqual({ data: 'sender is banned from this channel', message: 'Forbidden' });
  });

  it('needs a live user token with chat:write', async () => {
    const body = { type: 'bot', content: 'x' };
    expect((await post('/public/v1/chat', { token: mintAppToken(fx.sandbox), body })).json).toEqual({
      data: 'a user access token is required',
      message: 'Forbidden',
    });
    expect((await post('/public/v1/chat', { token: as(STREAMER_USER_ID, allBut('chat:write')), body })).json.data).toBe(
      'missing scope: chat:write',
    );
    const token = mintUserToken(fx.sandbox, KICK_SCOPES, STREAMER_USER_ID, 30);
    fx.sandbox.ctx.clock.advance(30_000);
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
    fx.events.length = 0;
    const res = await del(`/public/v1/chat/${id}`, { token: as(STREAMER_USER_ID) });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(fx.sandbox.ctx.state.chatMessages.get(id)!.deleted).toBe(true);
    expect(fx.events).toEqual([]);
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
    expect((await del(`/public/v1/chat/${id}`, { token: mintAppToken(fx.sandbox) })).status).toBe(403);
    const scopeless = await del(`/public/v1/chat/${id}`, {
      token: as(STREAMER_USER_ID, allBut('moderation:chat_message:manage')),
    });
    expect(scopeless.json).toEqual({ data: 'missing scope: moderation:chat_message:manage', message: 'Forbidden' });
    expect((await del(`/public/v1/chat/${id}`, {})).status).toBe(401);
    expect(fx.sandbox.ctx.state.chatMessages.get(id)!.deleted).toBe(false);
  });
});
