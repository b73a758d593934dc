/**
 * Chat send/delete and bans/timeouts/unbans against a real sandbox over HTTP ([reference §3.5](../../../docs/kick-wire-reference.md#35-chat), [§3.6](../../../docs/kick-wire-reference.md#36-moderation)): exact
 * bodies, who may act where, limits, the events announced, timeouts lapsing by the sandbox clock.
 *
 * This file: “POST /public/v1/moderation/bans”; “DELETE /public/v1/moderation/bans”.
 */
import { describe, expect, it } from 'vitest';
import { MODERATOR_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { KICK_SCOPES } from '../../../shared/kick/scopes';
import { type CallOptions, mintAppToken, mintUserToken } from '../../helpers/sandbox';
import { OTHER_CHANNEL, UUID, VIEWER, allBut, as, del, fx, post, say, useSetup } from './api-chat-moderation-fixtures';

useSetup();

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
    const now = new Date(fx.sandbox.ctx.state.now()).toISOString();
    expect(fx.events).toHaveLength(1);
    expect(fx.events[0]).toMatchObject({ type: 'moderation.banned', version: 1, broadcasterUserId: STREAMER_USER_ID });
    expect(fx.events[0]!.payload).toMatchObject({
      broadcaster: { user_id: STREAMER_USER_ID },
      moderator: { user_id: STREAMER_USER_ID },
      banned_user: { user_id: VIEWER },
      metadata: { reason: 'spam', created_at: now, expires_at: null },
    });
    expect(fx.sandbox.ctx.state.activeBan(STREAMER_USER_ID, VIEWER)).toMatchObject({
      expiresAtMs: null,
      reason: 'spam',
    });
  });

  it('times out for duration minutes, by a moderator, and the timeout lapses by the clock', async () => {
    const res = await ban(as(MODERATOR_USER_ID), {
      broadcaster_user_id: STREAMER_USER_ID,
      user_id: VIEWER,
      duration: 10,
    });
    expect(res.json).toEqual({ data: {}, message: 'OK' });
    const now = fx.sandbox.ctx.state.now();
    expect(fx.events[0]!.payload).toMatchObject({
      moderator: { user_id: MODERATOR_USER_ID },
      metadata: {
        reason: '',
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + 600_000).toISOString(),
      },
    });
    fx.sandbox.ctx.clock.advance(599_000);
    expect(fx.sandbox.ctx.state.activeBan(STREAMER_USER_ID, VIEWER)).toBeDefined();
    fx.sandbox.ctx.clock.advance(1_000);
    expect(fx.sandbox.ctx.state.activeBan(STREAMER_USER_ID, VIEWER)).toBeUndefined();
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
    expect(fx.events).toEqual([]);
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
    expect(fx.events).toEqual([]);
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
    expect((await ban(mintAppToken(fx.sandbox), body)).status).toBe(403);
    expect((await ban(as(STREAMER_USER_ID, allBut('moderation:ban')), body)).json.data).toBe(
      'missing scope: moderation:ban',
    );
    const token = mintUserToken(fx.sandbox, KICK_SCOPES, STREAMER_USER_ID, 1);
    fx.sandbox.ctx.clock.advance(1_000);
    expect((await ban(token, body)).status).toBe(401);
    expect(fx.sandbox.ctx.state.activeBan(STREAMER_USER_ID, VIEWER)).toBeUndefined();
  });
});

describe('DELETE /public/v1/moderation/bans', () => {
  const unban = (token: string, options: CallOptions) => del('/public/v1/moderation/bans', { token, ...options });
  const target = { broadcaster_user_id: STREAMER_USER_ID, user_id: VIEWER };

  it('lifts a ban given a JSON body, then answers 400 because nothing is left to lift', async () => {
    const token = as(STREAMER_USER_ID);
    await post('/public/v1/moderation/bans', { token, body: target });
    fx.events.length = 0;
    const res = await unban(token, { body: target });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: {}, message: 'OK' });
    expect(fx.sandbox.ctx.state.activeBan(STREAMER_USER_ID, VIEWER)).toBeUndefined();
    expect(fx.events).toEqual([]);
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
    fx.sandbox.ctx.clock.advance(5 * 60_000);
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
    expect((await unban(mintAppToken(fx.sandbox), { body: target })).status).toBe(403);
    expect((await del('/public/v1/moderation/bans', { body: target })).status).toBe(401);
  });
});
