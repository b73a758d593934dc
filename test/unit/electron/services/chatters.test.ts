import { describe, expect, it } from 'vitest';
import { Chatters, FIRST_MESSAGE_AFTER_MS } from '../../../../electron/services/chatters';

const from = (userId: number | null, username: string, sentAtMs: number) => ({
  sender: { userId, username, color: null, badges: [], isVerified: false },
  sentAtMs,
});

/** One line received at `receivedAtMs` (when it was sent, by default). */
function hear(chatters: Chatters, userId: number | null, username: string, sentAtMs: number, receivedAtMs = sentAtMs) {
  return chatters.note(from(userId, username, sentAtMs), receivedAtMs);
}

/** A week after the first line heard: from here on Greenroom knows the channel's regulars. */
const WEEK = FIRST_MESSAGE_AFTER_MS;

/** Chatters that have heard the channel's chat since time 0. */
function heardForAWeek(max?: number): Chatters {
  const chatters = new Chatters(max);
  hear(chatters, 1000, 'regular', 0);
  return chatters;
}

describe('Chatters', () => {
  it("marks only a chatter's first message and counts the rest", () => {
    const chatters = heardForAWeek();
    expect(hear(chatters, 7, 'noodle', WEEK + 1000)).toBe(true);
    expect(hear(chatters, 7, 'noodle', WEEK + 2000)).toBe(false);
    expect(hear(chatters, 8, 'other', WEEK + 3000)).toBe(true);
    expect(chatters.stats(7)).toEqual({ firstSeenMs: WEEK + 1000, messageCount: 2 });
    expect(chatters.stats(9)).toBeNull();
  });

  it('marks no one until it has heard the chat for a week, then marks only those it never heard', () => {
    const chatters = new Chatters();
    expect(hear(chatters, 1, 'regular', 0)).toBe(false);
    expect(hear(chatters, 2, 'other', WEEK - 1)).toBe(false);
    expect(hear(chatters, 2, 'other', WEEK)).toBe(false);
    expect(hear(chatters, 3, 'newcomer', WEEK)).toBe(true);
    expect(chatters.stats(2)?.messageCount).toBe(2);
  });

  it('reaches back to the earliest line heard, even when it arrives late', () => {
    const chatters = new Chatters();
    expect(hear(chatters, 1, 'a', 2 * WEEK)).toBe(false);
    hear(chatters, 2, 'b', 0);
    expect(hear(chatters, 3, 'c', 2 * WEEK)).toBe(true);
  });

  it('keys a chatter without a user id by name, any case', () => {
    const chatters = heardForAWeek();
    expect(hear(chatters, null, 'Ghost', WEEK + 1)).toBe(true);
    expect(hear(chatters, null, 'ghost', WEEK + 2)).toBe(false);
  });

  it('keeps the earliest time when a message arrives out of order', () => {
    const chatters = new Chatters();
    hear(chatters, 7, 'noodle', 5000);
    hear(chatters, 7, 'noodle', 4000);
    expect(chatters.stats(7)?.firstSeenMs).toBe(4000);
  });

  it('counts the week from when lines were received, whatever time they claim', () => {
    const chatters = new Chatters();
    // A line stamped in the year 1, received now: Greenroom has heard the chat for no time at all.
    const now = Date.UTC(2026, 10, 27);
    expect(hear(chatters, 1, 'forger', Date.UTC(1, 0, 1), now)).toBe(false);
    expect(hear(chatters, 2, 'regular', now + 1000, now + 1000)).toBe(false);
    // Its "first chatted" is no earlier than the longest a delivery can be late, and never in the future.
    expect(chatters.stats(1)?.firstSeenMs).toBe(now - WEEK);
    hear(chatters, 3, 'future', now + 10 * WEEK, now + 2000);
    expect(chatters.stats(3)?.firstSeenMs).toBe(now + 2000);
  });

  it('forgets the least recently active chatter past its bound', () => {
    const chatters = new Chatters(2);
    hear(chatters, 1, 'a', 1);
    hear(chatters, 2, 'b', 2);
    hear(chatters, 1, 'a', 3); // 1 is now the most recent
    hear(chatters, 3, 'c', 4);
    expect(chatters.stats(2)).toBeNull();
    expect(chatters.stats(1)?.messageCount).toBe(2);
    // Forgotten, so their next message counts as a first again.
    expect(hear(chatters, 2, 'b', WEEK + 5)).toBe(true);
  });
});
