import { describe, expect, it } from 'vitest';
import { createSocketFirst } from '../../../../../electron/webhooks/dedup/socket-first';

describe('socket-first trail', () => {
  it('measures webhook arrival minus socket arrival, once per line', () => {
    const first = createSocketFirst();
    first.noteSocket('A', 1_000);
    first.noteSocket('B', 2_000);
    expect(first.noteWebhook('A', 601_000)).toBe(600_000);
    // A second copy of the same webhook (Kick's resend) is not a second sample.
    expect(first.noteWebhook('A', 602_000)).toBeNull();
    expect(first.noteWebhook('B', 2_500)).toBe(500);
    expect(first.trail()).toEqual({ samples: 2, p50Ms: 500, p95Ms: 600_000, awaiting: 0, oldestAwaitedAtMs: null });
  });

  it('has no figures before a webhook followed a socket line, and ignores webhooks the socket did not bring', () => {
    const first = createSocketFirst();
    expect(first.noteWebhook('never-on-socket', 5)).toBeNull();
    expect(first.trail()).toEqual({ samples: 0, p50Ms: null, p95Ms: null, awaiting: 0, oldestAwaitedAtMs: null });
  });

  it('counts a webhook that came before the socket (clock skew) as no trail, never negative', () => {
    const first = createSocketFirst();
    first.noteSocket('A', 10_000);
    expect(first.noteWebhook('A', 9_000)).toBe(0);
  });

  it('keeps at most the bound of awaited lines and of samples, dropping the oldest', () => {
    const first = createSocketFirst({ maxAwaited: 2, maxSamples: 3 });
    first.noteSocket('A', 0);
    first.noteSocket('B', 0);
    first.noteSocket('C', 0);
    expect(first.noteWebhook('A', 10)).toBeNull();
    expect(first.noteWebhook('C', 10)).toBe(10);
    for (const [key, gap] of [
      ['D', 1],
      ['E', 2],
      ['F', 3],
    ] as const) {
      first.noteSocket(key, 0);
      first.noteWebhook(key, gap);
    }
    expect(first.trail()).toEqual({ samples: 3, p50Ms: 2, p95Ms: 3, awaiting: 1, oldestAwaitedAtMs: 0 });
  });

  it('counts the lines whose webhook is still held, and when the oldest came, until each webhook comes', () => {
    const first = createSocketFirst();
    first.noteSocket('A', 1_000);
    first.noteSocket('B', 2_000);
    first.noteSocket('C', 3_000);
    expect(first.trail()).toMatchObject({ samples: 0, awaiting: 3, oldestAwaitedAtMs: 1_000 });
    first.noteWebhook('A', 601_000);
    expect(first.trail()).toMatchObject({ samples: 1, awaiting: 2, oldestAwaitedAtMs: 2_000 });
    first.noteWebhook('C', 603_000);
    first.noteWebhook('B', 602_000);
    expect(first.trail()).toMatchObject({ awaiting: 0, oldestAwaitedAtMs: null });
  });
});
