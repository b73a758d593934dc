/**
 * The frames Kick's socket sends for each event the sandbox's world announces: names, rooms and field
 * shapes as the wire reference gives them, times to the whole second with `+00:00`.
 */
import { describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../../../electron/core/clock';
import {
  chatMessagePayload,
  banPayload,
  giftsPayload,
  kicksPayload,
  subscriptionPayload,
  followPayload,
} from '../../../../sandbox/events/payloads';
import { framesForEvent, hostFrames, socketTime } from '../../../../sandbox/live-socket/frames';
import { broadcasterOfChannelId, channelIdOf, channelName, chatroomIdOf } from '../../../../sandbox/live-socket/ids';
import { SandboxState, type SandboxEvent } from '../../../../sandbox/state';
import { createWorld, FIRST_VIEWER_USER_ID, MODERATOR_USER_ID, STREAMER_USER_ID } from '../../../../sandbox/world';

const T0 = Date.parse('2026-01-02T03:04:05.678Z');

function world(): SandboxState {
  const state = new SandboxState(new AdjustableClock({ now: () => T0 }), { accessSeconds: 3600, codeSeconds: 600 });
  createWorld(state, { assetBaseUrl: 'http://127.0.0.1:1' });
  return state;
}

function event(type: string, payload: unknown, extra: Partial<SandboxEvent> = {}): SandboxEvent {
  return { type, version: 1, broadcasterUserId: STREAMER_USER_ID, payload, ...extra };
}

const VIEWER = FIRST_VIEWER_USER_ID;

describe('live socket ids', () => {
  it('gives a channel and a chatroom id, each unlike the user id, and reads the channel id back', () => {
    expect(channelIdOf(STREAMER_USER_ID)).not.toBe(chatroomIdOf(STREAMER_USER_ID));
    expect(broadcasterOfChannelId(channelIdOf(STREAMER_USER_ID))).toBe(STREAMER_USER_ID);
    expect(broadcasterOfChannelId(STREAMER_USER_ID)).toBeNull();
    expect(broadcasterOfChannelId(Number.MAX_SAFE_INTEGER + 2)).toBeNull();
    expect(channelName('chatrooms.v2', STREAMER_USER_ID)).toBe(`chatrooms.${chatroomIdOf(STREAMER_USER_ID)}.v2`);
    expect(channelName('chatroom_', STREAMER_USER_ID)).toBe(`chatroom_${chatroomIdOf(STREAMER_USER_ID)}`);
    expect(channelName('channel.', STREAMER_USER_ID)).toBe(`channel.${channelIdOf(STREAMER_USER_ID)}`);
    expect(channelName('channel_', STREAMER_USER_ID)).toBe(`channel_${channelIdOf(STREAMER_USER_ID)}`);
  });

  it('writes times to the whole second with +00:00', () => {
    expect(socketTime(T0)).toBe('2026-01-02T03:04:05+00:00');
  });
});

describe('framesForEvent', () => {
  it('turns a chat line into ChatMessageEvent with the webhook id, and a reply into type reply', () => {
    const state = world();
    const base = {
      broadcasterUserId: STREAMER_USER_ID,
      senderUserId: VIEWER,
      type: 'viewer' as const,
      createdAtMs: T0,
      deleted: false,
    };
    const parent = { ...base, messageId: 'p-1', content: 'question?', replyToMessageId: null };
    state.chatMessages.set('p-1', parent);
    const reply = { ...base, messageId: 'r-1', content: 'hi [emote:37232:PeepoClap]', replyToMessageId: 'p-1' };
    state.chatMessages.set('r-1', reply);
    const [frame, ...rest] = framesForEvent(state, event('chat.message.sent', chatMessagePayload(state, reply)));
    expect(rest).toEqual([]);
    expect(frame).toMatchObject({ room: 'chatrooms.v2', event: 'App\\Events\\ChatMessageEvent' });
    expect(frame!.data).toMatchObject({
      id: 'r-1',
      chatroom_id: chatroomIdOf(STREAMER_USER_ID),
      content: 'hi [emote:37232:PeepoClap]',
      type: 'reply',
      created_at: '2026-01-02T03:04:05+00:00',
      sender: {
        id: VIEWER,
        username: 'pixelpanda',
        slug: 'pixelpanda',
        identity: { color: expect.stringMatching(/^#/) },
      },
      metadata: { original_message: { id: 'p-1', content: 'question?' }, original_sender: { id: VIEWER } },
      thread_parent_id: '',
    });
    const [plain] = framesForEvent(state, event('chat.message.sent', chatMessagePayload(state, parent)));
    expect(plain!.data).toMatchObject({ type: 'message', metadata: { message_ref: String(T0) } });
  });

  it('merges unknown fields into data and the envelope when asked', () => {
    const state = world();
    const message = {
      messageId: 'm',
      broadcasterUserId: STREAMER_USER_ID,
      senderUserId: VIEWER,
      content: 'x',
      type: 'viewer' as const,
      replyToMessageId: null,
      createdAtMs: T0,
      deleted: false,
    };
    const [frame] = framesForEvent(
      state,
      event('chat.message.sent', chatMessagePayload(state, message), {
        liveExtras: { envelope: { a: 1 }, data: { b: 2 } },
      }),
    );
    expect(frame!.extraEnvelope).toEqual({ a: 1 });
    expect(frame!.data).toMatchObject({ id: 'm', b: 2 });
  });

  it('turns a timeout into UserBannedEvent with duration in minutes, a ban without', () => {
    const state = world();
    const ban = {
      broadcasterUserId: STREAMER_USER_ID,
      userId: VIEWER,
      moderatorUserId: MODERATOR_USER_ID,
      reason: '',
      createdAtMs: T0,
    };
    const [timeout] = framesForEvent(
      state,
      event('moderation.banned', banPayload(state, { ...ban, expiresAtMs: T0 + 600_000 })),
    );
    expect(timeout!.data).toMatchObject({
      user: { id: VIEWER },
      banned_by: { id: MODERATOR_USER_ID },
      permanent: false,
      duration: 10,
    });
    const [permanent] = framesForEvent(
      state,
      event('moderation.banned', banPayload(state, { ...ban, expiresAtMs: null })),
    );
    expect(permanent!.data).toMatchObject({ permanent: true });
    expect(permanent!.data).not.toHaveProperty('duration');
  });

  it('puts subs, gifts and KICKs on their rooms, and says nothing for a follow', () => {
    const state = world();
    const [sub] = framesForEvent(
      state,
      event('channel.subscription.new', subscriptionPayload(state, STREAMER_USER_ID, VIEWER, 3)),
    );
    expect(sub).toMatchObject({
      room: 'chatrooms.v2',
      event: 'App\\Events\\SubscriptionEvent',
      data: { username: 'pixelpanda', months: 3 },
    });
    const [gifts] = framesForEvent(
      state,
      event('channel.subscription.gifts', giftsPayload(state, STREAMER_USER_ID, VIEWER, [VIEWER + 1, VIEWER + 2])),
    );
    expect(gifts).toMatchObject({
      room: 'chatroom_',
      event: 'GiftedSubscriptionsEvent',
      data: { gifter_username: 'pixelpanda', gifted_usernames: ['nightowl_tv', 'kappa_krusader'] },
    });
    const gift = { name: 'Rage Quit', type: 'BASIC', tier: 'BASIC', amount: 100 };
    const [kicks] = framesForEvent(
      state,
      event('kicks.gifted', kicksPayload(state, STREAMER_USER_ID, VIEWER, gift, 'gg')),
    );
    expect(kicks).toMatchObject({
      room: 'channel_',
      event: 'KicksGifted',
      data: { message: 'gg', sender: { id: VIEWER }, gift: { gift_id: 'rage_quit', amount: 100 } },
    });
    expect(framesForEvent(state, event('channel.followed', followPayload(state, STREAMER_USER_ID, VIEWER)))).toEqual(
      [],
    );
  });

  it('sends a host as StreamHostEvent and its twin StreamHostedEvent', () => {
    const [host, hosted] = hostFrames(
      STREAMER_USER_ID,
      { userId: 7, username: 'raider', viewers: 42, message: null },
      T0,
    );
    expect(host).toMatchObject({
      event: 'App\\Events\\StreamHostEvent',
      data: { host_username: 'raider', number_viewers: 42, optional_message: '' },
    });
    expect(hosted).toMatchObject({
      event: 'App\\Events\\StreamHostedEvent',
      data: {
        message: { numberOfViewers: 42, optionalMessage: null, createdAt: '2026-01-02T03:04:05+00:00' },
        user: { id: 7 },
      },
    });
  });
});
