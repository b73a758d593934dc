/**
 * Event triggers through the admin API (`POST /trigger/:event_type`): each of the ten events is emitted
 * with a payload carrying the reference's fields ([§5.7–5.8](../../../docs/kick-wire-reference.md#57-shared-user-objects-in-payloads)), the state changes as Kick's would (visible
 * through the public API or the admin views), overrides steer and patch the payload, and delivery faults
 * reach `event.delivery` and the receiver.
 *
 * This file: “each event type”.
 */
import { describe, expect, it } from 'vitest';
import type { KickLeaderboard, KickRedemptionGroup, KickReward } from '../../../shared/kick/resources';
import { FIRST_VIEWER_USER_ID, MODERATOR_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { call, callAdmin, mintUserToken, startSandbox } from '../../helpers/sandbox';
import {
  COMPACT_USER_KEYS,
  RFC3339,
  ULID,
  UUID,
  api,
  expectEventUser,
  fire,
  fx,
  keys,
  streamerChannel,
  trigger,
  useSetup,
} from './triggers-fixtures';

useSetup();

describe('each event type', () => {
  it('chat.message.sent stores a viewer message and emits it', async () => {
    const events = await trigger('chat.message.sent');
    const payload = events[0]!.payload;
    expect(events[0]).toMatchObject({
      type: 'chat.message.sent',
      version: 1,
      broadcaster_user_id: STREAMER_USER_ID,
      delivery: null,
    });
    expect(payload.message_id).toMatch(UUID);
    expectEventUser(payload.broadcaster);
    expectEventUser(payload.sender, true);
    expect(payload.sender.user_id).toBeGreaterThanOrEqual(FIRST_VIEWER_USER_ID);
    expect(typeof payload.content).toBe('string');
    expect(payload.created_at).toMatch(RFC3339);
    expect(fx.emitted).toHaveLength(1);
    expect(fx.emitted[0]!.payload).toEqual(payload);

    const chat = await callAdmin(fx.sandbox, 'GET', `/channels/${STREAMER_USER_ID}/chat`);
    expect(chat.json.messages).toEqual([
      expect.objectContaining({
        message_id: payload.message_id,
        sender_user_id: payload.sender.user_id,
        content: payload.content,
        deleted: false,
      }),
    ]);
    // Stored for real: the moderation API can delete it.
    const del = await call(fx.sandbox.urls.api, 'DELETE', `/public/v1/chat/${payload.message_id}`, { token: fx.token });
    expect(del.status).toBe(204);
  });

  it('chat.message.sent honours content and reply overrides, with emote positions', async () => {
    const first = await fire('chat.message.sent', { overrides: { content: 'first!' } });
    const reply = await fire('chat.message.sent', {
      overrides: {
        content: 'hi [emote:37226:KEKW]',
        'replies_to.message_id': first.message_id,
        'sender.user_id': FIRST_VIEWER_USER_ID + 4,
      },
    });
    expect(reply.content).toBe('hi [emote:37226:KEKW]');
    expect(reply.emotes).toEqual([{ emote_id: '37226', positions: [{ s: 3, e: 20 }] }]);
    expect(reply.sender.user_id).toBe(FIRST_VIEWER_USER_ID + 4);
    expect(reply.replies_to).toMatchObject({
      message_id: first.message_id,
      content: 'first!',
      sender: { user_id: first.sender.user_id },
    });
    const chat = await callAdmin(fx.sandbox, 'GET', `/channels/${STREAMER_USER_ID}/chat`);
    expect(chat.json.messages[1]).toMatchObject({ message_id: reply.message_id, reply_to: first.message_id });
  });

  it('chat.message.sent bursts come from several viewers and some carry emotes', async () => {
    const events = await trigger('chat.message.sent', { count: 100 });
    expect(events).toHaveLength(100);
    expect(new Set(events.map((e) => e.payload.sender.user_id)).size).toBeGreaterThan(5);
    expect(events.some((e) => Array.isArray(e.payload.emotes))).toBe(true);
    expect(events.some((e) => e.payload.replies_to)).toBe(true);
  });

  it('channel.followed adds a new follower', async () => {
    const payload = await fire('channel.followed');
    expect(Object.keys(payload).sort()).toEqual(['broadcaster', 'follower']);
    expectEventUser(payload.follower);
    expect(fx.sandbox.ctx.state.follows.has(`${STREAMER_USER_ID}:${payload.follower.user_id}`)).toBe(true);
  });

  it('channel.subscription.new and renewal bump the subscriber count', async () => {
    const before = (await streamerChannel()).active_subscribers_count;
    const created = await fire('channel.subscription.new');
    expect(created).toMatchObject({
      duration: 1,
      created_at: expect.stringMatching(RFC3339),
      expires_at: expect.stringMatching(RFC3339),
    });
    expectEventUser(created.subscriber);
    expect(Date.parse(created.expires_at ?? '') - Date.parse(created.created_at)).toBe(30 * 86_400_000);
    // A viewer the world made a subscriber (not the one just created, whose badge is checked below).
    const renewed = (
      await trigger('channel.subscription.renewal', { overrides: { 'subscriber.user_id': FIRST_VIEWER_USER_ID + 3 } })
    )[0]!;
    expect(renewed.type).toBe('channel.subscription.renewal');
    expect(renewed.payload.duration).toBeGreaterThanOrEqual(2);
    expect((await streamerChannel()).active_subscribers_count).toBe(before + 2);
    // The new subscriber now shows a subscriber badge on their chat messages.
    const chat = (
      await trigger('chat.message.sent', { overrides: { 'sender.user_id': created.subscriber.user_id } })
    )[0]!;
    expect(chat.payload.sender.identity?.badges).toContainEqual({ text: 'Subscriber', type: 'subscriber', count: 1 });
  });

  it('channel.subscription.gifts gives subs to viewers, from a named or anonymous gifter', async () => {
    const before = (await streamerChannel()).active_subscribers_count;
    const giftees = [FIRST_VIEWER_USER_ID + 1, FIRST_VIEWER_USER_ID + 2, FIRST_VIEWER_USER_ID + 5].map((user_id) => ({
      user_id,
    }));
    const named = await fire('channel.subscription.gifts', {
      overrides: { 'gifter.user_id': FIRST_VIEWER_USER_ID + 9, giftees },
    });
    expect(named.gifter).toMatchObject({ is_anonymous: false, user_id: FIRST_VIEWER_USER_ID + 9 });
    expect(named.giftees.map((g) => g.user_id)).toEqual(giftees.map((g) => g.user_id));
    named.giftees.forEach((g) => expectEventUser(g));
    expect(named.created_at).toMatch(RFC3339);
    const anonymous = await fire('channel.subscription.gifts', { overrides: { 'gifter.is_anonymous': true } });
    expect(anonymous.gifter).toEqual({
      is_anonymous: true,
      user_id: null,
      username: null,
      is_verified: null,
      profile_picture: null,
      channel_slug: null,
      identity: null,
    });
    expect(anonymous.giftees.length).toBeGreaterThan(0);
    expect((await streamerChannel()).active_subscribers_count).toBe(before + 3 + anonymous.giftees.length);
  });

  it('channel.reward.redemption.updated creates a pending redemption on a default reward', async () => {
    const events = await trigger('channel.reward.redemption.updated');
    const payload = events[0]!.payload;
    expect(payload).toMatchObject({
      status: 'pending',
      id: expect.stringMatching(ULID),
      redeemed_at: expect.stringMatching(RFC3339),
    });
    expect(Object.keys(payload.reward).sort()).toEqual(['cost', 'description', 'id', 'title']);
    expect(Object.keys(payload.redeemer).sort()).toEqual([...COMPACT_USER_KEYS].sort());
    expect(Object.keys(payload.broadcaster).sort()).toEqual([...COMPACT_USER_KEYS].sort());

    const rewards = await api<KickReward[]>('/public/v1/channels/rewards');
    expect(rewards).toEqual([expect.objectContaining({ id: payload.reward.id, title: payload.reward.title })]);
    const admin = await callAdmin(fx.sandbox, 'GET', `/channels/${STREAMER_USER_ID}/rewards`);
    expect(admin.json.rewards[0].created_by_client_id).toBe(fx.sandbox.ctx.app.clientId);
    const groups = await api<KickRedemptionGroup[]>('/public/v1/channels/rewards/redemptions');
    expect(groups).toEqual([
      expect.objectContaining({
        reward: expect.objectContaining({ id: payload.reward.id, can_manage: true }),
        redemptions: [
          expect.objectContaining({
            id: payload.id,
            status: 'pending',
            redeemer: { user_id: payload.redeemer.user_id },
          }),
        ],
      }),
    ]);
  });

  it('livestream.status.updated toggles the channel live and offline', async () => {
    expect((await streamerChannel()).stream.is_live).toBe(false);
    const live = (await trigger('livestream.status.updated', { overrides: { title: 'Going live now' } }))[0]!.payload;
    expect(live).toMatchObject({
      is_live: true,
      title: 'Going live now',
      ended_at: null,
      started_at: expect.stringMatching(RFC3339),
    });
    expectEventUser(live.broadcaster);
    const channel = await streamerChannel();
    expect(channel.stream.is_live).toBe(true);
    expect(channel.stream_title).toBe('Going live now');
    const streams = await api<unknown[]>('/public/v1/users/livestreams', [['user_id', STREAMER_USER_ID]]);
    expect(streams).toHaveLength(1);

    const offline = await fire('livestream.status.updated');
    expect(offline).toMatchObject({
      is_live: false,
      started_at: live.started_at,
      ended_at: expect.stringMatching(RFC3339),
    });
    expect((await streamerChannel()).stream.is_live).toBe(false);
    expect(fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)).toMatchObject({
      livestreamId: null,
      hasStreamed: true,
    });
  });

  it('livestream.metadata.updated changes title and category', async () => {
    const before = await streamerChannel();
    const random = await fire('livestream.metadata.updated');
    const after = await streamerChannel();
    expect(after.stream_title !== before.stream_title || after.category.id !== before.category.id).toBe(true);
    expect(random.metadata).toEqual({
      title: after.stream_title,
      language: 'en',
      // A random metadata change sometimes flips the mature flag, as a streamer might.
      has_mature_content: after.stream.is_mature,
      category: after.category,
    });

    const steered = await fire('livestream.metadata.updated', {
      overrides: { 'metadata.title': 'Chess time', 'metadata.category.id': 119 },
    });
    expect(steered.metadata).toMatchObject({ title: 'Chess time', category: { id: 119, name: 'Chess' } });
    expect(await streamerChannel()).toMatchObject({ stream_title: 'Chess time', category: { id: 119, name: 'Chess' } });
  });

  it('moderation.banned stores a ban or a timeout', async () => {
    const ban = await fire('moderation.banned', {
      overrides: { 'metadata.expires_at': null, 'metadata.reason': 'spam' },
    });
    expect(ban.metadata).toEqual({ reason: 'spam', created_at: expect.stringMatching(RFC3339), expires_at: null });
    expect(ban.moderator.user_id).toBe(MODERATOR_USER_ID);
    expectEventUser(ban.banned_user);
    const until = new Date(fx.sandbox.ctx.state.now() + 600_000).toISOString();
    const timeout = (await trigger('moderation.banned', { overrides: { 'metadata.expires_at': until } }))[0]!.payload;
    expect(timeout.metadata.expires_at).toBe(until);
    const bans = (await callAdmin(fx.sandbox, 'GET', `/channels/${STREAMER_USER_ID}/bans`)).json.bans;
    expect(bans).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ user_id: ban.banned_user.user_id, reason: 'spam', expires_at: null }),
        expect.objectContaining({ user_id: timeout.banned_user.user_id, expires_at: until }),
      ]),
    );
    // The banned viewer cannot chat any more.
    const refused = await callAdmin(fx.sandbox, 'POST', `/channels/${STREAMER_USER_ID}/chat`, {
      body: { user_id: ban.banned_user.user_id, content: 'hello?' },
    });
    expect(refused.status).toBe(403);
  });

  it('kicks.gifted records the gift on the leaderboard', async () => {
    const sender = FIRST_VIEWER_USER_ID + 7;
    const payload = await fire('kicks.gifted', {
      overrides: { 'sender.user_id': sender, 'gift.amount': 5000, 'gift.message': 'big one' },
    });
    expect(payload).toMatchObject({
      gift: {
        amount: 5000,
        message: 'big one',
        name: expect.any(String),
        type: expect.any(String),
        tier: expect.any(String),
        pinned_time_seconds: expect.any(Number),
      },
      created_at: expect.stringMatching(RFC3339),
    });
    expect(Object.keys(payload.sender).sort()).toEqual([...COMPACT_USER_KEYS].sort());
    await trigger('kicks.gifted', { count: 3 });
    const board = await api<KickLeaderboard>('/public/v1/kicks/leaderboard');
    // The random gifts may come from the same viewer; whatever they gave adds to the 5000.
    const total = fx.sandbox.ctx.state.kicksGifts
      .filter((g) => g.senderUserId === sender)
      .reduce((n, g) => n + g.amount, 0);
    expect(total).toBeGreaterThanOrEqual(5000);
    expect(board.lifetime[0]).toMatchObject({ user_id: sender, gifted_amount: total, rank: 1 });
    expect(fx.sandbox.ctx.state.kicksGifts).toHaveLength(4);
  });

  it.each([
    ['kicks.gifted', { 'sender.user_id': FIRST_VIEWER_USER_ID + 7, 'gift.amount': 1, 'gift.message': 'gg' }],
    ['channel.subscription.new', { 'subscriber.user_id': FIRST_VIEWER_USER_ID + 3, duration: 1 }],
    ['channel.subscription.renewal', { 'subscriber.user_id': FIRST_VIEWER_USER_ID + 3, duration: 6 }],
    [
      'channel.subscription.gifts',
      { 'gifter.user_id': FIRST_VIEWER_USER_ID + 2, giftees: [{ user_id: FIRST_VIEWER_USER_ID + 5 }] },
    ],
  ] as const)('%s: a burst of the same thing is three bodies, each in its own millisecond', async (type, overrides) => {
    // A clock that stands still makes the whole burst in one millisecond. Kick never sends two such bodies alike,
    // and a client dropping a body it saw seconds ago (Kick's duplicate deliveries) would lose all but one.
    await fx.sandbox.close();
    const at = Date.parse('2026-11-28T10:00:00.000Z');
    fx.sandbox = await startSandbox({ keys, delivery: { tickMs: 0 }, clock: { now: () => at } });
    fx.token = mintUserToken(fx.sandbox);
    const bodies = (await trigger(type, { count: 3, overrides })).map((e) => JSON.stringify(e.payload));
    expect(new Set(bodies).size).toBe(3);
    const times = bodies.map((b) => Date.parse((JSON.parse(b) as { created_at: string }).created_at) - at);
    expect(times).toEqual([0, 1, 2]);
  });

  it('kicks.gifted: a burst timed ahead of a stopped clock still counts whole on the leaderboard', async () => {
    await fx.sandbox.close();
    const at = Date.parse('2026-11-28T10:00:00.000Z');
    fx.sandbox = await startSandbox({ keys, delivery: { tickMs: 0 }, clock: { now: () => at } });
    fx.token = mintUserToken(fx.sandbox);
    const sender = FIRST_VIEWER_USER_ID + 7;
    await trigger('kicks.gifted', { count: 3, overrides: { 'sender.user_id': sender, 'gift.amount': 100 } });
    const board = await api<KickLeaderboard>('/public/v1/kicks/leaderboard');
    expect(board.lifetime[0]).toMatchObject({ user_id: sender, gifted_amount: 300 });
  });
});
