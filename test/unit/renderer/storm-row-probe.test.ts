/**
 * The chat storm's row probe (`ROW_PROBE`, bench/lib/storm-duplicates.ts) in a page: each chat row entering the
 * log is noted with the row above it and how many rows of its message the log then holds, rows added in one
 * batch included.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ROW_PROBE } from '../../../bench/lib/storm-duplicates';

interface Probe {
  recording: boolean;
  drain(): (string | number | null)[];
}
const probe = (): Probe => (globalThis as unknown as { __benchRows: Probe }).__benchRows;

function row(id: string): HTMLElement {
  const wrapper = document.createElement('div');
  wrapper.className = 'log-row';
  const article = document.createElement('article');
  article.dataset.messageId = id;
  wrapper.append(article);
  return wrapper;
}

/** MutationObserver callbacks run as a microtask after the change. */
const settled = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

describe('the storm’s row probe', () => {
  let log: HTMLElement;
  beforeAll(() => {
    document.body.innerHTML = '<div role="log" aria-label="Chat messages"></div>';
    log = document.querySelector('[role="log"]')!;
    // The probe is the benchmark's own page script, run here as the page runs it.
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    (new Function(ROW_PROBE) as () => void)();
    probe().recording = true;
  });

  it('notes each row with the row above it and the rows of its message, one batch or several', async () => {
    log.append(row('m1'));
    await settled();
    // One batch: a new line, a second row of m1, and another new line.
    log.append(row('m2'), row('m1'), row('m3'));
    await settled();
    expect(probe().drain()).toEqual(['m1', null, 1, 'm2', 'm1', 1, 'm1', 'm2', 2, 'm3', 'm1', 1]);
  });

  it('counts rows only in the log, and notes nothing while not recording', async () => {
    const elsewhere = document.createElement('section');
    document.body.append(elsewhere);
    elsewhere.append(row('m4'));
    log.append(row('m4'));
    await settled();
    expect(probe().drain()).toEqual(['m4', 'm3', 1]);
    probe().recording = false;
    log.append(row('m5'));
    await settled();
    expect(probe().drain()).toEqual([]);
  });
});
