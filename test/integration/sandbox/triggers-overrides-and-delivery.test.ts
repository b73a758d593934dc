/**
 * Event triggers through the admin API (`POST /trigger/:event_type`): each of the ten events is emitted
 * with a payload carrying the reference's fields ([§5.7–5.8](../../../docs/kick-wire-reference.md#57-shared-user-objects-in-payloads)), the state changes as Kick's would (visible
 * through the public API or the admin views), overrides steer and patch the payload, and delivery faults
 * reach `event.delivery` and the receiver.
 *
 * This file: “overrides and delivery faults”; “bad trigger input”.
 */
import { describe, expect, it, vi } from 'vitest';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { call, callAdmin, mintAppToken } from '../../helpers/sandbox';
import { startReceiver } from './webhook-receiver';
import { fire, fx, trigger, useSetup } from './triggers-fixtures';

useSetup();

describe('overrides and delivery faults', () => {
  it('deep-merges overrides into the payload even where they steer nothing', async () => {
    const payload = await fire('channel.followed', {
      overrides: { 'follower.username': 'renamed', follower: { is_verified: null }, extra: { a: 1 } },
    });
    expect(payload.follower).toMatchObject({ username: 'renamed', is_verified: null });
    expect(payload.extra).toEqual({ a: 1 });
    expect(fx.emitted[0]!.payload).toEqual(payload);
  });

  it('puts duplicates, fresh-id resends and delays on event.delivery', async () => {
    const [event] = await trigger('chat.message.sent', { duplicates: 2, resend_with_new_id: true, delay_seconds: 30 });
    expect(fx.emitted[0]!.delivery).toEqual({ duplicates: 2, resendWithNewId: true, delaySeconds: 30 });
    expect(event!.delivery).toEqual({ duplicates: 2, resend_with_new_id: true, delay_seconds: 30 });
    await trigger('kicks.gifted', { duplicates: true });
    expect(fx.emitted[1]!.delivery).toEqual({ duplicates: 1 });
  });

  it('gives an out-of-order burst decreasing delays', async () => {
    const events = await trigger('channel.followed', { count: 4, out_of_order: true, delay_seconds: 10 });
    expect(events.map((e) => e.delivery?.delay_seconds)).toEqual([13, 12, 11, 10]);
  });

  it('delivers a duplicated event to the app webhook with the same message id', async () => {
    const receiver = await startReceiver();
    try {
      fx.sandbox.ctx.app.webhookUrl = receiver.url;
      const sub = await call(fx.sandbox.urls.api, 'POST', '/public/v1/events/subscriptions', {
        token: mintAppToken(fx.sandbox),
        body: {
          events: [{ name: 'kicks.gifted', version: 1 }],
          method: 'webhook',
          broadcaster_user_id: STREAMER_USER_ID,
        },
      });
      expect(sub.status, sub.text).toBe(200);
      await trigger('kicks.gifted', { duplicates: 2 });
      await fx.sandbox.delivery.flush();
      expect(receiver.requests).toHaveLength(3);
      const ids = new Set(receiver.requests.map((r) => r.headers['kick-event-message-id']));
      expect(ids.size).toBe(1);
      expect(JSON.parse(receiver.requests[0]!.body.toString()).gift).toBeDefined();
    } finally {
      await receiver.close();
    }
  });

  it('spaces a rate-limited trigger in real time as a job', async () => {
    const res = await callAdmin(fx.sandbox, 'POST', '/trigger/channel.followed', { body: { count: 3, rate: 50 } });
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({ fired: 1, job_id: expect.any(String) });
    expect(fx.emitted).toHaveLength(1);
    await vi.waitFor(async () => {
      const jobs = await callAdmin(fx.sandbox, 'GET', '/jobs');
      expect(jobs.json.jobs).toEqual([
        expect.objectContaining({ job_id: res.json.job_id, state: 'done', fired: 3, steps_total: 3 }),
      ]);
    });
    expect(fx.emitted.map((e) => e.type)).toEqual(['channel.followed', 'channel.followed', 'channel.followed']);
  });
});

describe('bad trigger input', () => {
  it.each([
    ['/trigger/chat.sent', {}, /^event_type: must be one of chat\.message\.sent, channel\.followed/],
    ['/trigger/chat.message.sent', { count: 0 }, /^count: must be at least 1/],
    ['/trigger/chat.message.sent', { count: 'lots' }, /^count: must be an integer/],
    ['/trigger/chat.message.sent', { rate: -1 }, /^rate: must be greater than 0/],
    ['/trigger/chat.message.sent', { duplicates: 99 }, /^duplicates: must be at most 10/],
    ['/trigger/chat.message.sent', { delay_seconds: 'soon' }, /^delay_seconds: must be a number/],
    ['/trigger/chat.message.sent', { overrides: [1, 2] }, /^overrides: must be an object/],
    ['/trigger/chat.message.sent', { overrides: { '__proto__.x': 1 } }, /not allowed/],
    [
      '/trigger/chat.message.sent',
      { overrides: { content: 'x'.repeat(501) } },
      /^content: must be at most 500 characters/,
    ],
    [
      '/trigger/chat.message.sent',
      { broadcaster_user_id: 424242 },
      /^broadcaster_user_id: no channel for broadcaster 424242/,
    ],
    [
      '/trigger/livestream.metadata.updated',
      { overrides: { 'metadata.category.id': 9999 } },
      /^overrides\.metadata\.category\.id: no category 9999/,
    ],
  ])('%s %j answers 400', async (path, body, error) => {
    const res = await callAdmin(fx.sandbox, 'POST', path, { body });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(error);
    expect(fx.emitted).toHaveLength(0);
  });

  it('answers malformed JSON with 400 and keeps serving', async () => {
    const res = await callAdmin(fx.sandbox, 'POST', '/trigger/chat.message.sent', {
      rawBody: '{"count":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: 'request body: malformed JSON' });
    expect((await callAdmin(fx.sandbox, 'POST', '/trigger/chat.message.sent')).status).toBe(200);
  });
});
