/**
 * `GET /deliveries/pending` on the admin API (docs/sandbox.md#live-socket-triggers): with Kick's webhooks
 * running behind, a test can see which event's webhook the sandbox still holds, while the live socket has
 * already carried it.
 */
import { describe, expect, it } from 'vitest';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { call, callAdmin, mintAppToken } from '../../helpers/sandbox';
import { admin, fx, triggerChat, useLiveSandbox } from './live-socket-fixtures';

useLiveSandbox();

async function subscribe(events: string[]): Promise<void> {
  // Port 9 (discard) is never listened on: an attempt would fail, but none is due in these tests.
  fx.sandbox.ctx.app.webhookUrl = 'http://127.0.0.1:9/hook';
  const sub = await call(fx.sandbox.urls.api, 'POST', '/public/v1/events/subscriptions', {
    token: mintAppToken(fx.sandbox),
    body: {
      events: events.map((name) => ({ name, version: 1 })),
      method: 'webhook',
      broadcaster_user_id: STREAMER_USER_ID,
    },
  });
  expect(sub.status).toBe(200);
}

interface Pending {
  pending: number;
  messages: { event_type: string; due_at_ms: number; event_at: string; payload: Record<string, unknown> }[];
}

describe('deliveries the sandbox still holds', () => {
  it('lists each held delivery with its payload and when it is due, and forgets it once sent', async () => {
    await subscribe(['chat.message.sent', 'channel.followed']);
    await admin('POST', '/live-socket/settings', { webhook_delay_seconds: 600 });
    const now = fx.sandbox.ctx.clock.now();
    const id = await triggerChat('held for ten minutes');
    await admin('POST', '/trigger/channel.followed');

    const held = (await admin('GET', '/deliveries/pending')).json as Pending;
    expect(held.pending).toBe(2);
    expect(held.messages.map((m) => m.event_type)).toEqual(['chat.message.sent', 'channel.followed']);
    const [chat] = held.messages;
    expect(chat!.payload).toMatchObject({ message_id: id, content: 'held for ten minutes' });
    expect(chat!.due_at_ms - now).toBeGreaterThanOrEqual(600_000);
    expect(chat!.due_at_ms - now).toBeLessThan(601_000);
    expect(Date.parse(chat!.event_at)).toBeLessThanOrEqual(chat!.due_at_ms - 600_000);

    // Nothing is due yet: a flush leaves both held.
    expect((await admin('POST', '/deliveries/flush')).json.pending).toBe(2);
    expect(((await admin('GET', '/deliveries/pending')).json as Pending).messages).toHaveLength(2);
    // Ten minutes on, both go out (to nothing listening: each waits for its retry, a new due time).
    await admin('POST', '/clock/advance', { seconds: 600 });
    const after = (await admin('GET', '/deliveries/pending')).json as Pending;
    expect(after.messages.every((m) => m.due_at_ms > chat!.due_at_ms)).toBe(true);
  });

  it('answers a page of them, and refuses a bad limit', async () => {
    await subscribe(['channel.followed']);
    await admin('POST', '/live-socket/settings', { webhook_delay_seconds: 60 });
    await admin('POST', '/trigger/channel.followed', { count: 3 });
    const one = await callAdmin(fx.sandbox, 'GET', '/deliveries/pending', { query: [['limit', 1]] });
    expect(one.json).toMatchObject({ pending: 3, messages: [{ event_type: 'channel.followed' }] });
    expect((one.json as Pending).messages).toHaveLength(1);
    for (const limit of ['0', '10001', 'x', '-1']) {
      const res = await callAdmin(fx.sandbox, 'GET', '/deliveries/pending', { query: [['limit', limit]] });
      expect(res.status, limit).toBe(400);
      expect(res.json.error).toMatch(/^limit: /);
    }
  });

  it('needs the admin token', async () => {
    const res = await call(fx.sandbox.urls.admin, 'GET', '/deliveries/pending', {
      headers: { host: new URL(fx.sandbox.urls.admin).host },
    });
    expect(res.status).toBe(401);
  });
});
