/** The held subscriptions kept in the data dir between runs: saved whole, read back, damage moved aside. */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  HELD_SUBSCRIPTIONS_FILE,
  openHeldSubscriptionsFile,
} from '../../../../../electron/webhooks/subscriptions/held-subscriptions-file';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function open(dir = mkdtempSync(join(tmpdir(), 'greenroom-held-'))) {
  dirs.push(dir);
  const logs: string[] = [];
  return { dir, logs, file: openHeldSubscriptionsFile(dir, { log: (line) => logs.push(line), nowMs: () => 0 }) };
}

describe('openHeldSubscriptionsFile', () => {
  it('reads back what was saved, owner-only, and finds nothing on a first run', () => {
    const { dir, file, logs } = open();
    expect(file.load()).toBeNull();
    file.save({ broadcasterUserId: 100001, subscriptionIds: ['01A', '01B'] });
    expect(open(dir).file.load()).toEqual({ broadcasterUserId: 100001, subscriptionIds: ['01A', '01B'] });
    expect(statSync(join(dir, HELD_SUBSCRIPTIONS_FILE)).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual([HELD_SUBSCRIPTIONS_FILE]);
    expect(logs).toEqual([]);
  });

  it.each([
    ['not JSON', '{"version":1,'],
    ['another version', JSON.stringify({ version: 2, broadcasterUserId: 1, subscriptionIds: [] })],
    ['a string broadcaster', JSON.stringify({ version: 1, broadcasterUserId: '1', subscriptionIds: [] })],
    ['an id that is not a string', JSON.stringify({ version: 1, broadcasterUserId: 1, subscriptionIds: [7] })],
    ['too many ids', JSON.stringify({ version: 1, broadcasterUserId: 1, subscriptionIds: Array(1001).fill('x') })],
  ])('moves a file with %s aside, says so once, and loads nothing', (_, text) => {
    const { dir, file, logs } = open();
    writeFileSync(join(dir, HELD_SUBSCRIPTIONS_FILE), text);
    expect(file.load()).toBeNull();
    expect(logs).toEqual([expect.stringMatching(/was damaged and was moved to .*\.damaged-/)]);
    const aside = readdirSync(dir).find((name) => name.includes('.damaged-'))!;
    expect(readFileSync(join(dir, aside), 'utf8')).toBe(text);
  });

  it('says once when it cannot save, and keeps going', () => {
    const { dir, file, logs } = open();
    // A folder where the file belongs cannot be replaced by a rename.
    mkdirSync(join(dir, HELD_SUBSCRIPTIONS_FILE));
    file.save({ broadcasterUserId: 1, subscriptionIds: ['a'] });
    file.save({ broadcasterUserId: 1, subscriptionIds: ['b'] });
    expect(logs).toEqual([expect.stringContaining('could not save the held subscriptions')]);
  });
});
