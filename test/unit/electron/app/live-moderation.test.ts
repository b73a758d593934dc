import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../../../shared/kick/live-events';
import type { ModerationBannedPayload } from '../../../../shared/kick/events';
import { AdjustableClock } from '../../../../electron/core/clock';
import { createLiveModeration, fromSocket, SAME_ACTION_WINDOW_MS } from '../../../../electron/app/live-moderation';
import { ChatHistory } from '../../../../electron/services/chat-history';
import { Moderation, type ModerationClient } from '../../../../electron/services/moderation';
import type { KickEvent } from '../../../../electron/webhooks/events/types';

const T0 = Date.parse('2026-03-04T05:06:07Z');
const VIEWER = { id: 42, username: 'noodle_ninja', slug: 'noodle-ninja' };
const MOD = { id: 9, username: 'mod_mia', slug: 'mod-mia' };

/** Kick's answer to Greenroom's own ban, held until the test lets it go. */
function setUp() {
  const clock = new AdjustableClock({ now: () => T0 });
  let answer: (() => void) | null = null;
  const client: ModerationClient = {
    banUser: () => new Promise<void>((resolve) => (answer = resolve)),
    unbanUser: () => Promise.resolve(),
    deleteChatMessage: () => Promise.resolve(),
    fetchUser: () => Promise.resolve(null),
  };
  const moderation = new Moderation({
    client,
    broadcasterUserId: () => Promise.resolve(1),
    chat: new ChatHistory(),
    clock,
    onAction: () => undefined,
    onDeleted: () => undefined,
    log: () => undefined,
  });
  const lines: string[] = [];
  const live = createLiveModeration({ clock, moderation, log: (line) => lines.push(line) });
  return { clock, moderation, live, lines, answer: () => answer!() };
}

function socketBan(over: Partial<Extract<LiveEvent, { type: 'user.banned' }>> = {}): LiveEvent {
  return {
    type: 'user.banned',
    channel: 'chatrooms.7.v2',
    user: VIEWER,
    bannedBy: MOD,
    permanent: true,
    durationMinutes: null,
    expiresAt: null,
    ...over,
  };
}

function webhookBan(createdMs: number, expiresMs: number | null = null, userId = VIEWER.id): KickEvent {
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
    moderator: user(MOD.id, MOD.username),
    banned_user: user(userId, VIEWER.username),
    metadata: {
      reason: 'spam',
      created_at: new Date(createdMs).toISOString(),
      expires_at: expiresMs === null ? null : new Date(expiresMs).toISOString(),
    },
  };
  return {
    kind: 'known',
    type: 'moderation.banned',
    version: 1,
    messageId: `m-${createdMs}`,
    subscriptionId: 's',
    timestamp: new Date(createdMs).toISOString(),
    receivedAtMs: createdMs + 600_000,
    payload,
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('live moderation', () => {
  it("keeps another moderator's ban from the socket at once, and its late webhook adds no second entry", async () => {
    const { clock, moderation, live } = setUp();
    live.onLiveEvent(socketBan());
    expect(moderation.actions()).toMatchObject([
      { kind: 'ban', targetUserId: 42, targetUsername: 'noodle_ninja', atMs: T0, elsewhere: { moderator: 'mod_mia' } },
    ]);
    await settle();
    // Ten minutes later the webhook, stamped with Kick's time of the ban.
    clock.advance(600_000);
    live.onWebhook(webhookBan(T0 - 400));
    expect(moderation.actions()).toHaveLength(1);
  });

  it('reads a timeout and an unban from the socket; an unban has no webhook', async () => {
    const { clock, moderation, live } = setUp();
    live.onLiveEvent(socketBan({ permanent: false, durationMinutes: 10, expiresAt: null }));
    await settle();
    clock.advance(60_000);
    live.onLiveEvent({ type: 'user.unbanned', channel: null, user: VIEWER, unbannedBy: MOD, permanent: false });
    live.onWebhook(webhookBan(T0, T0 + 10 * 60_000));
    expect(moderation.actions().map((a) => [a.kind, a.minutes])).toEqual([
      ['timeout', 10],
      ['unban', undefined],
    ]);
  });

  it("keeps a ban from the webhook alone when the socket missed it; the socket's late copy adds none", async () => {
    const { moderation, live } = setUp();
    live.onWebhook(webhookBan(T0 - 5_000, T0 + 55_000));
    await settle();
    live.onLiveEvent(socketBan({ permanent: false, durationMinutes: 1 }));
    expect(moderation.actions()).toMatchObject([{ kind: 'timeout', minutes: 1, atMs: T0 - 5_000, reason: 'spam' }]);
  });

  it('counts a second ban of the same viewer a moment later as its own entry', async () => {
    const { clock, moderation, live } = setUp();
    live.onLiveEvent(socketBan());
    await settle();
    clock.advance(5_000);
    live.onLiveEvent({ type: 'user.unbanned', channel: null, user: VIEWER, unbannedBy: MOD, permanent: true });
    await settle();
    clock.advance(5_000);
    live.onLiveEvent(socketBan());
    await settle();
    // Both webhooks, late: each is matched with its own ban, the nearest in time.
    live.onWebhook(webhookBan(T0));
    live.onWebhook(webhookBan(T0 + 10_000));
    expect(moderation.actions().map((a) => a.kind)).toEqual(['ban', 'unban', 'ban']);
  });

  it('is not fooled by a ban of another viewer, or one outside the window', async () => {
    const { moderation, live } = setUp();
    live.onLiveEvent(socketBan());
    await settle();
    live.onWebhook(webhookBan(T0, null, 43));
    live.onWebhook(webhookBan(T0 + SAME_ACTION_WINDOW_MS + 1_000));
    expect(moderation.actions().map((a) => a.targetUserId)).toEqual([42, 43, 42]);
  });

  it("takes Kick's word of Greenroom's own ban, before or after Kick answered, for no second entry", async () => {
    const { moderation, live, answer } = setUp();
    const banned = moderation.ban({ userId: VIEWER.id });
    await settle();
    // The socket tells of it before Kick answered Greenroom.
    live.onLiveEvent(socketBan({ bannedBy: { id: 1, username: 'streamer', slug: null } }));
    answer();
    await banned;
    live.onWebhook(webhookBan(T0));
    expect(moderation.actions()).toHaveLength(1);
    expect(moderation.actions()[0]!.elsewhere).toBeUndefined();
  });

  it("keeps another moderator's different action while Greenroom's own is on its way", async () => {
    const { moderation, live, answer } = setUp();
    const banned = moderation.ban({ userId: VIEWER.id });
    await settle();
    // Another moderator lifts an earlier timeout on Kick meanwhile: not a copy of Greenroom's ban.
    live.onLiveEvent({ type: 'user.unbanned', channel: null, user: VIEWER, unbannedBy: MOD, permanent: false });
    answer();
    await banned;
    expect(moderation.actions().map((a) => [a.kind, a.elsewhere?.moderator])).toEqual([
      ['unban', 'mod_mia'],
      ['ban', undefined],
    ]);
  });

  it('refuses a frame naming nobody, and bounds what a hostile frame says', () => {
    const now = T0;
    expect(fromSocket(socketBan({ user: { id: 0, username: '', slug: null } }), now)).toBeNull();
    expect(fromSocket({ type: 'chat.cleared', channel: null }, now)).toBeNull();
    const huge = fromSocket(
      socketBan({
        user: { ...VIEWER, username: 'x'.repeat(10_000) },
        permanent: false,
        durationMinutes: 1e12,
        expiresAt: 'not a time',
      }),
      now,
    );
    expect(huge).toMatchObject({ kind: 'timeout' });
    expect(huge!.minutes).toBeUndefined();
    expect(huge!.username!.length).toBe(100);
    // A length from its end, where the duration is missing.
    const fromEnd = fromSocket(
      socketBan({ permanent: false, expiresAt: new Date(now + 30 * 60_000).toISOString() }),
      now,
    );
    expect(fromEnd!.minutes).toBe(30);
  });
});
