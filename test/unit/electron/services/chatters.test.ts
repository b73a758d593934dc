import { describe, expect, it } from 'vitest';
import { Chatters } from '../../../../electron/services/chatters';

const from = (userId: number | null, username: string, sentAtMs: number) => ({
  sender: { userId, username, color: null, badges: [], isVerified: false },
  sentAtMs,
});

describe('Chatters', () => {
  it("marks only a chatter's first message and counts the rest", () => {
    const chatters = new Chatters();
    expect(chatters.note(from(7, 'noodle', 1000))).toBe(true);
    expect(chatters.note(from(7, 'noodle', 2000))).toBe(false);
    expect(chatters.note(from(8, 'other', 3000))).toBe(true);
    expect(chatters.stats(7)).toEqual({ firstSeenMs: 1000, messageCount: 2 });
    expect(chatters.stats(9)).toBeNull();
  });

  it('keys a chatter without a user id by name, any case', () => {
    const chatters = new Chatters();
    expect(chatters.note(from(null, 'Ghost', 1))).toBe(true);
    expect(chatters.note(from(null, 'ghost', 2))).toBe(false);
  });

  it('keeps the earliest time when a message arrives out of order', () => {
    const chatters = new Chatters();
    chatters.note(from(7, 'noodle', 5000));
    chatters.note(from(7, 'noodle', 4000));
    expect(chatters.stats(7)?.firstSeenMs).toBe(4000);
  });

  it('forgets the least recently active chatter past its bound', () => {
    const chatters = new Chatters(2);
    chatters.note(from(1, 'a', 1));
    chatters.note(from(2, 'b', 2));
    chatters.note(from(1, 'a', 3)); // 1 is now the most recent
    chatters.note(from(3, 'c', 4));
    expect(chatters.stats(2)).toBeNull();
    expect(chatters.stats(1)?.messageCount).toBe(2);
    // Forgotten, so their next message counts as a first again.
    expect(chatters.note(from(2, 'b', 5))).toBe(true);
  });
});
