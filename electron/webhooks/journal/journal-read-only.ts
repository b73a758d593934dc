/**
 * The journal of a data dir that cannot be written (a read-only mount, a folder the user cannot write):
 * what is already in it is replayed, so chat and the feed come back, and every append is refused, so the
 * receiver answers 500 and Kick delivers again later instead of being told an event was kept that was
 * not ([design notes](../../../docs/design-notes.md#data-that-must-survive), "Data that must survive").
 * Nothing is repaired or moved aside: on a read-only disk that would fail anyway, and the start-up check
 * has already said what is wrong in one line.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NO_FOLLOW } from '../../core/data-files';
import { readSegment, segmentName } from './journal-format';
import { describe, listSegments } from './journal-segments';
import type { FileJournal, JournalRecord } from '../events/types';

/** Whether an fs error means "this place cannot be written", as opposed to something being damaged. */
export function isUnwritable(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'EROFS' || code === 'EACCES' || code === 'EPERM';
}

/** A journal over `dir` that reads and never writes; `why` is the fs error that made it so. */
export async function openReadOnlyJournal(
  dir: string,
  why: unknown,
  log: (line: string) => void,
): Promise<FileJournal> {
  const seqs = await listSegments(dir).catch(() => [] as number[]);
  log(`journal: ${dir} cannot be written (${describe(why)}); replaying what it holds, refusing new deliveries`);
  const refusal = new Error(`journal is read-only: ${describe(why)}`);
  let closed = false;
  return {
    append: () => Promise.reject(closed ? new Error('journal is closed') : refusal),
    async readAll(): Promise<JournalRecord[]> {
      const records: JournalRecord[] = [];
      for (const seq of seqs) {
        const name = segmentName(seq);
        try {
          const contents = readSegment(await readFile(join(dir, name), { flag: NO_FOLLOW.read }), seq === seqs.at(-1));
          records.push(...contents.records);
          if (contents.skipped.length > 0) {
            log(`journal: skipped ${contents.skipped.length} corrupt record(s) in ${name}`);
          }
        } catch (error) {
          log(`journal: ${name}: could not read it (${describe(error)}); skipped it`);
        }
      }
      return records;
    },
    close: () => {
      closed = true;
      return Promise.resolve();
    },
    stats: () => ({ appends: 0, batches: 0, syncs: 0, segments: seqs.length }),
  };
}
