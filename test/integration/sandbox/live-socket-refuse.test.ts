/**
 * The admin API's "connections refused" setting (docs/sandbox.md#live-socket-triggers): a socket host that cannot
 * be reached for a while, so a test can hold a client's reconnect after a drop and send chat during the gap. New
 * sockets of both providers get HTTP 503 and no socket; the ones already open stay; "accepted" (or a reset) lets
 * them in again.
 */
import { describe, expect, it } from 'vitest';
import {
  admin,
  CHAT_EVENT,
  CHATROOM,
  fx,
  PUSHER_PATH,
  rawClient,
  rawPusher,
  send,
  triggerChat,
  useLiveSandbox,
} from './live-socket-fixtures';

useLiveSandbox();

const refuse = (connections: string) => admin('POST', '/live-socket/settings', { connections });

describe('live socket: connections refused', () => {
  it('answers new sockets of both providers 503, keeps the open one, and takes them again when told', async () => {
    const open = await rawPusher();
    send(open, { event: 'pusher:subscribe', data: { channel: CHATROOM } });
    await open.nextEvent('pusher_internal:subscription_succeeded');

    const res = await refuse('refused');
    expect(res.status, res.text).toBe(200);
    expect(res.json.connections).toBe('refused');
    await expect(rawClient(PUSHER_PATH)).rejects.toThrow('refused with HTTP 503');
    await expect(rawClient('/connection/websocket')).rejects.toThrow('refused with HTTP 503');
    expect(fx.sandbox.live.hub.counters.refusedConnections).toBe(2);
    expect(fx.sandbox.live.hub.sessions.size).toBe(1);

    // The socket that was already open still gets the world's chat.
    const id = await triggerChat('still here');
    expect(JSON.parse((await open.nextEvent(CHAT_EVENT)).data as string).id).toBe(id);

    // Dropped now, it has nowhere to come back to: a line sent in the gap goes to no socket.
    expect((await admin('POST', '/live-socket/drop', { code: 'cut' })).json).toEqual({ dropped: 1 });
    await open.closed;
    const sentBefore = fx.sandbox.live.hub.counters.framesSent;
    await triggerChat('in the gap');
    expect(fx.sandbox.live.hub.counters.framesSent).toBe(sentBefore);

    expect((await refuse('accepted')).json.connections).toBe('accepted');
    const back = await rawPusher();
    send(back, { event: 'pusher:subscribe', data: { channel: CHATROOM } });
    await back.nextEvent('pusher_internal:subscription_succeeded');
    const next = await triggerChat('back again');
    expect(JSON.parse((await back.nextEvent(CHAT_EVENT)).data as string).id).toBe(next);
  });

  it('refuses a value it does not know, changing nothing', async () => {
    for (const connections of ['closed', 'Refused', true, ['refused']]) {
      const res = await admin('POST', '/live-socket/settings', { webhook_delay_seconds: 60, connections });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatch(/^connections: must be/);
    }
    expect((await admin('GET', '/live-socket')).json).toMatchObject({
      webhook_delay_seconds: 0,
      connections: 'accepted',
    });
    await rawPusher();
  });

  it('takes connections again after a reset', async () => {
    await refuse('refused');
    fx.sandbox.reset();
    expect((await admin('GET', '/live-socket')).json.connections).toBe('accepted');
    await rawPusher();
  });
});
