/**
 * The history files chat by Kick's time, through the real app
 * ([history](../../../docs/history.md#which-stream-an-event-belongs-to)): the embedded sandbox holds its webhooks
 * (Kick's queue running behind) while its live socket brings chat at once, so the chat of a stream that just went
 * live reaches the app before the stream's live-status webhook. Every line still counts for the stream.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openSettings } from '../../../electron/app/settings';
import { loadSqlite, SQLITE_MISSING } from '../../../electron/history/sqlite-driver';
import {
  call,
  expectedRecap,
  fire,
  type HistoryWorld,
  recapLists,
  startWorld,
  streamIdOf,
} from './history-app-fixtures';
import { until } from './live-merge-fixtures';

const hasSqlite = loadSqlite() !== null;
if (!hasSqlite) {
  console.info(`the history files chat by Kick's time: ${SQLITE_MISSING}; this runs in the Node 24 pass`);
}
const WAIT = { timeout: 60_000, interval: 100 };
/** How long the sandbox holds each webhook: the live socket is not held. */
const HELD_MS = 8_000;

let world: HistoryWorld;

beforeAll(async () => {
  if (hasSqlite) {
    const dir = mkdtempSync(join(tmpdir(), 'greenroom-history-filing-'));
    const settings = openSettings(dir, { randomBytes });
    settings.setLiveSocket({ ...settings.values().liveSocket, enabled: true });
    world = await startWorld(dir);
    await until(world.app, (view) => view.state === 'connected');
  }
}, 60_000);

afterAll(async () => {
  await world?.app.stop();
  await world?.shared.embedded.close();
  if (world) {
    rmSync(world.dir, { recursive: true, force: true });
  }
});

describe.runIf(hasSqlite)("the history files chat by Kick's time", () => {
  it('counts the lines the live socket brought before the live-status webhook', { timeout: 120_000 }, async () => {
    const { state } = world.shared.embedded.sandbox.ctx;
    state.webhookQueueDelayMs = HELD_MS;
    try {
      // The socket carries chat before the stream: a line seen while its webhook is held came by the socket.
      const warmUpLines = fire(world, 'chat.message.sent');
      const [warmUp] = expectedRecap(warmUpLines).chatters;
      await vi.waitFor(async () => {
        expect((await call(world.app, 'history:viewer', { userId: warmUp!.userId }))?.messages).toBe(1);
      }, WAIT);
      // The socket dates a line to its whole second, and a line from the second a stream began counts for it
      // (docs/history.md#which-stream-an-event-belongs-to): the stream begins in a later second than the warm-up.
      const warmUpSecond = Math.floor(
        Date.parse((warmUpLines[0]!.payload as { created_at: string }).created_at) / 1000,
      );
      await vi.waitFor(() => expect(Math.floor(Date.now() / 1000)).toBeGreaterThan(warmUpSecond), WAIT);
      const before = world.fired.length;
      const streamId = streamIdOf(fire(world, 'livestream.status.updated', { overrides: { is_live: true } }));
      const lines = fire(world, 'chat.message.sent', { count: 30 });
      const first = expectedRecap(lines).chatters[0]!;
      // The socket's lines are kept while Kick's status is still held: they came first.
      await vi.waitFor(async () => {
        expect(
          (await call(world.app, 'history:viewer', { userId: first.userId }))?.messages ?? 0,
        ).toBeGreaterThanOrEqual(first.messages);
      }, WAIT);
      expect((await call(world.app, 'history:status')).liveStreamId).toBeNull();
      await vi.waitFor(async () => expect((await call(world.app, 'history:status')).liveStreamId).toBe(streamId), WAIT);
      const expected = expectedRecap(world.fired.slice(before));
      expect(expected.messages).toBe(30);
      await vi.waitFor(async () => {
        expect(recapLists(await call(world.app, 'history:recap', { streamId }))).toEqual(expected);
      }, WAIT);
      const [listed] = await call(world.app, 'history:streams');
      expect(listed).toMatchObject({ startedAtMs: streamId, figures: { messages: 30 } });
    } finally {
      state.webhookQueueDelayMs = 0;
    }
  });
});
