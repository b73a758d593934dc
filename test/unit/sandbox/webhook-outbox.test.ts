import { describe, expect, it } from 'vitest';
import { MAX_INJECTED_DUPLICATES, normalizeFaults } from '../../../sandbox/webhooks/fan-out';
import { type NewOutboxMessage, Outbox } from '../../../sandbox/webhooks/outbox';

function message(messageId: string, dueAtMs: number): NewOutboxMessage {
  return {
    messageId,
    subscriptionId: 'sub',
    clientId: 'app',
    eventType: 'channel.followed',
    eventVersion: 1,
    broadcasterUserId: 1,
    body: Buffer.from('{}'),
    eventAtMs: 0,
    dueAtMs,
    failedAttempts: 0,
  };
}

describe('Outbox', () => {
  it('hands out due messages by due time, then in the order they were queued', () => {
    const outbox = new Outbox();
    outbox.add(message('late', 30));
    outbox.add(message('a', 10));
    outbox.add(message('b', 10));
    outbox.add(message('early', 5));
    expect(outbox.size).toBe(4);
    expect(outbox.hasDue(4)).toBe(false);
    expect(outbox.nextDueAtMs()).toBe(5);
    expect(outbox.takeDue(10).map((m) => m.messageId)).toEqual(['early', 'a', 'b']);
    expect(outbox.size).toBe(1);
    expect(outbox.hasDue(29)).toBe(false);
    expect(outbox.hasDue(30)).toBe(true);
  });

  it('puts a retried message back at its new time, ahead of later-queued equals', () => {
    const outbox = new Outbox();
    const first = outbox.add(message('first', 0));
    outbox.add(message('second', 100));
    outbox.takeDue(0);
    first.dueAtMs = 100;
    outbox.requeue(first);
    expect(outbox.snapshot().map((m) => m.messageId)).toEqual(['first', 'second']);
  });

  it('drops matching messages and reports how many', () => {
    const outbox = new Outbox();
    outbox.add(message('keep', 1));
    outbox.add({ ...message('drop', 2), eventType: 'chat.message.sent' });
    outbox.add({ ...message('drop too', 3), eventType: 'chat.message.sent' });
    expect(outbox.removeWhere((m) => m.eventType === 'chat.message.sent')).toBe(2);
    expect(outbox.snapshot().map((m) => m.messageId)).toEqual(['keep']);
    expect(new Outbox().nextDueAtMs()).toBeNull();
  });
});

describe('normalizeFaults', () => {
  it('means no faults when none are given', () => {
    expect(normalizeFaults(undefined)).toEqual({ duplicates: 0, resendWithNewId: false, delayMs: 0 });
  });

  it('keeps sane values and clamps the rest', () => {
    expect(normalizeFaults({ duplicates: 2, resendWithNewId: true, delaySeconds: 1.5 })).toEqual({
      duplicates: 2,
      resendWithNewId: true,
      delayMs: 1500,
    });
    expect(normalizeFaults({ duplicates: 1e9, delaySeconds: 1e9 })).toEqual({
      duplicates: MAX_INJECTED_DUPLICATES,
      resendWithNewId: false,
      delayMs: 86_400_000,
    });
    expect(normalizeFaults({ duplicates: -3, delaySeconds: Number.NaN })).toEqual({
      duplicates: 0,
      resendWithNewId: false,
      delayMs: 0,
    });
  });
});
