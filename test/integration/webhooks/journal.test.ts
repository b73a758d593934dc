import { appendFile, chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeRecord, segmentName } from '../../../electron/webhooks/journal/journal-format';
import { createFileJournal, replayJournal } from '../../../electron/webhooks/journal/journal';
import { isUnwritable, openReadOnlyJournal } from '../../../electron/webhooks/journal/journal-read-only';
import type { FileJournal, FileJournalDeps } from '../../../electron/webhooks/journal/journal';
import type { JournalRecord } from '../../../electron/webhooks/events/types';
import { journalRecord } from './journal-fixtures';
import { ManualScheduler } from '../../helpers/manual-scheduler';

function record(i: number, text = `message number ${i}`): JournalRecord {
  return journalRecord(i, { message_id: `m-${i}`, content: text, sender: { username: `viewer_${i}` } });
}

let dir: string;
let logs: string[];
const open: FileJournal[] = [];

async function openJournal(options: Partial<FileJournalDeps> = {}): Promise<FileJournal> {
  const journal = await createFileJournal({ dir, log: (line) => logs.push(line), ...options });
  open.push(journal);
  return journal;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'greenroom-journal-'));
  logs = [];
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((j) => j.close()));
  await rm(dir, { recursive: true, force: true });
});

describe('file journal', () => {
  it('reads back after close and reopen exactly what was appended, in order', async () => {
    const records = Array.from({ length: 25 }, (_, i) => record(i, i === 3 ? 'two\nlines "quoted" 🎉' : undefined));
    const journal = await openJournal();
    for (const r of records) {
      await journal.append(r);
    }
    await journal.close();

    const text = await readFile(join(dir, segmentName(1)), 'utf8');
    expect(text).toBe(records.map(encodeRecord).join(''));

    const reopened = await openJournal();
    expect(await reopened.readAll()).toEqual(records);
    expect(logs).toEqual([]);
  });

  it('appends after reopening to the newest segment, on a clean line', async () => {
    const first = await openJournal();
    await first.append(record(1));
    await first.close();
    const second = await openJournal();
    await second.append(record(2));
    expect(await readdir(dir)).toEqual([segmentName(1)]);
    expect(await second.readAll()).toEqual([record(1), record(2)]);
  });

  it('rotates by size and deletes the oldest segments beyond maxSegments', async () => {
    const lineBytes = Buffer.byteLength(encodeRecord(record(0)));
    // Two records per segment: the second one takes the segment past the limit.
    const journal = await openJournal({ maxSegmentBytes: lineBytes + 1, maxSegments: 3 });
    const records = Array.from({ length: 10 }, (_, i) => record(i));
    for (const r of records) {
      await journal.append(r);
    }

    expect((await readdir(dir)).sort()).toEqual([segmentName(3), segmentName(4), segmentName(5)]);
    expect(journal.stats().segments).toBe(3);
    // Segments 1 and 2 (records 0–3) are gone.
    expect(await journal.readAll()).toEqual(records.slice(4));

    await journal.close();
    const reopened = await openJournal({ maxSegmentBytes: lineBytes + 1, maxSegments: 3 });
    // The newest segment is full, so the first append after reopening starts segment 6 and drops 3.
    await reopened.append(record(10));
    expect((await readdir(dir)).sort()).toEqual([segmentName(4), segmentName(5), segmentName(6)]);
    expect(await readFile(join(dir, segmentName(6)), 'utf8')).toBe(encodeRecord(record(10)));
    expect(await reopened.readAll()).toEqual([...records.slice(6), record(10)]);
  });

  it('group-commits concurrent appends: one write and one fdatasync for the whole burst', async () => {
    const journal = await openJournal({ fsync: 'batch' });
    const records = Array.from({ length: 64 }, (_, i) => record(i));
    const results = await Promise.allSettled(records.map((r) => journal.append(r)));
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(journal.stats()).toMatchObject({ appends: 64, batches: 1, syncs: 1 });
    expect(await journal.readAll()).toEqual(records);
  });

  it('keeps batching while appenders keep appending: far fewer fsyncs than appends', async () => {
    const journal = await openJournal({ fsync: 'batch' });
    const appenders = Array.from({ length: 64 }, async (_, a) => {
      for (let k = 0; k < 10; k++) {
        await journal.append(record(a * 10 + k));
      }
    });
    await Promise.all(appenders);
    const stats = journal.stats();
    expect(stats.appends).toBe(640);
    expect(stats.syncs).toBe(stats.batches);
    expect(stats.batches).toBeLessThanOrEqual(20);
    const ids = (await journal.readAll()).map((r) => r.receivedAtMs - 1_743_494_179_000);
    expect(ids.sort((x, y) => x - y)).toEqual(Array.from({ length: 640 }, (_, i) => i));
  });

  describe("lines no answer waits on ('soon')", () => {
    /** Lets the journal's writes run, if it started any: a few turns of the event loop and the disk. */
    const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

    it('wait for company until the timer fires, then share one write and one fdatasync', async () => {
      const scheduler = new ManualScheduler();
      const journal = await openJournal({ fsync: 'batch', setTimer: scheduler.setTimer, soonMs: 20 });
      let written = 0;
      const appends = [0, 1, 2].map((i) => journal.append(record(i), 'soon').then(() => void written++));
      await settle();
      expect(written).toBe(0);
      expect(journal.stats()).toMatchObject({ appends: 0, batches: 0, syncs: 0 });
      // One timer for the three, at the wait asked for.
      expect(scheduler.fireOnly()).toBe(20);
      await Promise.all(appends);
      expect(journal.stats()).toMatchObject({ appends: 3, batches: 1, syncs: 1 });
      expect(await journal.readAll()).toEqual([0, 1, 2].map((i) => record(i)));
    });

    it("go at once, in order, with a record an answer waits on ('now')", async () => {
      const scheduler = new ManualScheduler();
      const journal = await openJournal({ fsync: 'batch', setTimer: scheduler.setTimer });
      const waiting = [journal.append(record(0), 'soon'), journal.append(record(1), 'soon')];
      await journal.append(record(2), 'now');
      await Promise.all(waiting);
      expect(scheduler.pending.size).toBe(0);
      expect(journal.stats()).toMatchObject({ appends: 3, batches: 1, syncs: 1 });
      expect(await journal.readAll()).toEqual([0, 1, 2].map((i) => record(i)));
    });

    it('are written by readAll and close without waiting for the timer', async () => {
      const scheduler = new ManualScheduler();
      const journal = await openJournal({ fsync: 'batch', setTimer: scheduler.setTimer });
      const first = journal.append(record(0), 'soon');
      expect(await journal.readAll()).toEqual([record(0)]);
      await first;
      const second = journal.append(record(1), 'soon');
      await journal.close();
      await expect(second).resolves.toBeUndefined();
      expect(scheduler.pending.size).toBe(0);
      expect(await (await openJournal()).readAll()).toEqual([record(0), record(1)]);
    });

    it("are written on Node's own timer when none is given", async () => {
      const journal = await openJournal({ fsync: 'batch' });
      await journal.append(record(0), 'soon');
      expect(journal.stats()).toMatchObject({ appends: 1, syncs: 1 });
    });

    it('refuse a wait that is not a number of ms', async () => {
      for (const soonMs of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
        await expect(createFileJournal({ dir, soonMs })).rejects.toThrow('soonMs must be a number >= 0');
      }
    });
  });

  it("syncs once per append with fsync 'always' and never with 'never'", async () => {
    const always = await openJournal({ fsync: 'always' });
    await Promise.all(Array.from({ length: 8 }, (_, i) => always.append(record(i))));
    expect(always.stats()).toMatchObject({ appends: 8, batches: 8, syncs: 8 });
    await always.close();

    const never = await openJournal({ fsync: 'never' });
    await Promise.all(Array.from({ length: 8 }, (_, i) => never.append(record(100 + i))));
    expect(never.stats()).toMatchObject({ appends: 8, batches: 1, syncs: 0 });
    expect(await never.readAll()).toHaveLength(16);
  });

  it('creates segment files with mode 0600 and tightens a looser existing one', async () => {
    const lineBytes = Buffer.byteLength(encodeRecord(record(0)));
    const journal = await openJournal({ maxSegmentBytes: lineBytes });
    await journal.append(record(1));
    await journal.append(record(2));
    await journal.close();
    const names = await readdir(dir);
    expect(names.length).toBeGreaterThan(1);
    for (const name of names) {
      expect((await stat(join(dir, name))).mode & 0o777).toBe(0o600);
    }

    const newest = join(dir, names.sort().at(-1)!);
    await chmod(newest, 0o644);
    await openJournal();
    expect((await stat(newest)).mode & 0o777).toBe(0o600);
  });

  it('truncates a torn tail on open so the next append starts on a clean line', async () => {
    const journal = await openJournal();
    await journal.append(record(1));
    await journal.close();
    const file = join(dir, segmentName(1));
    const intact = (await stat(file)).size;
    await appendFile(file, encodeRecord(record(2)).slice(0, 50));

    const reopened = await openJournal();
    expect((await stat(file)).size).toBe(intact);
    expect(logs.some((l) => l.includes('truncated a torn record'))).toBe(true);
    await reopened.append(record(3));
    expect(await reopened.readAll()).toEqual([record(1), record(3)]);
  });

  it('truncates a complete last line whose CRC does not match', async () => {
    const file = join(dir, segmentName(1));
    const bad = encodeRecord(record(2)).replace('message number 2', 'message number X');
    await writeFile(file, encodeRecord(record(1)) + bad);
    const journal = await openJournal();
    expect(await readFile(file, 'utf8')).toBe(encodeRecord(record(1)));
    expect(await journal.readAll()).toEqual([record(1)]);
  });

  it('skips and logs a corrupt line in the middle and reads on', async () => {
    await writeFile(
      join(dir, segmentName(1)),
      encodeRecord(record(1)) + 'deadbeef {"half a rec\n' + encodeRecord(record(2)),
    );
    await writeFile(join(dir, segmentName(2)), encodeRecord(record(3)));
    const journal = await openJournal();
    expect(await journal.readAll()).toEqual([record(1), record(2), record(3)]);
    expect(logs).toEqual([
      expect.stringMatching(/skipped a corrupt record in journal-000001\.log at byte \d+ \(crc\)/),
    ]);
  });

  // As root (the CI container) permissions do not stop a read, so a directory where a segment file should
  // be stands in for an unreadable segment: reading it fails the same way, with EISDIR instead of EACCES.
  it('moves an unreadable segment aside with one plain line naming it, and replays the rest', async () => {
    await writeFile(join(dir, segmentName(1)), encodeRecord(record(1)));
    await mkdir(join(dir, segmentName(2)));
    await writeFile(join(dir, segmentName(3)), encodeRecord(record(3)));
    const journal = await openJournal();
    expect(await journal.readAll()).toEqual([record(1), record(3)]);
    expect(logs).toEqual([
      `journal: ${join(dir, segmentName(2))}: could not read it (EISDIR: illegal operation on a directory, read); ` +
        `moved it aside to ${segmentName(2)}.damaged and went on with the rest of the journal`,
    ]);
    expect((await readdir(dir)).sort()).toEqual([segmentName(1), `${segmentName(2)}.damaged`, segmentName(3)]);
    await journal.append(record(4));
    expect(await (await openJournal()).readAll()).toEqual([record(1), record(3), record(4)]);
  });

  it('moves a segment of garbage aside in one line, however many lines of garbage it holds', async () => {
    await writeFile(join(dir, segmentName(1)), Buffer.from('\x00\xff garbage\n'.repeat(500), 'latin1'));
    await writeFile(join(dir, segmentName(2)), encodeRecord(record(2)));
    const journal = await openJournal();
    expect(await journal.readAll()).toEqual([record(2)]);
    expect(logs).toEqual([
      `journal: ${join(dir, segmentName(1))}: nothing in it is a journal record (framing at byte 0); ` +
        `moved it aside to ${segmentName(1)}.damaged and went on with the rest of the journal`,
    ]);
  });

  it('moves an unreadable newest segment aside and appends to a new one', async () => {
    await writeFile(join(dir, segmentName(1)), encodeRecord(record(1)));
    await mkdir(join(dir, segmentName(2)));
    const journal = await openJournal();
    expect(logs).toEqual([expect.stringContaining(`${segmentName(2)}: could not open it (EISDIR`)]);
    await journal.append(record(3));
    expect(await journal.readAll()).toEqual([record(1), record(3)]);
    expect(await readFile(join(dir, segmentName(3)), 'utf8')).toBe(encodeRecord(record(3)));
    expect(journal.stats().segments).toBe(2);
  });

  it('on a data dir that cannot be written, replays every segment, refuses appends and changes nothing', async () => {
    const writer = await openJournal({ maxSegmentBytes: 600 });
    for (let i = 0; i < 6; i++) {
      await writer.append(record(i));
    }
    await writer.close();
    const segments = (await readdir(dir)).sort();
    expect(segments.length).toBeGreaterThan(1);
    // A crash's torn tail on the newest segment is left as it is (no repair on a read-only disk) and skipped.
    await appendFile(join(dir, segments.at(-1)!), 'torn tail without newline');
    const before = await Promise.all((await readdir(dir)).sort().map(async (n) => [n, await readFile(join(dir, n))]));
    const erofs = Object.assign(new Error("EROFS: read-only file system, access '/data/journal'"), { code: 'EROFS' });
    expect(isUnwritable(erofs)).toBe(true);
    expect(isUnwritable(Object.assign(new Error('EIO'), { code: 'EIO' }))).toBe(false);
    logs = [];
    const journal = await openReadOnlyJournal(dir, erofs, (line) => logs.push(line));
    expect((await journal.readAll()).map((r) => r.messageId)).toEqual(
      [0, 1, 2, 3, 4, 5].map((i) => record(i).messageId),
    );
    await expect(journal.append(record(6))).rejects.toThrow(/read-only/);
    expect(logs).toEqual([expect.stringMatching(/cannot be written \(EROFS.*refusing new deliveries$/)]);
    const after = await Promise.all((await readdir(dir)).sort().map(async (n) => [n, await readFile(join(dir, n))]));
    expect(after).toEqual(before);
    await journal.close();
    await expect(journal.append(record(7))).rejects.toThrow(/closed/);
  });

  it('refuses appends after close, and close waits for appends in flight', async () => {
    const journal = await openJournal();
    const inFlight = journal.append(record(1));
    await journal.close();
    await expect(inFlight).resolves.toBeUndefined();
    await expect(journal.append(record(2))).rejects.toThrow('journal is closed');
    expect(await (await openJournal()).readAll()).toEqual([record(1)]);
  });

  it('replays records oldest first into dedup memory and the feed, surviving a failing consumer', async () => {
    const journal = await openJournal();
    for (let i = 0; i < 4; i++) {
      await journal.append(record(i));
    }
    const remembered: string[] = [];
    const fed: string[] = [];
    const replayLog: string[] = [];
    const count = await replayJournal(journal, {
      dedup: { remember: (r) => remembered.push(r.messageId) },
      onRecord: (r) => {
        if (r.messageId === record(2).messageId) {
          throw new Error('bad record');
        }
        fed.push(r.messageId);
      },
      log: (line) => replayLog.push(line),
    });
    expect(count).toBe(4);
    expect(remembered).toEqual([0, 1, 2, 3].map((i) => record(i).messageId));
    expect(fed).toEqual([0, 1, 3].map((i) => record(i).messageId));
    expect(replayLog).toEqual([expect.stringContaining('bad record')]);
  });
});
