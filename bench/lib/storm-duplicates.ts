/**
 * The chat storm's duplicate count (`chat-duplicates`, bench/chat-storm.ts): with the live socket on, every
 * storm message comes twice, its socket frame and its signed webhook, and the streamer must still see one line.
 *
 * In the page (`ROW_PROBE`, installed beside `page-probe.ts`'s), each chat row entering the log is noted with
 * the row just above it and how many rows for its message are in the log at that moment. In Node
 * (`countDuplicates`), a row is a second showing of its message when
 * - another row for the same message is in the log beside it, or
 * - the row above it is a message that reached the page after this one first did: the panel appends a line
 *   it is given below everything already there, while a row the log scrolls back into view (it renders only
 *   rows in view) comes back among the lines of its own time.
 * A message the app sent to the page twice (`page-probe.ts` counts each receipt) counts too, even when the
 * panel's own guard kept it to one row: that guard only covers its scrollback, so with webhooks minutes
 * behind the same mistake would be a second line. Per message, the larger of the two counts.
 *
 * The page keeps no map of ids (the storm measures its heap): it sends its notes to Node every second.
 */

/** Plain browser JavaScript, run in the page before the panel's scripts. */
export const ROW_PROBE = `(() => {
  const r = (window.__benchRows = {
    recording: false,
    rows: [],
    drain() {
      const out = r.rows;
      r.rows = [];
      return out;
    },
  });
  const log = () => document.querySelector('[role="log"][aria-label="Chat messages"]');
  // The row above: the nearest earlier sibling (of the row's wrapper in the log) holding a chat message.
  const above = (article, container) => {
    let wrapper = article;
    while (wrapper.parentElement && wrapper.parentElement !== container) wrapper = wrapper.parentElement;
    for (let el = wrapper.previousElementSibling; el; el = el.previousElementSibling) {
      const found = el.matches('article[data-message-id]') ? el : el.querySelector('article[data-message-id]');
      if (found) return found.getAttribute('data-message-id');
    }
    return null;
  };
  // Rows per message in the log, counted once per callback: the DOM does not change while the callback runs, so
  // every row added in one batch sees the same counts (counting again for each row cost the page a query per row).
  const counts = (container) => {
    const byId = new Map();
    for (const el of container.querySelectorAll('article[data-message-id]')) {
      const id = el.getAttribute('data-message-id');
      byId.set(id, (byId.get(id) || 0) + 1);
    }
    return byId;
  };
  const note = (article, container, byId) => {
    const id = article.getAttribute('data-message-id');
    if (!article.isConnected || !container.contains(article)) return;
    r.rows.push(id, above(article, container), byId.get(id) || 0);
  };
  const observer = new MutationObserver((records) => {
    if (!r.recording) return;
    const container = log();
    if (!container) return;
    let byId = null;
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType !== 1) continue;
        const rows = node.matches('article[data-message-id]') ? [node] : [];
        for (const el of node.querySelectorAll('article[data-message-id]')) rows.push(el);
        if (rows.length === 0) continue;
        byId ??= counts(container);
        for (const el of rows) note(el, container, byId);
      }
    }
  });
  const observe = () => observer.observe(document.documentElement, { childList: true, subtree: true });
  if (document.documentElement) observe(); else document.addEventListener('DOMContentLoaded', observe);
})();`;

/** One drain of `ROW_PROBE`: per row that entered the log, its message id, the row above's (or null), rows of it. */
export type RowDrain = (string | number | null)[];

export interface RowEntry {
  id: string;
  above: string | null;
  /** Rows for this message in the log as it entered (itself included). */
  same: number;
}

/** Every row that entered the log while recording, gathered from the drains. */
export class RowFindings {
  readonly entries: RowEntry[] = [];

  add(drain: RowDrain): void {
    for (let i = 0; i + 2 < drain.length; i += 3) {
      this.entries.push({ id: drain[i] as string, above: drain[i + 1] as string | null, same: drain[i + 2] as number });
    }
  }
}

export interface DuplicateCount {
  /** Per message, the larger of its rows shown again and its extra receipts; summed (the figure). */
  total: number;
  /** Rows shown again, all messages. */
  rowsAgain: number;
  /** Receipts on the panel socket beyond each message's first, all messages. */
  receivedAgain: number;
  /** A few of the messages counted, for stderr. */
  examples: string[];
}

/**
 * Counts second showings among `messages` (the storm's ids), from the rows that entered the log, the first
 * time each message reached the page (`arrived`) and how often it was received.
 */
export function countDuplicates(
  messages: Iterable<string>,
  rows: readonly RowEntry[],
  arrived: ReadonlyMap<string, number>,
  received: ReadonlyMap<string, number>,
): DuplicateCount {
  const again = new Map<string, number>();
  for (const { id, above, same } of rows) {
    const first = arrived.get(id);
    const aboveFirst = above === null ? undefined : arrived.get(above);
    const outOfPlace = first !== undefined && aboveFirst !== undefined && aboveFirst > first;
    if (same > 1 || outOfPlace) {
      again.set(id, (again.get(id) ?? 0) + 1);
    }
  }
  const count: DuplicateCount = { total: 0, rowsAgain: 0, receivedAgain: 0, examples: [] };
  for (const id of messages) {
    const rowsAgain = again.get(id) ?? 0;
    const receivedAgain = Math.max(0, (received.get(id) ?? 0) - 1);
    count.rowsAgain += rowsAgain;
    count.receivedAgain += receivedAgain;
    const extra = Math.max(rowsAgain, receivedAgain);
    count.total += extra;
    if (extra > 0 && count.examples.length < 5) {
      count.examples.push(id);
    }
  }
  return count;
}
