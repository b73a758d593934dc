/**
 * A flood of ban frames from Kick's live socket (electron/app/live-moderation.ts), on a hand-driven clock:
 * the socket writes a bounded number of mod-log entries however many frames come, the rest are counted and
 * logged once, the webhook still brings a ban the socket could not write, and what each source has matched is
 * kept for entries the mod log still holds, and at most as many again.
 */
import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../../../shared/kick/live-events';
import type { ModerationBannedPayload } from '../../../../shared/kick/events';
import type { ModAction } from '../../../../shared/views';
import { AdjustableClock } from '../../../../electron/core/clock';
import {
  createLiveModeration,
  SOCKET_ENTRIES_BURST,
  SOCKET_ENTRIES_PER_SECOND,
} from '../../../../electron/app/live-moderation';
import { ChatHistory } from '../../../../electron/services/chat-history';
import { DEFAULT_MOD_LOG_SIZE, Moderation } from '../../../../electron/services/moderation';
import type { KickEvent } from '../../../../electron/webhooks/events/types';

const T0 = Date.parse('2026-03-04T05:06:07Z');
const FRAMES = 10_000;

function setUp(logSize = DEFAULT_MOD_LOG_SIZE) {
  const clock = new AdjustableClock({ now: () => T0 });
  /** Every entry the mod log recorded: with a store, one append and one disk sync each. */
  const recorded: ModAction[] = [];
  const moderation = new Moderation({
    client: {
      banUser: () => Promise.resolve(),
      unbanUser: () => Promise.resolve(),
      deleteChatMessage: () => Promise.resolve(),
      fetchUser: () => Promise.resolve(null),
    },
    broadcasterUserId: () => Promise.resolve(1),
    chat: new ChatHistory(),
    clock,
    onAction: (action) => recorded.push(action),
    onDeleted: () => undefined,
    log: () => undefined,
    logSize,
  });
  const lines: string[] = [];
  const live = createLiveModeration({ clock, moderation, log: (line) => lines.push(line) });
  return { clock, moderation, live, lines, recorded };
}

const ban = (userId: number): LiveEvent => ({
  type: 'user.banned',
  channel: 'chatrooms.7.v2',
  user: { id: userId, username: `bot_${userId}`, slug: null },
  bannedBy: { id: 9, username: 'mod_mia', slug: null },
  permanent: true,
  durationMinutes: null,
  expiresAt: null,
});

function webhookBan(userId: number, createdMs: number): KickEvent {
  const user = (id: number, username: string) => ({
    is_anonymous: false,
    user_id: id,
    username,
    is_verified: null,
    profile_picture: null,
    channel_slug: null,
  });
  const payload: ModerationBannedPayload = {
    broadcaster: user(1, 'streamer'),
    moderator: user(9, 'mod_mia'),
    banned_user: user(userId, `bot_${userId}`),
    metadata: { reason: 'spam', created_at: new Date(createdMs).toISOString(), expires_at: null },
  };
  return {
    kind: 'known',
    type: 'moderation.banned',
    version: 1,
    messageId: `m-${userId}`,
    subscriptionId: 's',
    timestamp: new Date(createdMs).toISOString(),
    receivedAtMs: createdMs + 600_000,
    payload,
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('a flood of bans from the live socket', () => {
  it('writes a burst of entries for 10,000 frames at once, logs the flood once, and counts the rest', async () => {
    const { clock, live, lines, recorded } = setUp();
    for (let i = 1; i <= FRAMES; i += 1) {
      live.onLiveEvent(ban(1000 + i));
    }
    await settle();
    expect(recorded).toHaveLength(SOCKET_ENTRIES_BURST);
    expect(live.stats().skipped).toBe(FRAMES - SOCKET_ENTRIES_BURST);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`more bans from Kick's live socket than ${SOCKET_ENTRIES_PER_SECOND} a second`);

    // A second later the socket may write again: still the same flood, not logged again.
    clock.advance(1_000);
    live.onLiveEvent(ban(98));
    live.onLiveEvent(ban(99));
    live.onLiveEvent(ban(100));
    await settle();
    expect(recorded).toHaveLength(SOCKET_ENTRIES_BURST + SOCKET_ENTRIES_PER_SECOND);
    expect(lines).toHaveLength(1);
    // A quiet minute ends the flood: the next ban is written, and what the flood cost is said once.
    clock.advance(60_000);
    live.onLiveEvent(ban(101));
    await settle();
    expect(recorded).toHaveLength(SOCKET_ENTRIES_BURST + SOCKET_ENTRIES_PER_SECOND + 1);
    expect(lines.slice(1)).toEqual([
      `live moderation: ${FRAMES - SOCKET_ENTRIES_BURST + 1} bans from Kick's live socket were not written to the mod log`,
    ]);
  });

  it('writes no more than the rate allows of a flood spread over time, and logs it once', async () => {
    const { clock, live, lines, recorded } = setUp();
    // 10,000 frames over 100 seconds: 100 a second.
    for (let i = 1; i <= FRAMES; i += 1) {
      live.onLiveEvent(ban(1000 + i));
      clock.advance(10);
    }
    await settle();
    expect(recorded.length).toBeLessThanOrEqual(SOCKET_ENTRIES_BURST + 100 * SOCKET_ENTRIES_PER_SECOND);
    expect(recorded.length).toBeGreaterThanOrEqual(100 * SOCKET_ENTRIES_PER_SECOND);
    expect(lines).toHaveLength(1);
  });

  it('lets the signed webhook bring a ban the socket could not write, once', async () => {
    const { clock, moderation, live } = setUp();
    for (let i = 1; i <= SOCKET_ENTRIES_BURST + 1; i += 1) {
      live.onLiveEvent(ban(1000 + i));
    }
    await settle();
    const last = 1000 + SOCKET_ENTRIES_BURST + 1;
    expect(moderation.actions().some((a) => a.targetUserId === last)).toBe(false);
    clock.advance(600_000);
    live.onWebhook(webhookBan(last, T0));
    live.onWebhook(webhookBan(1001, T0));
    await settle();
    expect(moderation.actions().filter((a) => a.targetUserId === last)).toHaveLength(1);
    expect(moderation.actions().filter((a) => a.targetUserId === 1001)).toHaveLength(1);
  });

  it('keeps what each source matched for entries the mod log still holds, and at most as many again', async () => {
    const { clock, moderation, live, recorded } = setUp();
    const most = { 'live-socket': 0, webhook: 0 };
    // 10,000 bans a second apart, each within the rate, and each told again by its webhook.
    for (let i = 1; i <= FRAMES; i += 1) {
      live.onLiveEvent(ban(1000 + i));
      await settle();
      live.onWebhook(webhookBan(1000 + i, clock.now()));
      clock.advance(1_000);
      const { matched } = live.stats();
      most['live-socket'] = Math.max(most['live-socket'], matched['live-socket']);
      most.webhook = Math.max(most.webhook, matched.webhook);
    }
    expect(recorded).toHaveLength(FRAMES);
    expect(moderation.actions()).toHaveLength(DEFAULT_MOD_LOG_SIZE);
    // The most held at any point, not only at the end, where a sweep may just have run.
    expect(most['live-socket']).toBeLessThanOrEqual(2 * DEFAULT_MOD_LOG_SIZE + 1);
    expect(most.webhook).toBeLessThanOrEqual(2 * DEFAULT_MOD_LOG_SIZE + 1);
    expect(live.stats().matched.webhook).toBeGreaterThan(0);
  });

  it("still tells a second ban from the first's copies while its matches are swept", async () => {
    // A mod log of 3 entries, so the matches are swept every few bans.
    const { clock, live, recorded } = setUp(3);
    const banned = (userId: number) => recorded.filter((a) => a.targetUserId === userId && a.kind === 'ban').length;
    for (let i = 1; i <= 40; i += 1) {
      live.onLiveEvent(ban(1000 + i));
      await settle();
      live.onWebhook(webhookBan(1000 + i, clock.now()));
      clock.advance(1_000);
    }
    expect(recorded).toHaveLength(40);
    // Each of the last viewers banned again a moment later: a second entry each, never taken for the first.
    for (const userId of [1038, 1039, 1040]) {
      live.onLiveEvent(ban(userId));
      await settle();
      expect(banned(userId)).toBe(2);
    }
  });
});
