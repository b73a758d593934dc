/**
 * The alert box's queue, kept in main so every alert overlay plays the same alert, one at a time, in the
 * order Kick's events arrived (docs/overlays.md, "Alerts"):
 *
 * - An alert is current until an overlay reports it done (or its duration plus a grace period passes while
 *   an overlay is open, for an overlay that closed mid-alert); then the next one starts. With no alert
 *   overlay open the queue waits, so OBS opening the source later still plays what came in.
 * - Shown is remembered as the last shown alert's id (`AlertProgressStore`), written when the alert goes
 *   to an open overlay: one cut off by a restart is not played twice. Alerts play in arrival order, so
 *   everything before it was shown too. At start the journal is replayed through `replay()`; what comes
 *   after the last shown alert is queued again, everything up to it is not. With no record yet (the first
 *   start with overlays) the replay queues nothing: a streamer's first alert box does not play history.
 * - A template's minimum and on/off switch are read when an alert is about to play, so a change applies to
 *   the queue at once. Alerts older than `staleMs` are skipped rather than shown long after the fact.
 */
import type { AlertKind, AlertTemplate, AlertView, OverlaySettings } from '../../shared/overlays';
import { fillTemplate } from '../../shared/overlays';
import type { Clock } from '../core/clock';
import type { AlertSource } from './alert-source';

/** The last alert shown: its id and when its event arrived. */
export interface AlertProgress {
  lastShownId: string;
  lastShownAtMs: number;
}

/** Where the progress is kept; `write` replaces it whole (a crash leaves the old or the new record). */
export interface AlertProgressStore {
  read(): AlertProgress | null;
  write(progress: AlertProgress): void;
}

export interface AlertQueueOptions {
  clock: Clock;
  templates: () => OverlaySettings['alerts'];
  /** The URL an overlay loads a stored media file from. */
  mediaUrl: (name: string) => string;
  progress: AlertProgressStore;
  /** Sends the alert to every alert overlay open now. */
  onShow: (alert: AlertView) => void;
  log: (line: string) => void;
  /** Alerts waiting at most; beyond, the oldest is dropped and logged. */
  maxPending?: number;
  /** An alert whose event is older than this when its turn comes is skipped. */
  staleMs?: number;
  /** Added to an alert's duration before it counts as shown without an overlay's word. */
  graceMs?: number;
}

const SAMPLE_FIELDS: Record<AlertKind, Record<string, string>> = {
  follow: { user: 'TestViewer' },
  subscription: { user: 'TestViewer', months: '1' },
  renewal: { user: 'TestViewer', months: '6' },
  'gifted-subs': { user: 'TestViewer', count: '5' },
  kicks: { user: 'TestViewer', amount: '100', message: 'Test KICKs' },
  redemption: { user: 'TestViewer', reward: 'Hydrate', message: '' },
  live: { title: 'Test stream' },
};

export class AlertQueue {
  readonly #options: AlertQueueOptions;
  readonly #maxPending: number;
  readonly #staleMs: number;
  readonly #graceMs: number;
  #pending: AlertSource[] = [];
  #current: { source: AlertSource; view: AlertView } | null = null;
  #progress: AlertProgress | null;
  #replaying = true;
  #foundLastShown = false;
  #audience = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #testCount = 0;
  /** Redemptions already alerted, so an accept or reject (a new delivery of the same redemption) is quiet. */
  readonly #redemptions = new Set<string>();

  constructor(options: AlertQueueOptions) {
    this.#options = options;
    this.#maxPending = options.maxPending ?? 200;
    this.#staleMs = options.staleMs ?? 60 * 60 * 1000;
    this.#graceMs = options.graceMs ?? 5000;
    this.#progress = options.progress.read();
  }

  /** A journal record at start-up, oldest first. */
  replay(source: AlertSource): void {
    if (!this.#firstOfRedemption(source)) {
      return;
    }
    if (source.id === this.#progress?.lastShownId) {
      // Everything up to here was shown before the restart.
      this.#pending = [];
      this.#foundLastShown = true;
      return;
    }
    this.#push(source);
  }

  /** The replay is over: keep only what was not shown, then play. */
  endReplay(): void {
    this.#replaying = false;
    if (this.#progress === null) {
      this.#pending = [];
    } else if (!this.#foundLastShown) {
      // The last shown alert's record is gone from the journal (trimmed): fall back on arrival time.
      const after = this.#progress.lastShownAtMs;
      this.#pending = this.#pending.filter((source) => source.receivedAtMs > after);
    }
    this.#advance();
  }

  /** A live event's alert. */
  offer(source: AlertSource): void {
    if (this.#firstOfRedemption(source)) {
      this.#push(source);
      this.#advance();
    }
  }

  /** A test alert from the panel: queued like a real one, never remembered as shown. */
  test(kind: AlertKind): void {
    this.#testCount += 1;
    this.#push({
      id: `test-${this.#options.clock.now()}-${this.#testCount}`,
      kind,
      fields: SAMPLE_FIELDS[kind],
      amount: Number.MAX_SAFE_INTEGER,
      receivedAtMs: this.#options.clock.now(),
    });
    this.#advance();
  }

  /** The alert playing now, for an overlay that opens mid-alert. */
  current(): AlertView | null {
    return this.#current?.view ?? null;
  }

  /** Alerts waiting behind the current one. */
  waiting(): number {
    return this.#pending.length;
  }

  /** An overlay finished showing `id`; a stale or repeated report is ignored. */
  done(id: string): void {
    const current = this.#current;
    if (!current || current.view.id !== id) {
      return;
    }
    clearTimeout(this.#timer);
    this.#current = null;
    this.#advance();
  }

  /** How many alert overlays are open; alerts play only while at least one is. */
  setAudience(count: number): void {
    const before = this.#audience;
    this.#audience = count;
    if (count === 0) {
      clearTimeout(this.#timer);
    } else if (before === 0 && this.#current) {
      this.#arm(this.#current.view);
    } else {
      this.#advance();
    }
  }

  stop(): void {
    clearTimeout(this.#timer);
  }

  #firstOfRedemption(source: AlertSource): boolean {
    if (source.redemptionId === undefined) {
      return true;
    }
    if (this.#redemptions.has(source.redemptionId)) {
      return false;
    }
    this.#redemptions.add(source.redemptionId);
    if (this.#redemptions.size > 10_000) {
      this.#redemptions.delete(this.#redemptions.values().next().value!);
    }
    return true;
  }

  #push(source: AlertSource): void {
    this.#pending.push(source);
    if (this.#pending.length > this.#maxPending) {
      const dropped = this.#pending.shift()!;
      this.#options.log(`alerts: more than ${this.#maxPending} alerts waiting; dropped the oldest (${dropped.kind})`);
    }
  }

  #advance(): void {
    if (this.#replaying || this.#current || this.#audience === 0) {
      return;
    }
    const templates = this.#options.templates();
    const now = this.#options.clock.now();
    while (this.#pending.length > 0) {
      const source = this.#pending.shift()!;
      const template = templates[source.kind];
      if (!template.enabled || source.amount < template.minAmount || now - source.receivedAtMs > this.#staleMs) {
        continue;
      }
      const view = this.#view(source, template);
      this.#current = { source, view };
      this.#remember(source);
      this.#options.onShow(view);
      this.#arm(view);
      return;
    }
  }

  #remember(source: AlertSource): void {
    if (source.id.startsWith('test-')) {
      return;
    }
    this.#progress = { lastShownId: source.id, lastShownAtMs: source.receivedAtMs };
    try {
      this.#options.progress.write(this.#progress);
    } catch (error) {
      this.#options.log(
        `alerts: could not record the shown alert (${String(error)}); it may play again after a restart`,
      );
    }
  }

  #arm(view: AlertView): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.done(view.id), view.durationMs + this.#graceMs);
    this.#timer.unref?.();
  }

  #view(source: AlertSource, template: AlertTemplate): AlertView {
    return {
      id: source.id,
      kind: source.kind,
      text: fillTemplate(template.text, source.fields),
      image: template.image === null ? null : this.#options.mediaUrl(template.image),
      sound: template.sound === null ? null : this.#options.mediaUrl(template.sound),
      durationMs: template.durationMs,
    };
  }
}
