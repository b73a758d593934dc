/**
 * Journey (docs/settings.md#kicks-live-chat-connection): the built app with Kick's live chat connection on,
 * against a standalone sandbox, the panel in Chromium. The socket is dropped with 4200, then cut, and the
 * sandbox refuses new sockets for a while so the reconnect is held (docs/sandbox.md#live-socket-triggers):
 * - before the drop, a line comes by socket while its webhook is still held;
 * - lines sent while the socket is down come by webhook, and the connection comes back by itself;
 * - when the held webhooks of the socket's lines finally arrive, every line has been shown exactly once (a
 *   watcher in the page counts every row ever rendered per message id) and none is lost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRowsEverShown, type LiveWorld, startLiveWorld } from './live-socket-journey-fixtures';
import { value } from './panel';

const WAIT = { timeout: 30_000 };
/**
 * A held reconnect backs off (1 s doubling, docs/kick-wire-reference.md, the close codes), and the count is not reset
 * between the two drops (the line did not hold a minute): the second may wait half a minute.
 */
const RECONNECT = { timeout: 90_000 };
/**
 * Kick's webhooks this far behind while the socket is up: a line on screen while its webhook is still held can
 * only have come by socket. Real seconds (the sandbox's clock must not run ahead of the app's: the app refuses a
 * delivery stamped minutes away from its own time), long enough for a loaded machine to draw the line first.
 */
const BEHIND_S = 20;
/** Every held webhook has arrived by then. */
const HELD = { timeout: (BEHIND_S + 40) * 1000 };

describe("journey: Kick's live socket drops, and chat in the gap comes by webhook", () => {
  let live: LiveWorld;
  const sent: string[] = [];

  const row = (id: string) =>
    live.panel.locator(`[role="log"][aria-label="Chat messages"] article[data-message-id="${id}"]`);
  const sandbox = (path: string, body: Record<string, unknown>) => live.world.sandbox.admin.call('POST', path, body);
  const say = async (content: string, userId?: number): Promise<string> => {
    const id = await live.chat(content, userId);
    sent.push(id);
    return id;
  };
  /** A line that must come by socket: it is on screen while its webhook is still held. */
  const bySocket = async (content: string): Promise<void> => {
    await live.untilListening();
    const id = await say(content);
    await row(id).waitFor(WAIT);
    const held = await live.heldChat();
    const acknowledged = live.acknowledgedChat();
    const why = held.includes(id) && !acknowledged.includes(id) ? '' : await socketDiagnosis(id);
    expect(held, why).toContain(id);
    expect(acknowledged, why).not.toContain(id);
  };
  /** Whether the sandbox sent the line to a socket at all (if it did, the app lost it), its sessions, the app's view. */
  const socketDiagnosis = async (id: string): Promise<string> => {
    const frames = await live.world.sandbox.admin.call<{ frames: { id: string | null; sockets: number }[] }>(
      'GET',
      '/live-socket/frames?limit=1000',
    );
    return JSON.stringify({
      toSockets: frames.frames.filter((frame) => frame.id === id).map((frame) => frame.sockets),
      sessions: (await live.status()).sessions,
      app: await live.health(),
    });
  };

  beforeAll(async () => {
    live = await startLiveWorld({ webhook_delay_seconds: BEHIND_S });
    // Set explicitly, whatever the default: this journey is about the socket.
    await value(live.world.panel.api.settings.update({ liveSocket: { enabled: true } }));
  }, 120_000);
  afterAll(async () => {
    await live?.world.close();
  });

  it('shows a line from the socket while its webhook is still held', async () => {
    await expect.poll(async () => (await live.health())?.state, WAIT).toBe('connected');
    await bySocket('before the drop');
  });

  for (const code of [4200, 'cut'] as const) {
    it(`after ${code}, lines sent while it is down come by webhook; it comes back by itself`, async () => {
      const reconnectsBefore = (await live.health())!.counters.reconnects;
      // The socket host unreachable for a while, webhooks on time.
      await sandbox('/live-socket/settings', { connections: 'refused', webhook_delay_seconds: 0 });
      expect((await sandbox('/live-socket/drop', { code })).dropped).toBe(1);
      await expect.poll(async () => (await live.status()).sessions.length, WAIT).toBe(0);
      await expect.poll(async () => (await live.health())?.state, WAIT).not.toBe('connected');

      const gap = [
        await say(`in the gap after ${code}, one`, 100102),
        await say(`in the gap after ${code}, two`, 100103),
      ];
      for (const id of gap) {
        await row(id).waitFor(WAIT);
      }
      // No socket was open to bring them: they came by webhook.
      expect((await live.status()).sessions).toEqual([]);
      await expect.poll(() => live.acknowledgedChat(), WAIT).toEqual(expect.arrayContaining(gap));
      expect((await live.health())?.state).not.toBe('connected');

      await sandbox('/live-socket/settings', { connections: 'accepted', webhook_delay_seconds: BEHIND_S });
      await expect.poll(async () => (await live.health())?.state, RECONNECT).toBe('connected');
      expect((await live.health())!.counters.reconnects).toBeGreaterThan(reconnectsBefore);
      await bySocket(`back after ${code}`);
    }, 150_000);
  }

  it('when the held webhooks arrive, every line has been shown exactly once and none is lost', async () => {
    // The sandbox holds the socket's lines' webhooks for BEHIND_S; then they come, and must add nothing.
    await expect.poll(() => sent.filter((id) => !live.acknowledgedChat().includes(id)), HELD).toEqual([]);
    expect(await live.heldChat()).toEqual([]);
    // A little longer: a second row for a copy would show up now.
    await new Promise((resolve) => setTimeout(resolve, 2000));

    const rows = await chatRowsEverShown(live.panel);
    expect(Object.fromEntries(sent.map((id) => [id, rows[id]]))).toEqual(Object.fromEntries(sent.map((id) => [id, 1])));
    const history = (await value(live.world.panel.api.chat.history())).map((m) => m.messageId);
    expect(history.filter((id) => sent.includes(id)).sort()).toEqual([...sent].sort());
    expect(sent).toHaveLength(7);
  }, 120_000);
});
