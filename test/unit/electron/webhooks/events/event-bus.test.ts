import { describe, expect, expectTypeOf, it } from 'vitest';
import { createEventBus } from '../../../../../electron/webhooks/events/event-bus';
import type { KickEventOf, UnknownKickEvent } from '../../../../../electron/webhooks/events/event-bus';
import type { ChannelFollowedPayload } from '../../../../../shared/kick/events';
import type { KickEvent } from '../../../../../electron/webhooks/events/types';

const user = {
  is_anonymous: false,
  user_id: 1,
  username: 'viewer',
  is_verified: false,
  profile_picture: null,
  channel_slug: 'viewer',
};

function followed(messageId = 'msg-1'): KickEventOf<'channel.followed'> {
  return {
    kind: 'known',
    type: 'channel.followed',
    version: 1,
    messageId,
    subscriptionId: 'sub-1',
    timestamp: '2025-04-01T07:56:19Z',
    receivedAtMs: 0,
    payload: { broadcaster: user, follower: user },
  };
}

function chat(content: string): KickEventOf<'chat.message.sent'> {
  return {
    kind: 'known',
    type: 'chat.message.sent',
    version: 1,
    messageId: 'msg-chat',
    subscriptionId: 'sub-1',
    timestamp: '2025-04-01T07:56:19Z',
    receivedAtMs: 0,
    payload: { message_id: 'm', broadcaster: user, sender: user, content, emotes: null },
  };
}

const unknownEvent: UnknownKickEvent = {
  kind: 'unknown',
  type: 'channel.raided',
  version: '1',
  messageId: 'msg-u',
  subscriptionId: 'sub-1',
  timestamp: '2025-04-01T07:56:19Z',
  receivedAtMs: 0,
  payload: {},
  reason: 'unknown type',
};

/** A promise and its resolver, so a test decides when a slow listener finishes. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('event bus', () => {
  it('delivers a known event to its type listeners and onAny, with the payload typed', () => {
    const bus = createEventBus({ log: () => undefined });
    const seen: string[] = [];
    bus.on('channel.followed', (e) => {
      expectTypeOf(e.payload).toEqualTypeOf<ChannelFollowedPayload>();
      seen.push(`followed:${e.payload.follower.username}`);
    });
    bus.on('chat.message.sent', (e) => void seen.push(`chat:${e.payload.content}`));
    bus.onAny((e) => void seen.push(`any:${e.type}`));
    bus.onUnknown(() => void seen.push('unknown'));

    bus.publish(followed());
    bus.publish(chat('hi'));
    expect(seen).toEqual(['followed:viewer', 'any:channel.followed', 'chat:hi', 'any:chat.message.sent']);
  });

  it('delivers an unknown event to onUnknown and onAny only', () => {
    const bus = createEventBus({ log: () => undefined });
    const seen: string[] = [];
    bus.on('channel.followed', () => void seen.push('followed'));
    bus.onUnknown((e) => void seen.push(`unknown:${e.type}:${e.reason}`));
    bus.onAny((e: KickEvent) => void seen.push(`any:${e.kind}`));
    bus.publish(unknownEvent);
    expect(seen).toEqual(['unknown:channel.raided:unknown type', 'any:unknown']);
  });

  it('keeps going past a listener that throws, logs it, and never throws from publish', () => {
    const logs: string[] = [];
    const bus = createEventBus({ log: (line) => logs.push(line) });
    const seen: string[] = [];
    bus.on('channel.followed', () => void seen.push('first'));
    bus.on('channel.followed', () => {
      throw new Error('boom');
    });
    bus.on('channel.followed', () => void seen.push('third'));
    bus.onAny(() => void seen.push('any'));

    expect(() => bus.publish(followed('msg-9'))).not.toThrow();
    expect(seen).toEqual(['first', 'third', 'any']);
    expect(logs).toEqual([
      expect.stringMatching(/'channel\.followed' listener failed on channel\.followed msg-9: Error: boom/),
    ]);
  });

  it('survives a throwing logger', () => {
    const bus = createEventBus({
      log: () => {
        throw new Error('logger down');
      },
    });
    const seen: string[] = [];
    bus.onAny(() => {
      throw new Error('boom');
    });
    bus.onAny(() => void seen.push('second'));
    expect(() => bus.publish(followed())).not.toThrow();
    expect(seen).toEqual(['second']);
  });

  it('logs a rejecting async listener without affecting the others', async () => {
    const logs: string[] = [];
    const bus = createEventBus({ log: (line) => logs.push(line) });
    const seen: string[] = [];
    bus.on('channel.followed', () => Promise.reject(new Error('async boom')));
    bus.on('channel.followed', async () => {
      await Promise.resolve();
      seen.push('async ok');
    });
    bus.publish(followed());
    await bus.idle();
    expect(seen).toEqual(['async ok']);
    expect(logs).toEqual([expect.stringContaining('async boom')]);
  });

  it('does not let a slow async listener delay the others or the publisher', async () => {
    const bus = createEventBus({ log: () => undefined });
    const slow = deferred();
    const seen: string[] = [];
    bus.on('chat.message.sent', async (e) => {
      await slow.promise;
      seen.push(`slow:${e.payload.content}`);
    });
    bus.on('chat.message.sent', (e) => void seen.push(`fast:${e.payload.content}`));

    bus.publish(chat('a'));
    bus.publish(chat('b'));
    // Both events reached the fast listener while the slow one is still waiting on its first event.
    expect(seen).toEqual(['fast:a', 'fast:b']);

    let idle = false;
    const done = bus.idle().then(() => (idle = true));
    await Promise.resolve();
    expect(idle).toBe(false);
    slow.resolve();
    await done;
    expect(seen).toEqual(['fast:a', 'fast:b', 'slow:a', 'slow:b']);
  });

  it('unsubscribes one registration at a time and counts listeners by group', () => {
    const bus = createEventBus({ log: () => undefined });
    let calls = 0;
    const listener = (): void => void calls++;
    const offA = bus.on('channel.followed', listener);
    const offB = bus.on('channel.followed', listener);
    const offAny = bus.onAny(listener);
    const offUnknown = bus.onUnknown(listener);
    expect(bus.listenerCount('channel.followed')).toBe(2);
    expect(bus.listenerCount('any')).toBe(1);
    expect(bus.listenerCount('unknown')).toBe(1);
    expect(bus.listenerCount('chat.message.sent')).toBe(0);
    expect(bus.listenerCount()).toBe(4);

    bus.publish(followed());
    expect(calls).toBe(3);
    offA();
    offA();
    expect(bus.listenerCount('channel.followed')).toBe(1);
    bus.publish(followed());
    expect(calls).toBe(5);
    offB();
    offAny();
    offUnknown();
    bus.publish(followed());
    bus.publish(unknownEvent);
    expect(calls).toBe(5);
    expect(bus.listenerCount()).toBe(0);
  });

  it('applies (un)subscriptions made during delivery from the next event on', () => {
    const bus = createEventBus({ log: () => undefined });
    const seen: string[] = [];
    const offLate = { fn: (): void => undefined };
    bus.on('channel.followed', () => {
      seen.push('first');
      offLate.fn();
      bus.onAny(() => void seen.push('added'));
    });
    offLate.fn = bus.on('channel.followed', () => void seen.push('second'));
    bus.publish(followed());
    expect(seen).toEqual(['first', 'second']);
  });
});
