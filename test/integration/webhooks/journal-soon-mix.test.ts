/**
 * The journal's two urgencies mixed at random ([decisions](../../../docs/decisions.md#socket-lines-wait-for-company)):
 * `'soon'` and `'now'` appends, the wait's timer fired by hand, reads, idle moments, rotation to new segments and a
 * failed sync. Whatever the mix, no record is left waiting with neither a timer nor a write to take it, every append
 * settles, and the journal holds them in the order they were appended.
 */
import { mkdtemp, open as fsOpen, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFileJournal } from '../../../electron/webhooks/journal/journal';
import type { JournalRecord } from '../../../electron/webhooks/events/types';
import { journalRecord } from './journal-fixtures';
import { ManualScheduler } from '../../helpers/manual-scheduler';

function record(i: number): JournalRecord {
  return journalRecord(i, { message_id: `m-${i}`, content: `line ${i} ${'x'.repeat(i % 50)}` });
}

/** A repeatable sequence of numbers in [0, 1), so a failing mix can be run again. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'greenroom-journal-mix-'));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await rm(dir, { recursive: true, force: true });
});

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const ms = (n: number) => new Promise<void>((resolve) => setTimeout(resolve, n));

/** Waits until `done()` holds, a turn at a time, for at most `limitMs`; false if it never did. */
async function eventually(done: () => boolean, limitMs = 5_000): Promise<boolean> {
  const until = Date.now() + limitMs;
  while (!done()) {
    if (Date.now() > until) {
      return false;
    }
    await ms(1);
  }
  return true;
}

describe("the journal's 'soon' and 'now' appends, mixed", () => {
  for (const fsync of ['batch', 'always', 'never'] as const) {
    for (let seed = 1; seed <= 6; seed++) {
      it(`fsync ${fsync} seed ${seed}: nothing stranded, order kept`, async () => {
        const random = rng(seed * 7919 + fsync.length);
        const scheduler = new ManualScheduler();
        const journal = await createFileJournal({
          dir,
          fsync,
          setTimer: scheduler.setTimer,
          maxSegmentBytes: 2_000,
          maxSegments: 1_000,
        });
        const states: ('pending' | 'ok' | 'failed')[] = [];
        const promises: Promise<void>[] = [];
        let n = 0;
        for (let step = 0; step < 200; step++) {
          const r = random();
          if (r < 0.45) {
            const i = n++;
            states[i] = 'pending';
            promises.push(
              journal.append(record(i), 'soon').then(
                () => void (states[i] = 'ok'),
                () => void (states[i] = 'failed'),
              ),
            );
          } else if (r < 0.6) {
            const i = n++;
            states[i] = 'pending';
            promises.push(
              journal.append(record(i), 'now').then(
                () => void (states[i] = 'ok'),
                () => void (states[i] = 'failed'),
              ),
            );
          } else if (r < 0.7) {
            if (scheduler.pending.size > 0) {
              expect(scheduler.pending.size).toBe(1);
              scheduler.fireOnly();
            }
          } else if (r < 0.85) {
            await turn();
          } else if (r < 0.9) {
            const before = n;
            const all = await journal.readAll();
            // Every record appended before readAll was called is settled by the time it returns.
            for (let i = 0; i < before; i++) {
              expect(states[i], `record ${i} after readAll`).not.toBe('pending');
            }
            expect(all.length).toBeGreaterThanOrEqual(before);
          } else {
            // Idle: with no timer waiting, whatever is still pending is in a write, which must end by itself.
            if (scheduler.pending.size === 0) {
              const settled = await eventually(() => states.every((state) => state !== 'pending'));
              expect(settled, 'records pending with no timer and no write').toBe(true);
            }
            expect(scheduler.pending.size).toBeLessThanOrEqual(1);
          }
        }
        await journal.close();
        await Promise.all(promises);
        expect(states.every((s) => s === 'ok')).toBe(true);
        expect(scheduler.pending.size).toBe(0);
        const reopened = await createFileJournal({ dir, fsync, maxSegmentBytes: 2_000, maxSegments: 1_000 });
        const ids = (await reopened.readAll()).map((r) => r.messageId);
        await reopened.close();
        expect(ids).toEqual(Array.from({ length: n }, (_, i) => record(i).messageId));
      });
    }
  }

  it("a failed sync rejects only its batch; 'soon' records after it are still written, in order", async () => {
    const probe = await fsOpen(join(dir, 'probe'), 'w');
    // The FileHandle class's own method, as the journal's handle will call it: the one failure is made there.
    const proto = Object.getPrototypeOf(probe) as { datasync: (this: unknown) => Promise<void> };
    await probe.close();
    const real = proto.datasync;
    let failNext = 0;
    vi.spyOn(proto, 'datasync').mockImplementation(function (this: unknown) {
      if (failNext > 0) {
        failNext--;
        return Promise.reject(new Error('EIO'));
      }
      return real.call(this);
    });
    const scheduler = new ManualScheduler();
    const journal = await createFileJournal({ dir, fsync: 'batch', setTimer: scheduler.setTimer });
    failNext = 1;
    const a = journal.append(record(0), 'soon');
    const b = journal.append(record(1), 'soon');
    scheduler.fireOnly();
    await expect(a).rejects.toThrow('journal write failed');
    await expect(b).rejects.toThrow('journal write failed');
    const c = journal.append(record(2), 'soon');
    await ms(30);
    expect(scheduler.pending.size).toBe(1);
    const d = journal.append(record(3), 'now');
    await Promise.all([c, d]);
    expect(scheduler.pending.size).toBe(0);
    expect((await journal.readAll()).map((r) => r.messageId)).toEqual([record(2).messageId, record(3).messageId]);
    await journal.close();
  });

  it("a 'soon' append made while a write is in flight goes with the next batch, with no timer", async () => {
    const scheduler = new ManualScheduler();
    const journal = await createFileJournal({ dir, fsync: 'batch', setTimer: scheduler.setTimer });
    const first = journal.append(record(0), 'now');
    const second = journal.append(record(1), 'soon');
    expect(scheduler.pending.size).toBe(0);
    await Promise.all([first, second]);
    // After the flush has ended: a new soon must wait again.
    const third = journal.append(record(2), 'soon');
    expect(scheduler.pending.size).toBe(1);
    let done = false;
    void third.then(() => (done = true));
    await ms(30);
    expect(done).toBe(false);
    await journal.close();
    expect(done).toBe(true);
  });
});
