/**
 * `GET /live-socket/frames` on the admin API: each frame the socket sent, with when it left, read beside a real
 * pusher-js client that got it; its limit bounded like `GET /deliveries`'.
 */
import { describe, expect, it } from 'vitest';
import { admin, CHAT_EVENT, CHATROOM, once, pusherClient, triggerChat, useLiveSandbox } from './live-socket-fixtures';

useLiveSandbox();

interface AdminFrame {
  event: string;
  channel: string;
  id: string | null;
  sent_at_ms: number;
  sockets: number;
}

const frames = async (query = ''): Promise<AdminFrame[]> => {
  const res = await admin('GET', `/live-socket/frames${query}`);
  expect(res.status).toBe(200);
  return res.json.frames as AdminFrame[];
};

describe('the live socket frame log', () => {
  it('lists a chat line’s frame with its message id, sent before the client got it', async () => {
    const pusher = pusherClient();
    const channel = pusher.subscribe(CHATROOM);
    await once((cb) => channel.bind('pusher:subscription_succeeded', cb));
    const got = once<{ id: string }>((cb) => channel.bind(CHAT_EVENT, cb));
    const before = Date.now();
    const messageId = await triggerChat('timed from its frame');
    const data = await got;
    const gotAt = Date.now();
    expect(data.id).toBe(messageId);
    const sent = (await frames()).filter((f) => f.id === messageId);
    expect(sent).toEqual([
      { event: CHAT_EVENT, channel: CHATROOM, id: messageId, sent_at_ms: expect.any(Number), sockets: 1 },
    ]);
    expect(sent[0]!.sent_at_ms).toBeGreaterThanOrEqual(before);
    expect(sent[0]!.sent_at_ms).toBeLessThanOrEqual(gotAt);
  });

  it('lists nothing for chat no socket was there to get', async () => {
    await triggerChat('nobody listening');
    expect(await frames()).toEqual([]);
  });

  it('answers the last frames up to the limit asked', async () => {
    const pusher = pusherClient();
    const channel = pusher.subscribe(CHATROOM);
    await once((cb) => channel.bind('pusher:subscription_succeeded', cb));
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(await triggerChat(`line ${i}`));
    }
    expect((await frames('?limit=2')).map((f) => f.id)).toEqual(ids.slice(1));
  });

  for (const limit of ['0', '10001', '-1', 'abc', '1e3', '99999999999999999999']) {
    it(`refuses limit=${limit}, naming the field and its bounds`, async () => {
      const res = await admin('GET', `/live-socket/frames?limit=${limit}`);
      expect(res.status).toBe(400);
      expect(res.json.error).toMatch(/^limit: must be/);
    });
  }
});
