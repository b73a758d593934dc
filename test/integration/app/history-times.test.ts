/**
 * Kick's times that cannot be right, through the real app: signed webhooks into the app's receiver, read back
 * through the router ([history](../../../docs/history.md#times-far-from-arrival)). An offline before its own live
 * status, a stream dated 2098, an end before its start, chat dated 2200 and 1970.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BEHIND_ARRIVAL_MS } from '../../../electron/history/history-projector';
import { loadSqlite, SQLITE_MISSING } from '../../../electron/history/sqlite-driver';
import { emitEvent } from '../../../sandbox/events/payloads';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { samplePayloads } from '../../helpers/webhook-signing';
import { call, fire, type HistoryWorld, startWorld, streamIdOf } from './history-app-fixtures';

const hasSqlite = loadSqlite() !== null;
if (!hasSqlite) {
  console.info(`Kick's times that cannot be right: ${SQLITE_MISSING}; this runs in the Node 24 pass`);
}
const WAIT = { timeout: 30_000, interval: 100 };
/** Each case waits on several deliveries in turn; on a loaded machine they add up past the default 20 s. */
const TEST_MS = 120_000;
const DAY = 86_400_000;
/** Kick's time to the second, as its payloads give it. */
const kickTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
const startSeconds = new Set<string>();
/**
 * A stream's start in Kick's whole seconds, one no earlier case began a stream in: a live status naming a stream
 * already kept and ended is a late copy and opens nothing, and these cases can run within one second.
 */
function streamStart(ms: number): string {
  let at = ms;
  while (startSeconds.has(kickTime(at))) {
    at -= 1000;
  }
  startSeconds.add(kickTime(at));
  return kickTime(at);
}

let world: HistoryWorld;
let nextUser = 880_001;

beforeAll(async () => {
  if (hasSqlite) {
    world = await startWorld(mkdtempSync(join(tmpdir(), 'greenroom-history-times-')));
  }
}, 60_000);

afterAll(async () => {
  await world?.app.stop();
  await world?.shared.embedded.close();
  if (world) {
    rmSync(world.dir, { recursive: true, force: true });
  }
});

/** A signed webhook as Kick would send it, with the fields given. */
function send<T extends 'chat.message.sent' | 'livestream.status.updated'>(type: T, fields: object): void {
  const payload = { ...samplePayloads()[type], ...fields };
  emitEvent(world.shared.embedded.sandbox.ctx.state, type, STREAMER_USER_ID, payload);
}

function chat(userId: number, username: string, createdAt: string, id: string): void {
  const sender = { ...samplePayloads()['chat.message.sent'].sender, user_id: userId, username };
  send('chat.message.sent', { message_id: id, created_at: createdAt, sender });
}

/** Sends a chat line of a viewer of its own and waits until it is kept: every webhook before it was handled. */
async function handled(): Promise<void> {
  const userId = nextUser++;
  chat(userId, `marker${userId}`, kickTime(Date.now()), `marker-${userId}`);
  await vi.waitFor(async () => expect(await call(world.app, 'history:viewer', { userId })).not.toBeNull(), WAIT);
}

const status = () => call(world.app, 'history:status');
const streamAt = async (startedAtMs: number) =>
  (await call(world.app, 'history:streams')).find((s) => s.startedAtMs === startedAtMs);

describe.runIf(hasSqlite)("Kick's times that cannot be right", () => {
  it(
    'keeps a stream ended when its offline came before its own live status',
    async () => {
      const start = streamStart(Date.now() - 60_000);
      const end = kickTime(Date.now() - 1000);
      send('livestream.status.updated', { is_live: false, started_at: start, ended_at: end });
      await vi.waitFor(async () => expect(await streamAt(Date.parse(start))).toBeDefined(), WAIT);
      send('livestream.status.updated', { is_live: true, started_at: start, ended_at: null });
      // The next stream: had the live status opened the first one again, this would end it now.
      const next = streamStart(Date.now());
      send('livestream.status.updated', { is_live: true, started_at: next, ended_at: null });
      await vi.waitFor(async () => expect((await status()).liveStreamId).toBe(Date.parse(next)), WAIT);
      expect((await streamAt(Date.parse(start)))?.endedAtMs).toBe(Date.parse(end));
      send('livestream.status.updated', { is_live: false, started_at: next, ended_at: kickTime(Date.now()) });
      await vi.waitFor(async () => expect((await status()).liveStreamId).toBeNull(), WAIT);
    },
    TEST_MS,
  );

  it(
    'does not let a stream dated 2098 hold back the next one',
    async () => {
      const before = Date.now();
      send('livestream.status.updated', { is_live: true, started_at: '2098-01-01T00:00:00Z', ended_at: null });
      await vi.waitFor(async () => expect((await status()).liveStreamId).not.toBeNull(), WAIT);
      // Taken as begun when it came, not in 2098.
      const capped = (await status()).liveStreamId!;
      expect(capped).toBeGreaterThanOrEqual(before);
      expect(capped).toBeLessThanOrEqual(Date.now());
      // Its offline never came: the next real stream still starts, and the one before ends when it began.
      const id = streamIdOf(fire(world, 'livestream.status.updated', { overrides: { is_live: true } }));
      await vi.waitFor(async () => expect((await status()).liveStreamId).toBe(id), WAIT);
      const ended = await streamAt(capped);
      expect(ended?.endedAtMs).toBeGreaterThanOrEqual(capped);
      fire(world, 'livestream.status.updated', { overrides: { is_live: false } });
      await vi.waitFor(async () => expect((await status()).liveStreamId).toBeNull(), WAIT);
    },
    TEST_MS,
  );

  it(
    'does not keep an end before its start',
    async () => {
      const started = Date.parse(streamStart(Date.now() - 30_000));
      send('livestream.status.updated', { is_live: true, started_at: kickTime(started), ended_at: null });
      await vi.waitFor(async () => expect((await status()).liveStreamId).toBe(Date.parse(kickTime(started))), WAIT);
      send('livestream.status.updated', {
        is_live: false,
        started_at: kickTime(started),
        ended_at: kickTime(started - 3_600_000),
      });
      await vi.waitFor(async () => expect((await status()).liveStreamId).toBeNull(), WAIT);
      const stream = await streamAt(Date.parse(kickTime(started)));
      expect(stream?.endedAtMs).toBeGreaterThanOrEqual(stream!.startedAtMs);
      expect(stream?.figures.durationMs).toBeGreaterThanOrEqual(0);
    },
    TEST_MS,
  );

  it(
    'keeps chat dated 2200 or 1970 near its arrival, and the name follows the newest line',
    async () => {
      const id = streamIdOf(
        fire(world, 'livestream.status.updated', { overrides: { is_live: true, started_at: streamStart(Date.now()) } }),
      );
      await vi.waitFor(async () => expect((await status()).liveStreamId).toBe(id), WAIT);
      const userId = nextUser++;
      chat(userId, 'oldname', '2200-01-01T00:00:00Z', 'times-2200');
      chat(userId, 'midname', '1970-01-01T00:00:01Z', 'times-1970');
      await handled();
      chat(userId, 'newname', kickTime(Date.now()), 'times-now');
      await vi.waitFor(
        async () => expect((await call(world.app, 'history:viewer', { userId }))?.messages).toBe(3),
        WAIT,
      );
      const viewer = (await call(world.app, 'history:viewer', { userId }))!;
      expect(viewer.username).toBe('newname');
      // Kick gave the newest line whole seconds: seen by the end of that second at the latest.
      expect(viewer.lastSeenMs).toBeLessThan(Date.now() + 1000);
      expect(viewer.firstSeenMs).toBeGreaterThanOrEqual(Date.now() - BEHIND_ARRIVAL_MS - DAY);
      const stream = (await streamAt(id))!;
      expect(stream.figures.durationMs).toBeLessThan(DAY);
      const recap = await call(world.app, 'history:recap', { streamId: id });
      expect(recap.series.bucketMs).toBeLessThanOrEqual(60 * 60_000);
      fire(world, 'livestream.status.updated', { overrides: { is_live: false } });
      await vi.waitFor(async () => expect((await status()).liveStreamId).toBeNull(), WAIT);
    },
    TEST_MS,
  );
});
