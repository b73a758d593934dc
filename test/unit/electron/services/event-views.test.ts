import { describe, expect, it } from 'vitest';
import {
  banPayload,
  chatMessagePayload,
  followPayload,
  giftsPayload,
  kicksPayload,
  KICK_GIFTS,
  metadataPayload,
  redemptionPayload,
  statusPayload,
  subscriptionPayload,
} from '../../../../sandbox/events/payloads';
import { FIRST_VIEWER_USER_ID, MODERATOR_USER_ID, STREAMER_USER_ID } from '../../../../sandbox/world';
import { toFeedItem, toPanelEvent } from '../../../../electron/services/event-views';
import { parseKickEvent } from '../../../../electron/webhooks/events/parse-event';
import { NIGHTOWL, NOW, PIXELPANDA, event, textOf, world } from './event-views-fixtures';

describe('event views', () => {
  const state = world();

  it('chat.message.sent: emotes, identity colour and badges, reply, created_at', () => {
    state.chatMessages.set('parent-1', {
      messageId: 'parent-1',
      broadcasterUserId: STREAMER_USER_ID,
      senderUserId: NIGHTOWL,
      content: 'first!',
      type: 'viewer',
      replyToMessageId: null,
      createdAtMs: NOW - 60_000,
      deleted: false,
    });
    const payload = chatMessagePayload(state, {
      messageId: 'msg-1',
      broadcasterUserId: STREAMER_USER_ID,
      senderUserId: PIXELPANDA,
      content: 'hi [emote:37226:KEKW]',
      type: 'viewer',
      replyToMessageId: 'parent-1',
      createdAtMs: NOW - 1000,
      deleted: false,
    });
    const view = toPanelEvent(event('chat.message.sent', payload));
    expect(view).toEqual({
      kind: 'chat',
      message: {
        messageId: 'msg-1',
        content: 'hi [emote:37226:KEKW]',
        emotes: [{ emoteId: '37226', positions: [{ s: 3, e: 20 }] }],
        sender: {
          userId: PIXELPANDA,
          username: 'pixelpanda',
          color: '#FF5733',
          badges: [
            { text: 'Subscriber', type: 'subscriber', count: 1 },
            { text: 'Sub Gifter', type: 'sub_gifter', count: 5 },
            { text: 'VIP', type: 'vip' },
          ],
          isVerified: false,
        },
        replyTo: { messageId: 'parent-1', content: 'first!', senderUsername: 'nightowl_tv' },
        sentAtMs: NOW - 1000,
        deleted: false,
      },
    });
  });

  it('chat.message.sent without created_at, identity or emotes falls back to the webhook timestamp', () => {
    const payload = chatMessagePayload(state, {
      messageId: 'msg-2',
      broadcasterUserId: STREAMER_USER_ID,
      senderUserId: NIGHTOWL,
      content: 'plain',
      type: 'viewer',
      replyToMessageId: null,
      createdAtMs: NOW,
      deleted: false,
    });
    delete payload.created_at;
    payload.sender.identity = null;
    const view = toPanelEvent(event('chat.message.sent', payload, '2026-03-01T12:00:07Z'));
    expect(view.kind).toBe('chat');
    if (view.kind === 'chat') {
      expect(view.message.sentAtMs).toBe(Date.parse('2026-03-01T12:00:07Z'));
      expect(view.message.sender).toMatchObject({ color: null, badges: [] });
      expect(view.message.emotes).toEqual([]);
      expect(view.message.replyTo).toBeNull();
    }
  });

  it('channel.followed', () => {
    const item = toFeedItem(event('channel.followed', followPayload(state, STREAMER_USER_ID, PIXELPANDA)));
    expect(item).toMatchObject({
      kind: 'follow',
      text: 'pixelpanda followed',
      userId: PIXELPANDA,
      username: 'pixelpanda',
    });
    expect(item.eventType).toBe('channel.followed');
  });

  it('channel.subscription.new and renewal', () => {
    expect(textOf(event('channel.subscription.new', subscriptionPayload(state, STREAMER_USER_ID, NIGHTOWL, 1)))).toBe(
      'nightowl_tv subscribed',
    );
    const three = toFeedItem(
      event('channel.subscription.new', subscriptionPayload(state, STREAMER_USER_ID, NIGHTOWL, 3)),
    );
    expect(three).toMatchObject({ kind: 'subscription', text: 'nightowl_tv subscribed for 3 months', atMs: NOW });
    const renewal = toFeedItem(
      event('channel.subscription.renewal', subscriptionPayload(state, STREAMER_USER_ID, PIXELPANDA, 5)),
    );
    expect(renewal).toMatchObject({ kind: 'renewal', text: 'pixelpanda renewed their sub (5 months)' });
  });

  it('channel.subscription.gifts: several, one, and from an anonymous gifter', () => {
    const giftees = [1, 2, 3, 4, 5].map((i) => FIRST_VIEWER_USER_ID + 1 + i);
    const many = toFeedItem(
      event('channel.subscription.gifts', giftsPayload(state, STREAMER_USER_ID, PIXELPANDA, giftees)),
    );
    expect(many).toMatchObject({ kind: 'gifted-subs', text: 'pixelpanda gifted 5 subs', userId: PIXELPANDA });
    expect(
      textOf(event('channel.subscription.gifts', giftsPayload(state, STREAMER_USER_ID, PIXELPANDA, [NIGHTOWL]))),
    ).toBe('pixelpanda gifted a sub to nightowl_tv');
    const anonymous = toFeedItem(
      event('channel.subscription.gifts', giftsPayload(state, STREAMER_USER_ID, null, giftees.slice(0, 2))),
    );
    expect(anonymous).toMatchObject({ text: 'An anonymous gifter gifted 2 subs', userId: null, username: null });
  });

  it('kicks.gifted, with and without a message', () => {
    const rageQuit = KICK_GIFTS.find((g) => g.name === 'Rage Quit')!;
    const item = toFeedItem(event('kicks.gifted', kicksPayload(state, STREAMER_USER_ID, PIXELPANDA, rageQuit, 'gg')));
    expect(item).toMatchObject({
      kind: 'kicks',
      text: "pixelpanda sent 100 KICKs (Rage Quit): 'gg'",
      userId: PIXELPANDA,
    });
    const one = KICK_GIFTS.find((g) => g.amount === 1)!;
    expect(textOf(event('kicks.gifted', kicksPayload(state, STREAMER_USER_ID, NIGHTOWL, one, '')))).toBe(
      'nightowl_tv sent 1 KICK (Hell Yeah)',
    );
    const packItUp = KICK_GIFTS.find((g) => g.amount === 1000)!;
    expect(textOf(event('kicks.gifted', kicksPayload(state, STREAMER_USER_ID, NIGHTOWL, packItUp, '')))).toBe(
      'nightowl_tv sent 1,000 KICKs (Pack It Up)',
    );
  });

  it('channel.reward.redemption.updated: one stable entry per redemption, with its status', () => {
    state.rewards.set('01REWARD0000000000000000AA', {
      id: '01REWARD0000000000000000AA',
      broadcasterUserId: STREAMER_USER_ID,
      createdByClientId: 'x',
      title: 'Hydrate',
      description: 'drink water',
      cost: 100,
      backgroundColor: '#00e701',
      isEnabled: true,
      isPaused: false,
      isUserInputRequired: true,
      shouldRedemptionsSkipRequestQueue: false,
      deleted: false,
      createdAtMs: NOW,
    });
    const redemption = {
      id: '01REDEMPTION00000000000000',
      rewardId: '01REWARD0000000000000000AA',
      broadcasterUserId: STREAMER_USER_ID,
      redeemerUserId: NIGHTOWL,
      userInput: 'drink!',
      status: 'pending' as const,
      redeemedAtMs: NOW - 5000,
    };
    const view = toPanelEvent(event('channel.reward.redemption.updated', redemptionPayload(state, redemption)));
    expect(view).toEqual({
      kind: 'redemption',
      item: expect.objectContaining({
        id: 'redemption-01REDEMPTION00000000000000',
        kind: 'redemption',
        text: "nightowl_tv redeemed Hydrate: 'drink!'",
        atMs: NOW - 5000,
        userId: NIGHTOWL,
        redemption: {
          id: redemption.id,
          status: 'pending',
          rewardId: '01REWARD0000000000000000AA',
          rewardTitle: 'Hydrate',
          userInput: 'drink!',
        },
      }),
    });
    const accepted = toFeedItem(
      event(
        'channel.reward.redemption.updated',
        redemptionPayload(state, { ...redemption, status: 'accepted', userInput: '' }),
      ),
    );
    expect(accepted.id).toBe('redemption-01REDEMPTION00000000000000');
    expect(accepted.text).toBe('nightowl_tv redeemed Hydrate');
    expect(accepted.redemption?.status).toBe('accepted');
  });

  it('moderation.banned: a ban and a timeout', () => {
    const base = {
      broadcasterUserId: STREAMER_USER_ID,
      userId: PIXELPANDA,
      moderatorUserId: MODERATOR_USER_ID,
      createdAtMs: NOW,
    };
    const ban = toFeedItem(
      event('moderation.banned', banPayload(state, { ...base, reason: 'spam', expiresAtMs: null })),
    );
    expect(ban).toMatchObject({
      kind: 'ban',
      text: "pixelpanda was banned by sandbox_mod: 'spam'",
      userId: PIXELPANDA,
    });
    const timeout = toFeedItem(
      event('moderation.banned', banPayload(state, { ...base, reason: '', expiresAtMs: NOW + 10 * 60_000 })),
    );
    expect(timeout.text).toBe('pixelpanda was timed out for 10 minutes by sandbox_mod');
    const day = toFeedItem(
      event('moderation.banned', banPayload(state, { ...base, reason: 'cool off', expiresAtMs: NOW + 86_400_000 })),
    );
    expect(day.text).toBe("pixelpanda was timed out for 1 day by sandbox_mod: 'cool off'");
  });

  it('livestream.status.updated: live and offline', () => {
    const channel = { ...state.channels.get(STREAMER_USER_ID)!, isLive: true, startedAtMs: NOW - 1000 };
    const live = toFeedItem(event('livestream.status.updated', statusPayload(state, channel)));
    expect(live).toMatchObject({
      kind: 'live-status',
      text: 'Stream went live: Testing Greenroom in the sandbox',
      userId: null,
    });
    const ended = toFeedItem(
      event('livestream.status.updated', statusPayload(state, { ...channel, isLive: false, endedAtMs: NOW })),
    );
    expect(ended).toMatchObject({ text: 'Stream ended', atMs: NOW });
  });

  it('livestream.metadata.updated', () => {
    const item = toFeedItem(
      event('livestream.metadata.updated', metadataPayload(state, state.channels.get(STREAMER_USER_ID)!)),
    );
    expect(item).toMatchObject({
      kind: 'metadata',
      text: 'Stream info changed: Testing Greenroom in the sandbox · Just Chatting',
    });
  });

  it('an event of an unknown type is kept as an unknown feed entry', () => {
    const unknown = parseKickEvent({
      messageId: 'm-x',
      subscriptionId: 's',
      type: 'channel.raided',
      version: '1',
      timestamp: '2026-03-01T12:00:05Z',
      receivedAtMs: NOW,
      bodyHash: '',
      body: '{}',
    });
    expect(toPanelEvent(unknown)).toEqual({
      kind: 'feed',
      item: expect.objectContaining({
        kind: 'unknown',
        eventType: 'channel.raided',
        text: 'Unrecognised event channel.raided (version 1)',
      }),
    });
  });

  it('keeps summaries on one bounded line', () => {
    const one = KICK_GIFTS[0];
    const item = toFeedItem(
      event(
        'kicks.gifted',
        kicksPayload(state, STREAMER_USER_ID, PIXELPANDA, one, `line one\nline two ${'x'.repeat(400)}`),
      ),
    );
    expect(item.text).not.toMatch(/\n/);
    expect(item.text).toContain('line one line two');
    expect([...item.text].length).toBe(280);
    expect(item.text.endsWith('…')).toBe(true);
  });
});
