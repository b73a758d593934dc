/**
 * What the "webhooks behind" journey shares: how far behind Kick's webhooks run (the real ten minutes
 * unless a developer shortens it while iterating), the "late" age that goes with it, and the page script
 * that watches every chat row the panel ever renders.
 */

/**
 * Seconds the sandbox holds every webhook. `GREENROOM_JOURNEY_WEBHOOK_DELAY_S` shortens it for a quick run
 * (at least 45: past the shortest "late" age and the app's ordinary delivery time).
 */
export const DELAY_S = (() => {
  const raw = process.env.GREENROOM_JOURNEY_WEBHOOK_DELAY_S;
  const seconds = raw === undefined || raw === '' ? 600 : Number(raw);
  if (!Number.isInteger(seconds) || seconds < 45 || seconds > 3600) {
    throw new Error(`GREENROOM_JOURNEY_WEBHOOK_DELAY_S must be a whole number of seconds from 45 to 3600, not ${raw}`);
  }
  return seconds;
})();

/** The streamer's "late" age: the default two minutes, or the shortest one allowed when the delay is short. */
export const LATE_AFTER_S = DELAY_S > 180 ? 120 : 30;

export interface SandboxChat {
  messages: { message_id: string; content: string; type: string; deleted: boolean }[];
}

export interface HeldDeliveries {
  pending: number;
  messages: { event_type: string; payload: Record<string, unknown> }[];
}

/** What the page saw: each chat row element once, when it first appeared. */
export interface ChatWatch {
  rows: { id: string; deleted: boolean; at: number }[];
  /** Message ids ever on the page as a row not marked deleted. */
  shown: string[];
  /** The most rows for one message id on the page at once. */
  mostCopies: number;
}

/**
 * Installed before the panel's own script: on every change to the page, each chat row (a new element is a
 * new row, even for an id seen before), whether it was ever there not marked deleted, and the most rows
 * one message id had at once. A MutationObserver runs before the page paints, so a row that is on screen
 * for one frame is seen.
 */
export const WATCH_CHAT = `
  window.__chat = { rows: [], shown: [], mostCopies: 0 };
  const seen = new WeakSet();
  const shown = new Set();
  new MutationObserver(() => {
    const copies = new Map();
    for (const row of document.querySelectorAll('article.msg[data-message-id]')) {
      const id = row.getAttribute('data-message-id');
      const deleted = row.classList.contains('deleted');
      copies.set(id, (copies.get(id) ?? 0) + 1);
      if (!seen.has(row)) {
        seen.add(row);
        window.__chat.rows.push({ id, deleted, at: Date.now() });
      }
      if (!deleted && !shown.has(id)) {
        shown.add(id);
        window.__chat.shown.push(id);
      }
    }
    for (const count of copies.values()) {
      window.__chat.mostCopies = Math.max(window.__chat.mostCopies, count);
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
`;
