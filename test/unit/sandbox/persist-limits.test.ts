/**
 * The saved world never outgrows what the next start will read (sandbox/persist.ts, persist-file.ts): a
 * world swollen with activity (pending redemptions, app tokens, deleted rewards, ad breaks, bans) is written
 * under `WORLD_FILE_MAX_BYTES` and read back whole, so the streamer stays signed in; a saved version that is
 * not a whole number is damage, not "newer".
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../../electron/core/clock';
import { parseWorld, restoreWorld, saveWorld, WORLD_LIMITS } from '../../../sandbox/persist';
import { createWorldSaver, readWorldFile, WORLD_FILE_MAX_BYTES } from '../../../sandbox/persist-file';
import { SandboxState } from '../../../sandbox/state';
import { findLiveAccessToken, issueAccessToken, issueRefreshToken } from '../../../sandbox/tokens';
import { createWorld, STREAMER_USER_ID } from '../../../sandbox/world';

const BASE = 'http://127.0.0.1:40001';
const manual = { set: () => null, clear: () => undefined };

function seeded() {
  const state = new SandboxState(new AdjustableClock(), { accessSeconds: 3600, codeSeconds: 600 });
  const app = createWorld(state, { assetBaseUrl: BASE });
  return { state, app };
}

function addPending(state: SandboxState, count: number, userInput = 'a song request'): void {
  for (let i = 0; i < count; i++) {
    state.redemptions.set(`p${i}`, {
      id: `p${i}`,
      rewardId: '01JREWARD0000000000000000',
      broadcasterUserId: STREAMER_USER_ID,
      redeemerUserId: 100100,
      userInput,
      status: 'pending',
      redeemedAtMs: i,
    });
  }
}

describe('the saved world at its limits', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'greenroom-world-limits-'));
    path = join(dir, 'sandbox-world.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes the world through the saver and reads it back as the next start does. */
  const roundTrip = async (state: SandboxState) => {
    const saver = createWorldSaver({
      path,
      snapshot: () => saveWorld(state, BASE),
      log: () => undefined,
      timers: manual,
    });
    saver.changed();
    await saver.stop();
    const notices: string[] = [];
    const read = readWorldFile({ path, setAside: () => `${path}.aside`, notice: (line) => notices.push(line) });
    return { read, notices, bytes: statSync(path).size };
  };

  it('90,000 pending redemptions are written under the read limit, the newest kept, the sign-in kept', async () => {
    const { state, app } = seeded();
    const access = issueAccessToken(state, {
      kind: 'user',
      clientId: app.clientId,
      userId: STREAMER_USER_ID,
      scopes: ['user:read'],
    });
    addPending(state, 90_000);
    const { read, notices, bytes } = await roundTrip(state);
    expect(notices).toEqual([]);
    expect(bytes).toBeLessThanOrEqual(WORLD_FILE_MAX_BYTES);
    expect(read.world?.redemptions).toHaveLength(WORLD_LIMITS.pendingRedemptions);
    expect(read.world?.redemptions.at(-1)?.id).toBe('p89999');
    expect(read.world?.accessTokens.map((t) => t.digest)).toHaveLength(1);
    expect(findLiveAccessToken(state, access.token)).toBeDefined();
  });

  it('a world of huge records sheds its oldest activity until it fits, and is read back whole', async () => {
    const { state, app } = seeded();
    // Each request 8 KB (the body limit lets more through): 5,000 of them are 40 MB before fitting.
    addPending(state, WORLD_LIMITS.pendingRedemptions, 'x'.repeat(8 * 1024));
    for (let i = 0; i < 3000; i++) {
      issueAccessToken(state, { kind: 'app', clientId: app.clientId, userId: null, scopes: [] });
    }
    const { read, notices, bytes } = await roundTrip(state);
    expect(notices).toEqual([]);
    expect(bytes).toBeLessThanOrEqual(WORLD_FILE_MAX_BYTES);
    expect(read.world?.redemptions.length).toBeGreaterThan(0);
    expect(read.world?.redemptions.length).toBeLessThan(WORLD_LIMITS.pendingRedemptions);
    expect(read.world?.redemptions.at(-1)?.id).toBe(`p${WORLD_LIMITS.pendingRedemptions - 1}`);
    // Activity went first: the newest tokens (the sign-in) are all still there.
    expect(read.world?.accessTokens).toHaveLength(WORLD_LIMITS.accessTokens);
  });

  it('sheds tokens only once the activity is gone, the newest kept', () => {
    const { state, app } = seeded();
    for (let i = 0; i < 600; i++) {
      issueAccessToken(state, { kind: 'app', clientId: app.clientId, userId: null, scopes: ['x'.repeat(200)] });
    }
    const newestToken = issueAccessToken(state, { kind: 'app', clientId: app.clientId, userId: null, scopes: [] });
    addPending(state, 100);
    const full = saveWorld(state, BASE);
    const limit = Buffer.byteLength(JSON.stringify(full)) - 50_000;
    const saved = saveWorld(state, BASE, limit);
    expect(saved.redemptions).toEqual([]);
    expect(saved.accessTokens.length).toBeLessThan(601);
    const after = seeded();
    const parsed = parseWorld(JSON.parse(JSON.stringify(saved)));
    expect(parsed.ok).toBe(true);
    restoreWorld(after.state, parsed.ok ? parsed.world : (undefined as never), BASE, after.app);
    expect(findLiveAccessToken(after.state, newestToken.token)).toBeDefined();
  });

  it('fits under any limit it is given, as small as a few kilobytes', () => {
    const { state } = seeded();
    addPending(state, 2000);
    const saved = saveWorld(state, BASE, 64 * 1024);
    expect(Buffer.byteLength(`${JSON.stringify(saved)}\n`)).toBeLessThanOrEqual(64 * 1024);
    expect(parseWorld(JSON.parse(JSON.stringify(saved))).ok).toBe(true);
  });

  it('keeps what the limits name, and no more, of every list that grows', () => {
    const { state, app } = seeded();
    for (let i = 0; i < WORLD_LIMITS.accessTokens + 10; i++) {
      issueAccessToken(state, { kind: 'app', clientId: app.clientId, userId: null, scopes: [] });
    }
    for (let i = 0; i < WORLD_LIMITS.refreshTokens + 10; i++) {
      issueRefreshToken(state, { clientId: app.clientId, userId: STREAMER_USER_ID, scopes: [] });
    }
    for (let i = 0; i < WORLD_LIMITS.deletedRewards + 10; i++) {
      const reward = { ...[...state.rewards.values()][0]!, id: `d${i}`, deleted: true, createdAtMs: i };
      state.rewards.set(reward.id, reward);
    }
    for (let i = 0; i < WORLD_LIMITS.bans + 10; i++) {
      state.bans.set(`${STREAMER_USER_ID}:${i}`, {
        broadcasterUserId: STREAMER_USER_ID,
        userId: i,
        moderatorUserId: STREAMER_USER_ID,
        reason: '',
        createdAtMs: i,
        expiresAtMs: null,
      });
    }
    const saved = saveWorld(state, BASE);
    expect(saved.accessTokens).toHaveLength(WORLD_LIMITS.accessTokens);
    expect(saved.refreshTokens).toHaveLength(WORLD_LIMITS.refreshTokens);
    expect(saved.rewards.filter((r) => r.deleted)).toHaveLength(WORLD_LIMITS.deletedRewards);
    expect(saved.bans).toHaveLength(WORLD_LIMITS.bans);
    expect(saved.bans.at(-1)?.userId).toBe(WORLD_LIMITS.bans + 9);
  });
});

describe('a saved version that is not a whole number', () => {
  it.each([1.5, 1e308, Number.MAX_VALUE, 2 ** 53])('%s is damage, not a newer Greenroom', (version) => {
    expect(parseWorld({ version })).toMatchObject({ ok: false, problem: { kind: 'damaged' } });
  });

  it('a whole number above ours is still newer', () => {
    expect(parseWorld({ version: 2 })).toEqual({ ok: false, problem: { kind: 'newer', version: 2 } });
  });
});
