/**
 * The dedup's id memory on disk, at volume: a redelivery after 100,000 newer deliveries is still recognised,
 * also after a restart, with the default sizes and with a memory cap small enough that most of it lives in
 * spilled runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUlid } from '../../../electron/core/ids';
import { createDeliveryDedup, type DeliveryDedup } from '../../../electron/webhooks/dedup/dedup';

const T = 1_750_000_000_000;
const NEWER = 100_000;

describe('dedup id memory at volume', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'greenroom-dedup-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function accept(dedup: DeliveryDedup, id: string, atMs: number): string {
    const claim = dedup.claim(id, `body-of-${id}`, atMs);
    if (claim.verdict === 'new') {
      claim.settle(true);
    }
    return claim.verdict;
  }

  it.each([
    ['the default sizes', {}],
    ['a 256 KiB memory cap (most runs spilled to disk)', { maxMemoryBytes: 256 * 1024, runMaxIds: 4096 }],
  ])('recognises a redelivery after 100,000 newer deliveries, and after a restart, with %s', (_, sizes) => {
    const options = { ids: { dir, retentionMs: 48 * 3_600_000, ...sizes } };
    const dedup = createDeliveryDedup(options);
    const original = createUlid(T);
    expect(accept(dedup, original, T)).toBe('new');
    // A delivery every 100 ms: almost three hours of a busy chat.
    let now = T;
    for (let i = 0; i < NEWER; i++) {
      now += 100;
      expect(accept(dedup, createUlid(now), now)).toBe('new');
    }
    expect(dedup.size().ids).toBe(NEWER + 1);
    // Kick's retry of the first delivery: same id, re-signed; its body no longer in the seconds window.
    expect(dedup.claim(original, 'body-of-retry', now + 1000).verdict).toBe('duplicate-id');
    dedup.close();

    const restarted = createDeliveryDedup(options);
    expect(restarted.claim(original, 'body-of-retry', now + 2000).verdict).toBe('duplicate-id');
    expect(restarted.claim(createUlid(now), 'fresh', now + 2000).verdict).toBe('new');
    restarted.close();
  });
});
