import { describe, expect, it } from 'vitest';
import { liveEventName, parseLiveFrame } from '../../../../shared/kick/live-frames';
import { CHAT_MESSAGE, CHATROOM, objectFrame, PAYLOADS, TYPES, wireFrame, withExtras } from './live-frames-fixtures';

describe('parseLiveFrame: every event shape of the wire reference', () => {
  for (const [name, payload] of Object.entries(PAYLOADS)) {
    it(`reads ${liveEventName(name)} with data as a string, as an object, and with unknown fields`, () => {
      for (const frame of [
        wireFrame(name, payload),
        objectFrame(name, payload),
        wireFrame(name, withExtras(payload)),
        objectFrame(name, withExtras(payload)),
      ]) {
        const parsed = parseLiveFrame(frame);
        expect(parsed.kind, JSON.stringify(parsed)).toBe('event');
        if (parsed.kind === 'event') {
          expect(parsed.event.type).toBe(TYPES[name]);
          expect(parsed.event.channel).toBe(CHATROOM);
        }
      }
    });
  }

  it('keeps the chat fields the merge needs, reply included', () => {
    const parsed = parseLiveFrame(wireFrame('App\\Events\\ChatMessageEvent', CHAT_MESSAGE));
    expect(parsed).toEqual({
      kind: 'event',
      event: {
        type: 'chat.message',
        channel: CHATROOM,
        messageId: CHAT_MESSAGE.id,
        chatroomId: 4242,
        content: 'hi [emote:37232:PeepoClap]',
        messageType: 'reply',
        sender: {
          id: 777,
          username: 'Viewer_1',
          slug: 'viewer-1',
          color: '#75FD46',
          badges: [{ type: 'subscriber', text: 'Subscriber', count: 6 }],
        },
        replyTo: {
          messageId: '9f9f0000-0000-4000-8000-000000000001',
          content: 'question?',
          sender: { id: 888, username: 'OtherUser' },
        },
        createdAt: '2026-01-02T03:04:05+00:00',
      },
    });
  });

  it('tolerates every optional field missing from a chat message', () => {
    const bare = { id: 'm1', content: 'hey', sender: { id: '12', username: 'x' } };
    const parsed = parseLiveFrame(wireFrame('App\\Events\\ChatMessageEvent', bare));
    expect(parsed.kind === 'event' && parsed.event).toMatchObject({
      messageId: 'm1',
      messageType: 'message',
      chatroomId: null,
      createdAt: null,
      replyTo: null,
      sender: { id: 12, slug: null, color: null, badges: [] },
    });
  });

  it('builds no reply when only one half of it is there, and drops a bad badge alone', () => {
    const half = {
      ...CHAT_MESSAGE,
      metadata: { original_message: { id: 'q', content: '?' } },
      sender: {
        ...CHAT_MESSAGE.sender,
        identity: { color: 7, badges: [{ text: 'no type' }, { type: 'vip', text: 'VIP' }] },
      },
    };
    const parsed = parseLiveFrame(objectFrame('App\\Events\\ChatMessageEvent', half));
    expect(parsed.kind === 'event' && parsed.event).toMatchObject({
      replyTo: null,
      sender: { color: null, badges: [{ type: 'vip', text: 'VIP', count: null }] },
    });
  });

  it('reads a ban with a duration as a timeout and one without as permanent', () => {
    const timeout = parseLiveFrame(wireFrame('App\\Events\\UserBannedEvent', PAYLOADS['App\\Events\\UserBannedEvent']));
    expect(timeout.kind === 'event' && timeout.event).toMatchObject({ permanent: false, durationMinutes: 10 });
    const ban = parseLiveFrame(
      wireFrame('App\\Events\\UserBannedEvent', { user: { id: 1, username: 'a', slug: 'a' }, banned_by: { id: 0 } }),
    );
    expect(ban.kind === 'event' && ban.event).toMatchObject({ permanent: true, durationMinutes: null, bannedBy: null });
  });

  it('reads both host events, v1 and v2, with viewers', () => {
    const v2 = parseLiveFrame(wireFrame('App\\Events\\StreamHostEvent', PAYLOADS['App\\Events\\StreamHostEvent']));
    const v1 = parseLiveFrame(wireFrame('App\\Events\\StreamHostedEvent', PAYLOADS['App\\Events\\StreamHostedEvent']));
    expect(v2.kind === 'event' && v2.event).toMatchObject({
      version: 'v2',
      hostUsername: 'Raider',
      viewers: 42,
      message: 'hi all',
    });
    expect(v1.kind === 'event' && v1.event).toMatchObject({ version: 'v1', hostId: 'h1', viewers: 42, message: null });
  });

  it('reads the pin duration given as a string of seconds', () => {
    const pin = parseLiveFrame(
      wireFrame('App\\Events\\PinnedMessageCreatedEvent', PAYLOADS['App\\Events\\PinnedMessageCreatedEvent']),
    );
    expect(pin.kind === 'event' && pin.event).toMatchObject({
      durationSeconds: 1200,
      message: { messageId: CHAT_MESSAGE.id },
    });
  });

  it('reads `"[]"` and an empty data string as no payload', () => {
    expect(parseLiveFrame('{"event":"App\\\\Events\\\\PinnedMessageDeletedEvent","data":"[]","channel":"c"}')).toEqual({
      kind: 'event',
      event: { type: 'pin.deleted', channel: 'c' },
    });
    expect(parseLiveFrame({ event: 'App\\Events\\ChatroomClearEvent', data: '' }).kind).toBe('event');
  });

  it('matches names with or without the App\\Events\\ prefix', () => {
    for (const name of ['App\\Events\\GiftedSubscriptionsEvent', 'GiftedSubscriptionsEvent']) {
      expect(parseLiveFrame(wireFrame(name, PAYLOADS.GiftedSubscriptionsEvent)).kind).toBe('event');
    }
  });

  it('takes the channel from the transport when the envelope has none (a Centrifugo publication)', () => {
    const parsed = parseLiveFrame(
      { event: 'App\\Events\\SubscriptionEvent', data: { username: 'a' } },
      'chatrooms.1.v2',
    );
    expect(parsed.kind === 'event' && parsed.event).toEqual({
      type: 'subscription',
      channel: 'chatrooms.1.v2',
      username: 'a',
      months: null,
    });
  });
});

describe('parseLiveFrame: protocol frames', () => {
  it('reads the handshake, whose data is a string inside the JSON', () => {
    const frame =
      '{"event":"pusher:connection_established","data":"{\\"socket_id\\":\\"1234.5678\\",\\"activity_timeout\\":120}"}';
    expect(parseLiveFrame(frame)).toEqual({ kind: 'connected', socketId: '1234.5678', activityTimeoutSeconds: 120 });
    expect(parseLiveFrame({ event: 'pusher:connection_established', data: { socket_id: '1.2' } })).toEqual({
      kind: 'connected',
      socketId: '1.2',
      activityTimeoutSeconds: null,
    });
  });

  it('reads subscription success under both names, ping, pong and subscription errors', () => {
    expect(
      parseLiveFrame(`{"event":"pusher_internal:subscription_succeeded","channel":"${CHATROOM}","data":"{}"}`),
    ).toEqual({
      kind: 'subscribed',
      channel: CHATROOM,
    });
    expect(parseLiveFrame({ event: 'pusher:subscription_succeeded', channel: 'x' }).kind).toBe('subscribed');
    expect(parseLiveFrame({ event: 'pusher:subscription_error', channel: 'x', data: {} }).kind).toBe(
      'subscription-error',
    );
    expect(parseLiveFrame('{"event":"pusher:ping","data":{}}')).toEqual({ kind: 'ping' });
    expect(parseLiveFrame('{"event":"pusher:pong","data":"{}"}')).toEqual({ kind: 'pong' });
  });

  it('reads pusher:error with data as an object or a string', () => {
    const expected = { kind: 'error', code: 4201, message: 'Pong reply not received' };
    expect(parseLiveFrame({ event: 'pusher:error', data: { code: 4201, message: 'Pong reply not received' } })).toEqual(
      expected,
    );
    expect(
      parseLiveFrame(
        JSON.stringify({
          event: 'pusher:error',
          data: JSON.stringify({ code: 4201, message: 'Pong reply not received' }),
        }),
      ),
    ).toEqual(expected);
    expect(parseLiveFrame({ event: 'pusher:error', data: { message: 7 } })).toEqual({
      kind: 'error',
      code: null,
      message: '',
    });
  });
});

describe('parseLiveFrame: surprises are values, never throws', () => {
  it('calls an unknown event unknown and a known unused one ignored', () => {
    expect(parseLiveFrame(wireFrame('App\\Events\\BrandNewEvent', { a: 1 }))).toEqual({
      kind: 'unknown',
      name: 'BrandNewEvent',
    });
    expect(parseLiveFrame(wireFrame('KicksLeaderboardUpdated', { gifts_week: [] }))).toEqual({
      kind: 'ignored',
      name: 'KicksLeaderboardUpdated',
    });
    expect(parseLiveFrame({ event: 'pusher_internal:member_added', data: {} }).kind).toBe('ignored');
  });

  const malformed: [string, unknown][] = [
    ['not JSON', '{"event":'],
    ['a number', 42],
    ['null', null],
    ['an array', '[1,2]'],
    ['no event name', '{"data":"{}"}'],
    ['an empty event name', { event: '', data: {} }],
    ['data that is not JSON', '{"event":"App\\\\Events\\\\ChatMessageEvent","data":"{oops"}'],
    ['a chat message without an id', wireFrame('App\\Events\\ChatMessageEvent', { ...CHAT_MESSAGE, id: undefined })],
    [
      'a chat message whose content is a number',
      objectFrame('App\\Events\\ChatMessageEvent', { ...CHAT_MESSAGE, content: 5 }),
    ],
    ['a chat message given as `[]`', wireFrame('App\\Events\\ChatMessageEvent', [])],
    ['a chat message as a bare string', { event: 'App\\Events\\ChatMessageEvent', data: '"hello"' }],
    ['a deletion without message.id', objectFrame('App\\Events\\MessageDeletedEvent', { message: {} })],
    ['a ban without a user', objectFrame('App\\Events\\UserBannedEvent', { permanent: true })],
    ['a handshake without socket_id', { event: 'pusher:connection_established', data: '{}' }],
    [
      'a KICKs gift with a text amount',
      objectFrame('KicksGifted', { sender: { id: 1, username: 'a' }, gift: { gift_id: 'x', amount: 'lots' } }),
    ],
    [
      'a sender id that is not a number',
      objectFrame('App\\Events\\ChatMessageEvent', { ...CHAT_MESSAGE, sender: { id: 'abc', username: 'x' } }),
    ],
  ];
  for (const [what, frame] of malformed) {
    it(`calls ${what} malformed`, () => {
      expect(() => parseLiveFrame(frame)).not.toThrow();
      expect(parseLiveFrame(frame).kind).toBe('malformed');
    });
  }

  it('names the field a malformed event lacks', () => {
    const parsed = parseLiveFrame(objectFrame('App\\Events\\MessageDeletedEvent', { message: {} }));
    expect(parsed).toMatchObject({
      kind: 'malformed',
      name: 'MessageDeletedEvent',
      reason: expect.stringContaining('message.id'),
    });
  });
});
