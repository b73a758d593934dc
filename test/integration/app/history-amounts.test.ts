/**
 * Amounts no one could give, signed and sent by the embedded sandbox to the real app, read back over the router
 * as the panel reads them ([history](../../../docs/history.md#amounts-that-cannot-be)): they count for no one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadSqlite, SQLITE_MISSING } from '../../../electron/history/sqlite-driver';
import type { KickEventPayloads } from '../../../shared/kick/events';
import { emitEvent } from '../../../sandbox/events/payloads';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { samplePayloads } from '../../helpers/webhook-signing';
import { call, fire, type HistoryWorld, startWorld, streamIdOf } from './history-app-fixtures';

const hasSqlite = loadSqlite() !== null;
if (!hasSqlite) {
  console.info(`amounts no one could give: ${SQLITE_MISSING}; this runs in the Node 24 pass`);
}
const WAIT = { timeout: 30_000, interval: 100 };

let world: HistoryWorld;

beforeAll(async () => {
  if (hasSqlite) {
    world = await startWorld(mkdtempSync(join(tmpdir(), 'greenroom-history-amounts-')));
  }
}, 60_000);

afterAll(async () => {
  await world?.app.stop();
  await world?.shared.embedded.close();
  if (world) {
    rmSync(world.dir, { recursive: true, force: true });
  }
});

/** Signed by the sandbox and sent to the app's receiver, as Kick would. */
function send<T extends keyof KickEventPayloads>(type: T, payload: KickEventPayloads[T]): void {
  emitEvent(world.shared.embedded.sandbox.ctx.state, type, STREAMER_USER_ID, payload);
}

const sample = samplePayloads();
const user = (userId: number, username: string) => ({ ...sample['kicks.gifted'].sender, user_id: userId, username });
const kicks = (userId: number, amount: number, at: string) => {
  const base = sample['kicks.gifted'];
  send('kicks.gifted', {
    ...base,
    created_at: at,
    sender: user(userId, 'kick_sender'),
    gift: { ...base.gift, amount },
  });
};
const sub = (type: 'channel.subscription.new' | 'channel.subscription.renewal', userId: number, months: number) => {
  const base = sample[type];
  send(type, {
    ...base,
    created_at: new Date().toISOString(),
    duration: months,
    subscriber: { ...base.subscriber, user_id: userId, username: `sub_${userId}` },
  });
};
const gift = (userId: number, giftees: number) => {
  const base = sample['channel.subscription.gifts'];
  send('channel.subscription.gifts', {
    ...base,
    created_at: new Date().toISOString(),
    gifter: { ...base.gifter, is_anonymous: false, user_id: userId, username: 'gifter_z' },
    giftees: base.giftees.slice(0, giftees),
  });
};

describe.runIf(hasSqlite)('amounts no one could give', () => {
  it('count for no one: not in the recap, the thank-you list, the card or the streams list', async () => {
    const streamId = streamIdOf(fire(world, 'livestream.status.updated', { overrides: { is_live: true } }));
    await vi.waitFor(async () => expect((await call(world.app, 'history:status')).liveStreamId).toBe(streamId), WAIT);
    const now = new Date().toISOString();
    kicks(771001, -100_000, now);
    kicks(771001, 0, now);
    sub('channel.subscription.new', 771002, -1);
    sub('channel.subscription.renewal', 771003, 0);
    sub('channel.subscription.new', 771004, -5);
    gift(771005, 0);
    // Then real support from the same viewers: once it shows, every delivery before it has been applied.
    kicks(771001, 100, new Date().toISOString());
    sub('channel.subscription.new', 771002, 1);
    gift(771005, 2);
    let recap = await call(world.app, 'history:recap', { streamId });
    await vi.waitFor(async () => {
      recap = await call(world.app, 'history:recap', { streamId });
      expect(recap.kicks.length + recap.newSubscribers.length + recap.gifters.length).toBeGreaterThanOrEqual(3);
    }, WAIT);
    expect(recap.kicks).toEqual([{ userId: 771001, username: 'kick_sender', kicks: 100, gifts: 1 }]);
    expect(recap.newSubscribers.map((s) => [s.userId, s.months])).toEqual([[771002, 1]]);
    expect(recap.renewedSubscribers).toEqual([]);
    expect(recap.gifters).toEqual([{ userId: 771005, username: 'gifter_z', subs: 2, gifts: 1 }]);
    expect(recap.series.subs.reduce((a, b) => a + b, 0)).toBe(3);
    expect(recap.series.kicks.reduce((a, b) => a + b, 0)).toBe(100);
    expect(recap.thankYou).not.toMatch(/-|\(0\)|0 months/);
    const card = await call(world.app, 'history:viewer', { userId: 771001 });
    expect(card?.kicks).toBe(100);
    expect((await call(world.app, 'history:viewer', { userId: 771002 }))?.subMonths).toBe(1);
    expect(await call(world.app, 'history:viewer', { userId: 771003 })).toBeNull();
    expect((await call(world.app, 'history:viewer', { userId: 771005 }))?.giftedSubs).toBe(2);
    const listed = (await call(world.app, 'history:streams')).find((s) => s.startedAtMs === streamId);
    expect(listed?.figures).toMatchObject({ subs: 3, kicks: 100 });
    // Said once in the log, not once per event.
    expect(world.logs.filter((line) => line.includes('counts for no one'))).toEqual([
      'history: an amount no one could give was kept and counts for no one: a gift of -100000 KICKs',
    ]);
  });
});
