/**
 * The chat storm's duplicate count (bench/lib/storm-duplicates.ts) and its path switch (storm-socket.ts): a
 * message shown twice is counted whether its second row sits beside the first or below newer lines, or the
 * app sent it to the page twice; a row the log scrolls back into view is not a second showing.
 */
import { describe, expect, it } from 'vitest';
import { countDuplicates, RowFindings } from '../../../bench/lib/storm-duplicates';
import { stormPath } from '../../../bench/lib/storm-socket';
import { stormTimings } from '../../../bench/lib/storm-timings';

/** a, b, c, d reached the page in that order. */
const arrived = new Map([
  ['a', 1_000],
  ['b', 1_001],
  ['c', 1_002],
  ['d', 1_003],
]);
const once = new Map([...arrived.keys()].map((id) => [id, 1]));

const rowsOf = (...drains: (string | number | null)[][]): RowFindings => {
  const rows = new RowFindings();
  for (const drain of drains) {
    rows.add(drain);
  }
  return rows;
};

describe('countDuplicates', () => {
  it('counts nothing for rows each shown once, in the order they came', () => {
    const rows = rowsOf(['a', null, 1, 'b', 'a', 1], ['c', 'b', 1, 'd', 'c', 1]);
    expect(countDuplicates(arrived.keys(), rows.entries, arrived, once)).toMatchObject({ total: 0, rowsAgain: 0 });
  });

  it('does not count a row the log scrolls back into view among the lines of its time', () => {
    const rows = rowsOf(['a', null, 1, 'b', 'a', 1, 'c', 'b', 1], ['a', null, 1, 'b', 'a', 1]);
    expect(countDuplicates(arrived.keys(), rows.entries, arrived, once).total).toBe(0);
  });

  it('counts a second row below newer lines, after the first has scrolled away', () => {
    const rows = rowsOf(['a', null, 1, 'b', 'a', 1, 'c', 'b', 1, 'a', 'c', 1]);
    expect(countDuplicates(arrived.keys(), rows.entries, arrived, once)).toEqual({
      total: 1,
      rowsAgain: 1,
      receivedAgain: 0,
      examples: ['a'],
    });
  });

  it('counts a second row right beside the first', () => {
    const rows = rowsOf(['d', 'c', 1, 'd', 'd', 2]);
    expect(countDuplicates(arrived.keys(), rows.entries, arrived, once)).toMatchObject({ total: 1, examples: ['d'] });
  });

  it('counts a message the app sent twice even when the panel kept it to one row', () => {
    const received = new Map([...once, ['b', 3]]);
    const rows = rowsOf(['a', null, 1, 'b', 'a', 1]);
    expect(countDuplicates(arrived.keys(), rows.entries, arrived, received)).toEqual({
      total: 2,
      rowsAgain: 0,
      receivedAgain: 2,
      examples: ['b'],
    });
  });

  it('takes the larger count per message, not both, when a repeat also drew a row', () => {
    const received = new Map([...once, ['a', 2]]);
    const rows = rowsOf(['a', null, 1, 'b', 'a', 1, 'a', 'b', 1]);
    expect(countDuplicates(arrived.keys(), rows.entries, arrived, received).total).toBe(1);
  });

  it('counts only the storm’s messages, and ignores a torn drain tail', () => {
    const rows = rowsOf(['warm-up', 'd', 2, 'a']);
    expect(rows.entries).toHaveLength(1);
    expect(countDuplicates(arrived.keys(), rows.entries, arrived, once).total).toBe(0);
  });
});

describe('stormPath', () => {
  it('runs the socket path unless told webhook, and refuses anything else', () => {
    expect(stormPath(undefined)).toBe('socket');
    expect(stormPath('')).toBe('socket');
    expect(stormPath('webhook')).toBe('webhook');
    expect(() => stormPath('pusher')).toThrow(/GREENROOM_BENCH_STORM_PATH: must be socket or webhook/);
  });
});

describe('stormTimings with the live socket', () => {
  it('times a message from its frame, not its webhook’s handover, and takes the first receipt', () => {
    const timings = stormTimings({
      sent: new Map([['a', 100]]),
      findings: { dom: new Map([['a', 160]]), received: new Map([['a', 1]]), arrived: new Map([['a', 150]]) },
      stopAtMs: 1_000,
      journal: new Map([
        ['live-socket:a', { chatId: 'a', receivedAtMs: 130 }],
        ['webhook-a', { chatId: 'a', receivedAtMs: 400 }],
      ]),
      attempts: new Map([['webhook-a', 390]]),
      queued: new Map([['webhook-a', 5]]),
      frames: new Map([['a', 120]]),
    });
    expect(timings).toMatchObject({ latency: [40], sendToStart: [20], startToReceipt: [10], receiptToDom: [30] });
  });
});
