/**
 * The alert box's queue, kept in main so every alert overlay plays the same alert, one at a time, in the
 * order Kick's events arrived (docs/overlays.md, "Alerts"):
 *
 * - An alert is current until an overlay reports it done (or its duration plus a grace period passes while
 *   an overlay is open, for an overlay that closed mid-alert); then the next one starts. With no alert
 *   overlay open the queue waits, so OBS opening the source later still plays what came in.
 * - Every alert that leaves the queue for good (shown, skipped by its template, too old, cleared) is
 *   recorded as handled (`alert-progress.ts`), an alert on screen as it goes to an open overlay, so one cut
 *   off by a restart is not played twice. At start the journal is replayed through `replay()`; what comes
 *   after the last handled alert is queued again, everything up to it is not. With no record yet (the first
 *   start with overlays) the replay queues nothing: a streamer's first alert box does not play history.
 * - A template's minimum and on/off switch are read when an alert is about to play, so a change applies to
 *   the queue at once.
 * - The panel controls it (docs/overlays.md#controlling-the-alert-queue): Pause holds the next alert (the
 *   one on screen finishes), Skip ends the one on screen, Clear ends it and empties the queue, and Replay
 *   puts a copy of an earlier alert first in line. An alert whose event is older than the set age
 *   (`maxAgeMs`, by the event's own time, `alert-time.ts`) is dropped and listed, never played late: when its
 *   turn comes, and while it waits (paused, or no alert box open), so the count waiting stays true. Test
 *   alerts and replays are copies: never recorded, never too old. An alert whose event Kick delivered past the
 *   "late" age is listed beside them with how late the late gate found it, never played (`late()`).
 * - The log says what was dropped for age in one line per burst; with no alert box open, once, until one opens.
 */
import type { AlertKind, AlertQueueView, AlertTemplate, AlertView, OverlaySettings } from '../../shared/overlays';
import { alertViewOf } from '../../shared/alert-view';
import type { Clock } from '../core/clock';
import { type SetTimer, type Timer, unrefTimer } from '../core/scheduler';
import { plural } from '../../shared/plural';
import { AlertLine } from './alert-line';
import { AlertProgressKeeper, type AlertProgressStore } from './alert-progress';
import type { AlertSource } from '../services/alert-source';
import { BurstLog } from './burst-log';
import { RedemptionsSeen } from './redemptions-seen';
import { TooOldAlerts } from './too-old-alerts';

export type { AlertProgress, AlertProgressStore } from './alert-progress';

export interface AlertQueueDeps {
  clock: Clock;
  templates: () => OverlaySettings['alerts'];
  /** The set age: an alert whose event is older is dropped, not played. Read each time, so a change applies at once. */
  maxAgeMs: () => number;
  /** The URL an overlay loads a stored media file from. */
  mediaUrl: (name: string) => string;
  progress: AlertProgressStore;
  /** Sends the alert to every alert overlay open now. */
  onShow: (alert: AlertView) => void;
  /** The alert on screen was skipped or cleared: every overlay takes it down now. */
  onEnd?: (id: string) => void;
  /** What the panel shows of the queue changed (`view()`). */
  onChange?: () => void;
  log: (line: string) => void;
  /** Alerts waiting at most; beyond, the oldest is dropped and logged. */
  maxPending?: number;
  /** Added to an alert's duration before it counts as shown without an overlay's word. */
  graceMs?: number;
  /** Timers (an alert's end without an overlay's word, an alert growing too old while it waits); unref'd ones by default. */
  setTimer?: SetTimer;
}

const SAMPLE_FIELDS: Record<AlertKind, Record<string, string>> = {
  follow: { user: 'TestViewer' },
  subscription: { user: 'TestViewer', months: '1' },
  renewal: { user: 'TestViewer', months: '6' },
  'gifted-subs': { user: 'TestViewer', count: '5' },
  kicks: { user: 'TestViewer', amount: '100', message: 'Test KICKs' },
  redemption: { user: 'TestViewer', reward: 'Hydrate', message: '' },
  live: { title: 'Test stream' },
  raid: { user: 'TestViewer', viewers: '120' },
};

export class AlertQueue {
  readonly #options: AlertQueueDeps;
  readonly #graceMs: number;
  readonly #setTimer: SetTimer;
  readonly #pending: AlertLine;
  #current: { source: AlertSource; view: AlertView } | null = null;
  readonly #progress: AlertProgressKeeper;
  #replaying = true;
  #foundLastShown = false;
  #audience = 0;
  #paused = false;
  #timer: Timer | null = null;
  #expiryTimer: Timer | null = null;
  #copies = 0;
  /** The newest real alert that left the line since the last `#settle`: recorded once, at its end. */
  #handled: AlertSource | undefined;
  readonly #tooOld = new TooOldAlerts();
  readonly #redemptions = new RedemptionsSeen();
  /** One log line per burst of alerts dropped for age, and one per burst past the line's limit. */
  readonly #tooOldLog: BurstLog;
  readonly #lateLog: BurstLog;
  readonly #overflowLog: BurstLog;
  /**
   * Said, since the last alert box closed (or since start), that alerts are dropped for age with none open: a
   * streamer who uses no alert box would otherwise read a drop line for every follow, one burst after another.
   */
  #saidNoAudience = false;
  /**
   * The settle that ends the replay: what the journal brought back too old goes before any alert box could have
   * reconnected, so it is counted in the usual line, not taken for a streamer without one.
   */
  #endingReplay = false;

  constructor(options: AlertQueueDeps) {
    this.#options = options;
    this.#graceMs = options.graceMs ?? 5000;
    this.#setTimer = options.setTimer ?? unrefTimer;
    const maxPending = options.maxPending ?? 200;
    this.#tooOldLog = new BurstLog({
      setTimer: this.#setTimer,
      write: (n) =>
        options.log(
          `alerts: dropped ${plural(n, 'alert')} older than ${options.maxAgeMs() / 1000} s rather than play ${n === 1 ? 'it' : 'them'} late (the panel lists ${n === 1 ? 'it' : 'them'})`,
        ),
    });
    // Not "older than the set age": the late age held these back, by how late Kick delivered them.
    this.#lateLog = new BurstLog({
      setTimer: this.#setTimer,
      write: (n) =>
        options.log(
          `alerts: did not play ${plural(n, 'alert')} whose ${n === 1 ? 'event' : 'events'} Kick delivered late (the panel lists ${n === 1 ? 'it' : 'them'})`,
        ),
    });
    this.#overflowLog = new BurstLog({
      setTimer: this.#setTimer,
      write: (n) =>
        options.log(`alerts: more than ${maxPending} alerts waiting; dropped the oldest ${plural(n, 'alert')}`),
    });
    this.#pending = new AlertLine(maxPending, () => this.#overflowLog.add());
    this.#progress = new AlertProgressKeeper(options.progress, options.log);
  }

  /** A journal record at start-up, oldest first. */
  replay(source: AlertSource): void {
    if (!this.#redemptions.isFirst(source)) {
      return;
    }
    if (source.id === this.#progress.record?.lastShownId) {
      // Everything up to here was shown before the restart.
      this.#pending.clear();
      this.#foundLastShown = true;
      return;
    }
    this.#pending.push({ source, copy: false });
  }

  /** The replay is over: keep only what was not shown, then play. */
  endReplay(): void {
    this.#replaying = false;
    const record = this.#progress.record;
    if (record === null) {
      this.#pending.clear();
    } else if (!this.#foundLastShown) {
      // The last shown alert's record is gone from the journal (trimmed): fall back on arrival time.
      const after = record.lastShownAtMs;
      this.#pending.filter((source) => source.receivedAtMs > after);
    }
    this.#endingReplay = true;
    try {
      this.#settle();
    } finally {
      this.#endingReplay = false;
    }
  }

  /** A live event's alert. */
  offer(source: AlertSource): void {
    if (this.#redemptions.isFirst(source)) {
      this.#pending.push({ source, copy: false });
      this.#settle();
    }
  }

  /**
   * A live event Kick delivered past the streamer's "late" age ([late events](../../docs/design-notes.md#late-events)):
   * never played, but listed with the alerts too old to play, so the streamer still sees what was held back.
   * `lateByMs` is how late the late gate found it: the alert's own time cannot say it for an event whose
   * payload has no time (a follow), which the gate judges by Kick's delivery delay (electron/app/delivery-delay.ts).
   */
  late(source: AlertSource, lateByMs: number): void {
    if (!this.#redemptions.isFirst(source)) {
      return;
    }
    const ageMs = Number.isFinite(lateByMs) ? Math.max(0, lateByMs) : 0;
    this.#tooOld.add(source, ageMs, this.#view(source, this.#options.templates()[source.kind]).text, 'late-age');
    this.#lateLog.add(1);
    this.#options.onChange?.();
  }

  /** A test alert from the panel: queued like a real one, never remembered as shown. */
  test(kind: AlertKind): void {
    this.#copies += 1;
    const now = this.#options.clock.now();
    this.#pending.push({
      source: {
        id: `test-${now}-${this.#copies}`,
        kind,
        fields: SAMPLE_FIELDS[kind],
        amount: Number.MAX_SAFE_INTEGER,
        receivedAtMs: now,
        eventAtMs: now,
      },
      copy: true,
    });
    this.#settle();
  }

  /**
   * "Replay alert": a copy of an earlier alert, first in line (after the one on screen), under an id of its
   * own so an overlay plays it again. It plays whatever its age, minimum or switch: the streamer asked for it.
   */
  playAgain(source: AlertSource): void {
    this.#copies += 1;
    this.#pending.pushFirst({ source: { ...source, id: `again-${this.#copies}-${source.id}` }, copy: true });
    this.#settle();
  }

  /** Pause holds the next alert (the one on screen finishes); resume plays on. Returns whether it changed. */
  setPaused(paused: boolean): boolean {
    if (this.#paused === paused) {
      return false;
    }
    this.#paused = paused;
    this.#settle();
    return true;
  }

  /** Ends the alert on screen now; with `id`, only that one (not one that started since). Whether one ended. */
  skip(id?: string): boolean {
    const current = this.#current;
    if (!current || (id !== undefined && current.view.id !== id)) {
      return false;
    }
    this.#end(current.view.id);
    this.#settle();
    return true;
  }

  /** Ends the alert on screen and drops every waiting one; returns how many went. */
  clear(): number {
    const count = this.#pending.length + (this.#current ? 1 : 0);
    this.#handled = this.#pending.clear() ?? this.#handled;
    if (this.#current) {
      this.#end(this.#current.view.id);
    }
    this.#settle();
    return count;
  }

  /** The set age or a template may have changed: drop what is now too old, play what may now play. */
  recheck(): void {
    this.#settle();
  }

  /** Empties the too-old list once the streamer has read it. */
  dismissTooOld(): void {
    if (this.#tooOld.dismiss()) {
      this.#options.onChange?.();
    }
  }

  /** The alert playing now, for an overlay that opens mid-alert. */
  current(): AlertView | null {
    return this.#current?.view ?? null;
  }

  /** Alerts waiting behind the current one. */
  waiting(): number {
    return this.#pending.length;
  }

  /** What the panel shows of the queue. */
  view(): Pick<AlertQueueView, 'paused' | 'current' | 'waiting' | 'tooOld'> {
    const current = this.#current?.view;
    return {
      paused: this.#paused,
      current: current ? { id: current.id, kind: current.kind, text: current.text } : null,
      waiting: this.#pending.length,
      tooOld: this.#tooOld.view(),
    };
  }

  /** An overlay finished showing `id`; a stale or repeated report is ignored. */
  done(id: string): void {
    const current = this.#current;
    if (!current || current.view.id !== id) {
      return;
    }
    this.#timer?.cancel();
    this.#current = null;
    this.#settle();
  }

  /** How many alert overlays are open; alerts play only while at least one is. */
  setAudience(count: number): void {
    const before = this.#audience;
    this.#audience = count;
    if (count > 0) {
      this.#saidNoAudience = false;
    }
    if (count === 0) {
      this.#timer?.cancel();
    } else if (before === 0 && this.#current) {
      this.#arm(this.#current.view);
    }
    this.#settle();
  }

  stop(): void {
    this.#timer?.cancel();
    this.#expiryTimer?.cancel();
    this.#tooOldLog.flush();
    this.#lateLog.flush();
    this.#overflowLog.flush();
  }

  /** After every change: drop what is too old, start the next alert if one may play, tell the panel. */
  #settle(): void {
    if (this.#replaying) {
      return;
    }
    this.#dropTooOld();
    this.#advance();
    this.#progress.remember(this.#handled);
    this.#handled = undefined;
    this.#watchExpiry();
    this.#options.onChange?.();
  }

  #advance(): void {
    if (this.#current || this.#audience === 0 || this.#paused) {
      return;
    }
    const templates = this.#options.templates();
    for (let entry = this.#pending.shift(); entry; entry = this.#pending.shift()) {
      const { source, copy } = entry;
      const template = templates[source.kind];
      if (!copy) {
        this.#handled = source;
        if (!template.enabled || source.amount < template.minAmount) {
          // One its template passes over may have hidden a too-old one behind it from `#dropTooOld`.
          this.#dropTooOld();
          continue;
        }
      }
      const view = this.#view(source, template);
      this.#current = { source, view };
      this.#options.onShow(view);
      this.#arm(view);
      return;
    }
  }

  /** Drops and lists the waiting alerts that grew too old (alert-line.ts says which may go). */
  #dropTooOld(): void {
    const maxAgeMs = this.#options.maxAgeMs();
    const dropped = this.#pending.dropTooOld(this.#options.clock.now(), maxAgeMs);
    if (dropped.length === 0) {
      return;
    }
    const templates = this.#options.templates();
    for (const { source, ageMs } of dropped) {
      this.#tooOld.add(source, ageMs, this.#view(source, templates[source.kind]).text, 'alert-age');
    }
    this.#handled = dropped.at(-1)!.source;
    if (this.#audience > 0 || this.#endingReplay) {
      this.#tooOldLog.add(dropped.length);
    } else if (!this.#saidNoAudience) {
      this.#saidNoAudience = true;
      this.#tooOldLog.flush();
      this.#options.log(
        `alerts: no alert box is open, so alerts waiting longer than ${maxAgeMs / 1000} s are dropped rather than played late (the panel lists them); said once, until an alert box has opened`,
      );
    }
  }

  /** While alerts wait, wakes when the first in line grows too old, so it goes then and not at its turn. */
  #watchExpiry(): void {
    this.#expiryTimer?.cancel();
    this.#expiryTimer = null;
    const eventAtMs = this.#pending.firstEventAtMs();
    if (eventAtMs !== null) {
      const dueMs = eventAtMs + this.#options.maxAgeMs() - this.#options.clock.now();
      this.#expiryTimer = this.#setTimer(() => this.#settle(), Math.max(1, dueMs));
    }
  }

  /** Ends the alert on screen without an overlay's word, and takes it down in every overlay. */
  #end(id: string): void {
    this.#timer?.cancel();
    this.#current = null;
    this.#options.onEnd?.(id);
  }

  #arm(view: AlertView): void {
    this.#timer?.cancel();
    this.#timer = this.#setTimer(() => this.done(view.id), view.durationMs + this.#graceMs);
  }

  #view(source: AlertSource, template: AlertTemplate): AlertView {
    // The design, the variation by amount and the plurals: docs/overlays.md#alert-designs.
    return alertViewOf(source, template, this.#options.mediaUrl);
  }
}
