/** RFC 3339 parsing of `Kick-Event-Message-Timestamp` and the replay window around our clock. */
import { describe, expect, it } from 'vitest';
import { checkReplayWindow, parseRfc3339 } from '../../../../../electron/webhooks/events/replay-guard';

describe('parseRfc3339', () => {
  it('reads the shapes Kick and RFC 3339 use', () => {
    const base = Date.UTC(2025, 3, 1, 7, 56, 19);
    expect(parseRfc3339('2025-04-01T07:56:19Z')).toBe(base);
    expect(parseRfc3339('2025-04-01t07:56:19z')).toBe(base);
    expect(parseRfc3339('2025-04-01T07:56:19.123Z')).toBe(base + 123);
    expect(parseRfc3339('2025-04-01T07:56:19.123456789Z')).toBe(base + 123);
    expect(parseRfc3339('2025-04-01T09:56:19+02:00')).toBe(base);
    expect(parseRfc3339('2025-04-01T02:26:19-05:30')).toBe(base);
    expect(parseRfc3339('2024-02-29T00:00:00Z')).toBe(Date.UTC(2024, 1, 29));
    expect(parseRfc3339('2016-12-31T23:59:60Z')).toBe(Date.UTC(2016, 11, 31, 23, 59, 59, 999));
    expect(parseRfc3339('0050-01-01T00:00:00Z')).toBe(new Date('0050-01-01T00:00:00Z').getTime());
    expect(parseRfc3339('0000-02-29T12:00:00Z')).toBe(new Date('0000-02-29T12:00:00Z').getTime());
  });

  it('answers each string for itself however the readers interleave, refusals included', () => {
    const values = Array.from({ length: 9 }, (_, i) =>
      i % 3 === 2 ? `2025-04-01T07:56:${10 + i}` : `2025-04-01T07:56:${10 + i}.${i}Z`,
    );
    const expected = values.map((v) => (v.endsWith('Z') ? Date.parse(v) : null));
    // Twice round, then back and forth within fewer strings than it keeps, then more than it keeps.
    const order = [...values.keys(), ...values.keys(), 0, 1, 0, 2, 1, 0, 8, 7, 6, 5, 4, 3, 2, 1, 0];
    for (const i of order) {
      expect(parseRfc3339(values[i]!), values[i]).toBe(expected[i]);
    }
  });

  it('refuses everything else, including what Date.parse accepts', () => {
    for (const bad of [
      '',
      '2025-04-01',
      '2025-04-01T07:56:19', // no zone
      '2025-04-01 07:56:19Z', // space separator
      '2025-04-01T07:56Z',
      '2025-4-1T07:56:19Z',
      '2025-13-01T00:00:00Z',
      '2025-00-01T00:00:00Z',
      '2025-02-29T00:00:00Z', // not a leap year
      '2100-02-29T00:00:00Z',
      '2025-04-31T00:00:00Z',
      '2025-04-01T24:00:00Z',
      '2025-04-01T23:60:00Z',
      '2025-04-01T23:59:61Z',
      '2025-04-01T07:56:19.Z',
      '2025-04-01T07:56:19+0200',
      '2025-04-01T07:56:19+24:00',
      '2025-04-01T07:56:19Z ',
      'Tue, 01 Apr 2025 07:56:19 GMT',
      '1743494179',
      '+002025-04-01T07:56:19Z',
    ]) {
      expect(parseRfc3339(bad), bad).toBeNull();
    }
  });
});

describe('checkReplayWindow', () => {
  const now = Date.UTC(2025, 3, 1, 12, 0, 0);
  const window = { windowSeconds: 1800, futureSkewSeconds: 300 };

  it('accepts timestamps within the window, bounds included', () => {
    expect(checkReplayWindow(now, now, window)).toBe('ok');
    expect(checkReplayWindow(now - 1800_000, now, window)).toBe('ok');
    expect(checkReplayWindow(now + 300_000, now, window)).toBe('ok');
  });

  it('flags older than the window as stale and beyond the skew as future', () => {
    expect(checkReplayWindow(now - 1800_001, now, window)).toBe('stale');
    expect(checkReplayWindow(now - 86_400_000, now, window)).toBe('stale');
    expect(checkReplayWindow(now + 300_001, now, window)).toBe('future');
  });

  it('is off when the window is 0 (replaying a captured delivery)', () => {
    const off = { windowSeconds: 0, futureSkewSeconds: 300 };
    expect(checkReplayWindow(0, now, off)).toBe('ok');
    expect(checkReplayWindow(now + 86_400_000, now, off)).toBe('ok');
  });
});
