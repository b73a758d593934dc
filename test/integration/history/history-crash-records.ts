/** The records history-crash.test.ts's child writes: a stream start, then chat lines from 50 viewers. */
import type { JournalRecord } from '../../../electron/webhooks/events/types';
import { events, T0 } from '../../unit/electron/history/history-fixtures';

export const CRASH_LINES = 20_000;

export function crashStream(): JournalRecord[] {
  const records = [events.live(T0)];
  for (let i = 0; i < CRASH_LINES; i++) {
    records.push(events.chat(`crash-${i}`, 100 + (i % 50), T0 + 1000 + i * 10, `line ${i}`));
  }
  return records;
}
