/**
 * The chat log's guess at a row's height before the row is drawn, learned from the rows drawn so far, per
 * kind of row. The chat pane tells six kinds apart (`rowKind` in ChatPane.svelte): a plain line, a reply with
 * its quote above it, a chatter's first message of either shape (with its tag above), an inline event, and a
 * moderator's clear. Every new row is measured once it is drawn;
 * when the guess was wrong, the log recomputes its offsets and lays the page out a second time in the same
 * frame. A fixed guess was wrong for nearly every row (28 px against 24 px lines), so in a raid most frames
 * paid that second pass; a learned one is wrong only for the odd row that wraps
 * ([the panel's frame](../../../docs/decisions.md#the-chat-log-guesses-row-heights-from-the-rows-it-drew)).
 */

/** How many recent heights each kind keeps; its guess is the most common of them. */
export const ESTIMATE_WINDOW = 32;

export class RowEstimates {
  readonly #fallback: number;
  /** Kind → its recent measured heights (a ring of ESTIMATE_WINDOW) and the guess they give. */
  readonly #kinds = new Map<string, { recent: number[]; next: number; guess: number }>();

  constructor(fallback: number) {
    this.#fallback = fallback;
  }

  /** The height to assume for a row of `kind` not yet measured. */
  estimate(kind: string): number {
    return this.#kinds.get(kind)?.guess ?? this.#fallback;
  }

  /** A row of `kind` was drawn `height` px tall. */
  learn(kind: string, height: number): void {
    if (!(height > 0)) {
      return;
    }
    let entry = this.#kinds.get(kind);
    if (!entry) {
      entry = { recent: [], next: 0, guess: height };
      this.#kinds.set(kind, entry);
    }
    entry.recent[entry.next] = height;
    entry.next = (entry.next + 1) % ESTIMATE_WINDOW;
    entry.guess = mostCommon(entry.recent, entry.guess);
  }
}

/** The most common value; a tie keeps `current`, so the guess does not flip on every row. */
function mostCommon(values: readonly number[], current: number): number {
  const counts = new Map<number, number>();
  for (const value of values) {
    counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  let best = current;
  let bestCount = counts.get(current) ?? 0;
  for (const [value, count] of counts) {
    if (count > bestCount) {
      best = value;
      bestCount = count;
    }
  }
  return best;
}
