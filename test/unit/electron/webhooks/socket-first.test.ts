import { describe, expect, it } from 'vitest';
import { createSocketFirst } from '../../../../electron/webhooks/socket-first';

describe('socket-first trail', () => {
  it('measures webhook arrival minus socket arrival, once per line', () => {
    const first = createSocketFirst();
    first.noteSocket('A', 1_000);
    first.noteSocket('B', 2_000);
    expect(first.noteWebhook('A', 601_000)).toBe(600_000);
    // A second copy of the same webhook (Kick's resend) is not a second sample.
    expect(first.noteWebhook('A', 602_000)).toBeNull();
    expect(first.noteWebhook('B', 2_500)).toBe(500);
    expect(first.trail()).toEqual({ samples: 2, p50Ms: 500, p95Ms: 600_000 });
  });

  it('has no figures before a webhook followed a socket line, and ignores webhooks the socket did not bring', () => {
    const first = createSocketFirst();
    expect(first.noteWebhook('never-on-socket', 5)).toBeNull();
    expect(first.trail()).toEqual({ samples: 0, p50Ms: null, p95Ms: null });
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
    expect(first.trail()).toEqual({ samples: 3, p50Ms: 2, p95Ms: 3 });
  });
});
