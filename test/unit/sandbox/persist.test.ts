/**
 * The saved world's round trip (sandbox/persist.ts): what is saved comes back the same, with the pictures
 * on the new address; tokens are saved as digests only and still work for whoever holds them; what grows
 * with activity is bounded; a newer or damaged document is refused.
 */
import { describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../../electron/core/clock';
import { clearWorld, parseWorld, restoreWorld, saveWorld, WORLD_LIMITS } from '../../../sandbox/persist';
import { SandboxState } from '../../../sandbox/state';
import { findLiveAccessToken, issueAccessToken, issueRefreshToken } from '../../../sandbox/tokens';
import { createWorld, STREAMER_USER_ID } from '../../../sandbox/world';

const OLD = 'http://127.0.0.1:40001';
const NEW = 'http://127.0.0.1:50002';

function seeded(clock = new AdjustableClock()) {
  const state = new SandboxState(clock, { accessSeconds: 3600, codeSeconds: 600 });
  const app = createWorld(state, { assetBaseUrl: OLD });
  return { state, app, clock };
}

/** Through JSON, as the file does. */
const throughDisk = (state: SandboxState) => JSON.parse(JSON.stringify(saveWorld(state, OLD))) as unknown;

describe('the saved sandbox world', () => {
  it('comes back as it was, with pictures on the new address and the app keeping its object', () => {
    const before = seeded();
    const channel = before.state.channels.get(STREAMER_USER_ID)!;
    channel.streamTitle = 'Changed title';
    before.state.bans.set(`${STREAMER_USER_ID}:100100`, {
      broadcasterUserId: STREAMER_USER_ID,
      userId: 100100,
      moderatorUserId: STREAMER_USER_ID,
      reason: 'spam',
      createdAtMs: 0,
      expiresAtMs: null,
    });
    const parsed = parseWorld(throughDisk(before.state));
    expect(parsed.ok).toBe(true);

    const after = seeded();
    const appObject = after.app;
    restoreWorld(after.state, parsed.ok ? parsed.world : (undefined as never), NEW, appObject);
    expect(after.state.apps.get(appObject.clientId)).toBe(appObject);
    expect(appObject.appId).toBe(before.app.appId);
    const restored = after.state.channels.get(STREAMER_USER_ID)!;
    expect({ ...restored, bannerPicture: '', thumbnail: '' }).toEqual({ ...channel, bannerPicture: '', thumbnail: '' });
    expect(restored.thumbnail).toBe(channel.thumbnail.replace(OLD, NEW));
    expect(after.state.users.get(STREAMER_USER_ID)!.badges).toEqual(before.state.users.get(STREAMER_USER_ID)!.badges);
    expect(after.state.activeBan(STREAMER_USER_ID, 100100)?.reason).toBe('spam');
    expect(saveWorld(after.state, NEW)).toEqual({ ...saveWorld(before.state, OLD), savedAtMs: expect.any(Number) });
  });

  it('keeps tokens as digests only, and a restored token works for whoever holds it', () => {
    const before = seeded();
    const access = issueAccessToken(before.state, {
      kind: 'user',
      clientId: before.app.clientId,
      userId: STREAMER_USER_ID,
      scopes: ['user:read'],
    });
    const refresh = issueRefreshToken(before.state, {
      clientId: before.app.clientId,
      userId: STREAMER_USER_ID,
      scopes: ['user:read'],
    });
    const revoked = issueAccessToken(before.state, {
      kind: 'app',
      clientId: before.app.clientId,
      userId: null,
      scopes: [],
    });
    revoked.revoked = true;
    const text = JSON.stringify(saveWorld(before.state, OLD));
    expect(text).not.toContain(access.token);
    expect(text).not.toContain(refresh.token);

    const after = seeded();
    const parsed = parseWorld(JSON.parse(text));
    restoreWorld(after.state, parsed.ok ? parsed.world : (undefined as never), NEW, after.app);
    expect(findLiveAccessToken(after.state, access.token)).toMatchObject({
      userId: STREAMER_USER_ID,
      token: access.token,
    });
    expect(after.state.refreshTokens.get(refresh.token)?.userId).toBe(STREAMER_USER_ID);
    expect(findLiveAccessToken(after.state, revoked.token)).toBeUndefined();
    expect(findLiveAccessToken(after.state, 'a-token-nobody-was-given')).toBeUndefined();
  });

  it('leaves out expired tokens, ended bans, chat, and keeps only the newest of what grows', () => {
    const { state, app, clock } = seeded();
    issueAccessToken(state, { kind: 'app', clientId: app.clientId, userId: null, scopes: [], lifetimeSeconds: 1 });
    state.bans.set('1:2', {
      broadcasterUserId: 1,
      userId: 2,
      moderatorUserId: 1,
      reason: '',
      createdAtMs: 0,
      expiresAtMs: 500,
    });
    state.chatMessages.set('m1', {
      messageId: 'm1',
      broadcasterUserId: STREAMER_USER_ID,
      senderUserId: 100100,
      content: 'hi',
      type: 'user',
      replyToMessageId: null,
      createdAtMs: 0,
      deleted: false,
    });
    for (let i = 0; i < WORLD_LIMITS.kicksGifts + 5; i++) {
      state.kicksGifts.push({ broadcasterUserId: STREAMER_USER_ID, senderUserId: 100100, amount: i, createdAtMs: i });
    }
    for (let i = 0; i < WORLD_LIMITS.resolvedRedemptions + 3; i++) {
      const status = i === 0 ? 'pending' : 'accepted';
      state.redemptions.set(`x${i}`, {
        id: `x${i}`,
        rewardId: 'r',
        broadcasterUserId: STREAMER_USER_ID,
        redeemerUserId: 100100,
        userInput: '',
        status,
        redeemedAtMs: i,
      });
    }
    clock.advance(2000);
    const saved = saveWorld(state, OLD);
    expect(saved.accessTokens).toEqual([]);
    expect(saved.bans).toEqual([]);
    expect(JSON.stringify(saved)).not.toContain('"hi"');
    expect(saved.kicksGifts).toHaveLength(WORLD_LIMITS.kicksGifts);
    expect(saved.kicksGifts.at(-1)?.amount).toBe(WORLD_LIMITS.kicksGifts + 4);
    expect(saved.redemptions).toHaveLength(WORLD_LIMITS.resolvedRedemptions + 1);
    expect(saved.redemptions.map((r) => r.id)).toContain('x0');
    expect(saved.redemptions.map((r) => r.id)).not.toContain('x1');
  });

  it('refuses a newer version unread, and names what is wrong in a damaged one', () => {
    expect(parseWorld({ version: 7, anything: true })).toEqual({ ok: false, problem: { kind: 'newer', version: 7 } });
    expect(parseWorld(null)).toMatchObject({ ok: false, problem: { kind: 'damaged' } });
    expect(parseWorld([])).toMatchObject({ ok: false, problem: { kind: 'damaged' } });
    const world = throughDisk(seeded().state) as Record<string, unknown>;
    const broken = parseWorld({ ...world, accessTokens: [{ digest: 'not-hex' }] });
    expect(broken).toMatchObject({
      ok: false,
      problem: { kind: 'damaged', detail: expect.stringMatching(/^accessTokens\.0\./) },
    });
  });

  it('clears every record and token', () => {
    const { state, app } = seeded();
    issueAccessToken(state, { kind: 'app', clientId: app.clientId, userId: null, scopes: [] });
    state.follows.add('1:2');
    clearWorld(state);
    const saved = saveWorld(state, OLD);
    for (const list of Object.values(saved)) {
      if (Array.isArray(list)) {
        expect(list).toEqual([]);
      }
    }
  });
});
