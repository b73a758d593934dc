import { describe, expect, it } from 'vitest';
import { createShownUnkept } from '../../../../../electron/webhooks/receive/shown-unkept';

describe('deliveries shown but not kept', () => {
  it('recognises a retry once, by its id', () => {
    const shown = createShownUnkept();
    shown.remember('msg-1', 'hash-1');
    expect(shown.take('msg-1', 'hash-1')).toBe(true);
    // Kept this time: a later delivery with the same id is the dedup memory's business, not this one's.
    expect(shown.take('msg-1', 'hash-1')).toBe(false);
    expect(shown.size).toBe(0);
  });

  it("recognises a duplicate subscription's twin by its body, and forgets both keys together", () => {
    const shown = createShownUnkept();
    shown.remember('msg-1', 'hash-1');
    expect(shown.take('msg-twin', 'hash-1')).toBe(true);
    expect(shown.take('msg-1', 'hash-other')).toBe(false);
  });

  it('says no for a delivery never shown', () => {
    const shown = createShownUnkept();
    shown.remember('msg-1', 'hash-1');
    expect(shown.take('msg-2', 'hash-2')).toBe(false);
    expect(shown.size).toBe(1);
  });

  it('keeps one entry per delivery when a remembered id comes back with another body', () => {
    const shown = createShownUnkept();
    shown.remember('msg-1', 'hash-1');
    shown.remember('msg-1', 'hash-2');
    expect(shown.size).toBe(1);
    expect(shown.take('msg-9', 'hash-1')).toBe(false);
    expect(shown.take('msg-9', 'hash-2')).toBe(true);
  });

  it('forgets the oldest beyond its capacity, so a failing disk cannot grow memory without end', () => {
    const shown = createShownUnkept(3);
    for (let i = 1; i <= 5; i++) {
      shown.remember(`msg-${i}`, `hash-${i}`);
    }
    expect(shown.size).toBe(3);
    expect(shown.take('msg-1', 'hash-1')).toBe(false);
    expect(shown.take('msg-2', 'x')).toBe(false);
    expect(shown.take('msg-3', 'x')).toBe(true);
    expect(shown.take('y', 'hash-5')).toBe(true);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => createShownUnkept(0)).toThrow(/capacity/);
  });
});
