/**
 * The chat log's row offsets, kept from one update to the next.
 * In a raid the list gains a few rows at the end and loses as many at the start every frame, and only rows near
 * the view are measured; recomputing every row's top for every update was a few percent of the page's busy time.
 * Here an update costs the rows that arrived, the rows that left, and the rows after the highest one whose height
 * changed (near the end while chat is live). Anything else (a filter, a search, rows inserted in the middle) is
 * seen by comparing the kept ids and rebuilds the offsets in full, so the result is always that of a rebuild.
 */

/** Offsets as `computeWindow` reads them: row i's top is `offsets[i] - base`, the total `offsets[count] - base`. */
export interface OffsetsView {
  offsets: Float64Array;
  base: number;
  count: number;
}

export class RowOffsets {
  /** Row ids, heights and prefix offsets from `#start`; offsets has one more entry than there are rows. */
  #ids: string[] = [];
  #heights = new Float64Array(64);
  #offsets = new Float64Array(65);
  #start = 0;
  #end = 0;
  /** Id → absolute index in the arrays, for re-measured rows. */
  #index = new Map<string, number>();
  /** Rows recomputed by the last update (for tests and the curious). */
  lastWork = 0;

  /**
   * Brings the offsets up to `rows` (in order, each with a unique id). `heightOf(i)` is row i's height now; `changed` names rows
   * whose height changed since the last update.
   */
  update(
    rows: readonly { messageId: string }[],
    heightOf: (index: number) => number,
    changed: ReadonlySet<string>,
  ): OffsetsView {
    const drop = this.#ids[this.#start] === undefined ? -1 : this.#dropToMatch(rows);
    if (drop < 0) {
      this.#rebuild(rows, heightOf);
    } else {
      for (let i = this.#start; i < this.#start + drop; i++) {
        this.#index.delete(this.#ids[i]!);
      }
      this.#start += drop;
      this.#ensureCapacity(this.#start + rows.length);
      const kept = this.#end - this.#start;
      let from = this.#end;
      for (const id of changed) {
        const at = this.#index.get(id);
        if (at !== undefined) {
          this.#heights[at] = heightOf(at - this.#start);
          from = Math.min(from, at);
        }
      }
      for (let i = kept; i < rows.length; i++) {
        const at = this.#start + i;
        const id = rows[i]!.messageId;
        this.#ids[at] = id;
        this.#index.set(id, at);
        this.#heights[at] = heightOf(i);
      }
      this.#end = this.#start + rows.length;
      this.#ids.length = this.#end;
      this.#sum(from);
    }
    return { offsets: this.#offsets.subarray(this.#start), base: this.#offsets[this.#start]!, count: rows.length };
  }

  /** The height the offsets hold for row `id`, or undefined when it is not among the rows. */
  height(id: string): number | undefined {
    const at = this.#index.get(id);
    return at === undefined ? undefined : this.#heights[at];
  }

  /** How many rows left at the start, if what is kept is unchanged and in order; -1 when it is not. */
  #dropToMatch(rows: readonly { messageId: string }[]): number {
    const first = rows[0]?.messageId;
    let drop = 0;
    while (this.#start + drop < this.#end && this.#ids[this.#start + drop] !== first) {
      drop++;
    }
    const kept = this.#end - this.#start - drop;
    if (rows.length === 0) {
      return this.#end - this.#start;
    }
    if (kept <= 0 || kept > rows.length) {
      return -1;
    }
    for (let i = 0; i < kept; i++) {
      if (this.#ids[this.#start + drop + i] !== rows[i]!.messageId) {
        return -1;
      }
    }
    return drop;
  }

  #rebuild(rows: readonly { messageId: string }[], heightOf: (index: number) => number): void {
    this.#ids = rows.map((row) => row.messageId);
    this.#start = 0;
    this.#end = rows.length;
    this.#index = new Map(this.#ids.map((id, i) => [id, i]));
    this.#heights = new Float64Array(Math.max(64, rows.length * 2));
    this.#offsets = new Float64Array(this.#heights.length + 1);
    for (let i = 0; i < rows.length; i++) {
      this.#heights[i] = heightOf(i);
    }
    this.#sum(0);
  }

  /** Recomputes the offsets after row `from` (absolute). */
  #sum(from: number): void {
    this.lastWork = this.#end - from;
    for (let i = from; i < this.#end; i++) {
      this.#offsets[i + 1] = this.#offsets[i]! + this.#heights[i]!;
    }
  }

  /** Room for rows up to `end`: the dropped start is shed first, and the arrays doubled only when still full. */
  #ensureCapacity(end: number): void {
    if (end <= this.#heights.length) {
      return;
    }
    const count = this.#end - this.#start;
    const size = Math.max(64, (end - this.#start) * 2);
    const heights = new Float64Array(size);
    const offsets = new Float64Array(size + 1);
    heights.set(this.#heights.subarray(this.#start, this.#end));
    offsets.set(this.#offsets.subarray(this.#start, this.#end + 1));
    this.#ids = this.#ids.slice(this.#start, this.#end);
    for (let i = 0; i < count; i++) {
      this.#index.set(this.#ids[i]!, i);
    }
    this.#heights = heights;
    this.#offsets = offsets;
    this.#start = 0;
    this.#end = count;
  }
}
