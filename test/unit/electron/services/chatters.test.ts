import { describe, expect, it } from 'vitest';
import { Chatters, FIRST_MESSAGE_AFTER_MS } from '../../../../electron/services/chatters';

const from = (userId: number | null, username: string, sentAtMs: number) => ({
  sender: { userId, username, color: null, badges: [], isVerified: false },
  sentAtMs,
});

/** A week after the first line heard: from here on Greenroom knows the channel's regulars. */
const WEEK = FIRST_MESSAGE_AFTER_MS;

/** Chatters that have heard the channel's chat since time 0. */
function heardForAWeek(max?: number): Chatters {
  const chatters = new Chatters(max);
  chatters.note(from(1000, 'regular', 0));
  return chatters;
}

describe('Chatters', () => {
  it("marks only a chatter's first message and counts the rest", () => {
    const chatters = heardForAWeek();
    expect(chatters.note(from(7, 'noodle', WEEK + 1000))).toBe(true);
    expect(chatters.note(from(7, 'noodle', WEEK + 2000))).toBe(false);
    expect(chatters.note(from(8, 'other', WEEK + 3000))).toBe(true);
    expect(chatters.stats(7)).toEqual({ firstSeenMs: WEEK + 1000, messageCount: 2 });
    expect(chatters.stats(9)).toBeNull();
  });

  it('marks no one until it has heard the chat for a week, then marks only those it never heard', () => {
    const chatters = new Chatters();
    expect(chatters.note(from(1, 'regular', 0))).toBe(false);
    expect(chatters.note(from(2, 'other', WEEK - 1))).toBe(false);
    expect(chatters.note(from(2, 'other', WEEK))).toBe(false);
    expect(chatters.note(from(3, 'newcomer', WEEK))).toBe(true);
    expect(chatters.stats(2)?.messageCount).toBe(2);
  });

  it('reaches back to the earliest line heard, even when it arrives late', () => {
    const chatters = new Chatters();
    expect(chatters.note(from(1, 'a', 2 * WEEK))).toBe(false);
    chatters.note(from(2, 'b', 0));
    expect(chatters.note(from(3, 'c', 2 * WEEK))).toBe(true);
  });

  it('keys a chatter without a user id by name, any case', () => {
    const chatters = heardForAWeek();
    expect(chatters.note(from(null, 'Ghost', WEEK + 1))).toBe(true);
    expect(chatters.note(from(null, 'ghost', WEEK + 2))).toBe(false);
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
    expect(chatters.note(from(2, 'b', WEEK + 5))).toBe(true);
  });
});
