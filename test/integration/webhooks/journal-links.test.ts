/**
 * Links inside the journal and dedup folders are not followed (electron/core/data-files.ts): a segment
 * that is a link is moved aside like an unreadable one (the link, never what it points at) and the rest
 * replays; the dedup memory refuses a linked open log (webhook-service.ts then keeps its ids in memory).
 */
import { mkdir, mkdtemp, readFile, readdir, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IdMemory } from '../../../electron/webhooks/dedup/id-memory';
import { encodeRecord, segmentName } from '../../../electron/webhooks/journal/journal-format';
import { createFileJournal } from '../../../electron/webhooks/journal/journal';
import type { JournalRecord } from '../../../electron/webhooks/events/types';
import { journalRecord } from './journal-fixtures';

function record(i: number): JournalRecord {
  return journalRecord(i, { message_id: `m-${i}`, content: `line ${i}` });
}

let root: string;
let dir: string;
let elsewhere: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'greenroom-journal-links-'));
  dir = join(root, 'journal');
  elsewhere = join(root, 'elsewhere.log');
  await mkdir(dir);
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('links in the journal folder', () => {
  it('a segment that links elsewhere is moved aside, not replayed nor appended to', async () => {
    const outside = encodeRecord(record(99));
    await writeFile(elsewhere, outside);
    await writeFile(join(dir, segmentName(1)), encodeRecord(record(1)));
    await symlink(elsewhere, join(dir, segmentName(2)));
    const logs: string[] = [];
    const journal = await createFileJournal({ dir, log: (line) => logs.push(line) });
    try {
      expect((await journal.readAll()).map((r) => r.messageId)).toEqual([record(1).messageId]);
      await journal.append(record(3));
    } finally {
      await journal.close();
    }
    expect(await readFile(elsewhere, 'utf8')).toBe(outside);
    const aside = (await readdir(dir)).filter((name) => name.includes('.damaged'));
    expect(aside).toHaveLength(1);
    expect(await readlink(join(dir, aside[0]!))).toBe(elsewhere);
    expect(logs.join('\n')).toContain(`${join(dir, segmentName(2))}: could not`);
  });
});

describe('links in the dedup folder', () => {
  it('a linked open log is refused (ELOOP; the service then keeps ids in memory), its target untouched', async () => {
    const dedup = join(root, 'dedup');
    await mkdir(dedup);
    await writeFile(elsewhere, 'not ids');
    await symlink(elsewhere, join(dedup, 'open.log'));
    const logs: string[] = [];
    expect(() => new IdMemory({ dir: dedup, retentionMs: 60_000, log: (line) => logs.push(line) })).toThrow(
      expect.objectContaining({ code: 'ELOOP' }),
    );
    expect(await readFile(elsewhere, 'utf8')).toBe('not ids');
  });
});
