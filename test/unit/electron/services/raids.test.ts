import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../../../shared/kick/live-events';
import { obsActionsSettingsSchema } from '../../../../shared/obs-actions';
import {
  RAID_NAME_MAX,
  RAID_TWIN_WINDOW_MS,
  RAID_VIEWERS_MAX,
  RaidTwins,
  raidAlertSource,
  raidFeedItem,
  raidUsername,
  raidViewers,
} from '../../../../electron/services/raids';
import { actionsSetup, SETUP } from '../obs/obs-actions-fixtures';

type Host = Extract<LiveEvent, { type: 'host' }>;
/** Ten seconds after the hosts' own times below. */
const NOW = Date.parse('2026-01-01T00:00:10Z');
const host = (over: Partial<Host> = {}): Host => ({
  type: 'host',
  channel: 'chatrooms.1.v2',
  version: 'v2',
  hostId: null,
  hostUsername: 'xqc',
  viewers: 120,
  message: null,
  createdAt: null,
  ...over,
});

describe('raids from the live socket', () => {
  it('makes one raid of a host and its twin, and a new one after the window', () => {
    const twins = new RaidTwins();
    const first = twins.accept(host(), 1000);
    expect(first).toMatchObject({ kind: 'new', raid: { username: 'xqc', viewers: 120, atMs: 1000, timed: false } });
    expect(twins.accept(host({ version: 'v1', hostUsername: 'XQC', viewers: 121, hostId: 'm1' }), 1500)).toBeNull();
    expect(twins.accept(host(), 1000 + RAID_TWIN_WINDOW_MS)).toMatchObject({ kind: 'new' });
  });

  it("takes Kick's time when the host carries one", () => {
    const verdict = new RaidTwins().accept(host({ createdAt: '2026-01-01T00:00:00+00:00' }), NOW)!;
    const raid = verdict.raid;
    expect(raid).toMatchObject({ atMs: Date.parse('2026-01-01T00:00:00Z'), timed: true });
    expect(raidAlertSource(raid)).toMatchObject({ kind: 'raid', fields: { user: 'xqc', viewers: '120' }, amount: 120 });
    expect(raidFeedItem(raid)).toMatchObject({ kind: 'raid', text: 'xqc raided with 120 viewers', username: 'xqc' });
  });

  it("gives a raid without a time its twin's time, once, under the same id", () => {
    const twins = new RaidTwins();
    const first = twins.accept(host(), NOW)!;
    const timed = twins.accept(host({ version: 'v1', hostId: 'm1', createdAt: '2026-01-01T00:00:00Z' }), NOW + 10);
    expect(timed).toEqual({
      kind: 'timed',
      raid: { ...first.raid, atMs: Date.parse('2026-01-01T00:00:00Z'), timed: true },
    });
    // A third copy with another time changes nothing: the raid was already judged on the first time.
    expect(twins.accept(host({ version: 'v1', createdAt: '2026-01-01T00:00:05Z' }), NOW + 20)).toBeNull();
  });

  it('takes a time ahead of the clock as now: the clocks disagree, the raid did not happen in the future', () => {
    expect(new RaidTwins().accept(host({ createdAt: '2027-01-01T00:00:00Z' }), NOW)!.raid).toMatchObject({
      atMs: NOW,
      timed: true,
    });
  });

  it('knows a raid read back from the journal, so its twin after a restart is no new raid', () => {
    const twins = new RaidTwins();
    const raid = new RaidTwins().accept(host({ createdAt: '2026-01-01T00:00:00Z' }), 1000)!.raid;
    twins.remember(raid);
    expect(twins.accept(host({ hostUsername: 'XQC' }), 2000)).toBeNull();
    expect(twins.accept(host(), 1000 + RAID_TWIN_WINDOW_MS)).toMatchObject({ kind: 'new' });
  });

  it('bounds the viewers: negative, fractional, huge, not a number', () => {
    expect([-1, 3.9, 1e300, Number.POSITIVE_INFINITY, Number.NaN].map(raidViewers)).toEqual([
      0,
      3,
      RAID_VIEWERS_MAX,
      RAID_VIEWERS_MAX,
      0,
    ]);
  });

  it('drops invisible characters from the name, cuts it, and refuses one with nothing left', () => {
    expect(raidUsername('\u200bx\u202eq\u0000c ')).toBe('xqc');
    expect(raidUsername('😀'.repeat(100))).toBe('😀'.repeat(RAID_NAME_MAX));
    expect(raidUsername('\u200b\u0007 ')).toBeNull();
    expect(new RaidTwins().accept(host({ hostUsername: '\u200b' }), 1)).toBeNull();
  });
});

describe('OBS actions: a raid', () => {
  it('switches to the raid scene and says so in Activity', async () => {
    const t = await actionsSetup(
      obsActionsSettingsSchema.parse({ ...SETUP, raid: { enabled: true, scene: 'Starting' } }),
    );
    t.actions.raided('xqc');
    await t.actions.settled();
    expect(await t.program()).toBe('Starting');
    expect(t.feed).toEqual(["OBS: switched to Starting for xqc's raid"]);
  });

  it('does nothing while the raid action is off', async () => {
    const t = await actionsSetup();
    t.actions.raided('xqc');
    await t.actions.settled();
    expect(await t.program()).toBe('Main');
    expect(t.feed).toEqual([]);
  });
});
