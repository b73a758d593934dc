/**
 * The stream-health warnings that need Kick's side and OBS's side together
 * (docs/obs.md#stream-health-warnings). Pure rules over time: each reading gives `now`, what OBS last said
 * and what Kick says, and the rules answer which warnings show.
 *
 * Each warning is shown once per episode: it appears when its condition has held long enough, stays while
 * the condition holds, and clears when the cause is gone (after a short grace for the dropped-frame share,
 * which hovers around its threshold); its line is logged once, when it appears.
 */
import type { ObsStatsView, StreamWarningKind, StreamWarningView } from '../../shared/obs';

/** More than this share of the frames of the last 30 s dropped is a warning. */
export const DROPPED_PCT_LIMIT = 1;
/** The window the dropped share is taken over, and how long the Kick/OBS mismatches must last. */
export const WARNING_HOLD_MS = 30_000;
/**
 * Under this much free disk where OBS records, a recording is in danger: at a typical 6 Mbit/s a recording
 * uses about 2.7 GiB an hour, so 2 GiB is well under an hour left.
 */
export const DISK_LOW_MB = 2 * 1024;
/** The dropped share must stay at or under the limit this long before its warning clears. */
export const DROPPED_CLEAR_MS = 10_000;

/** What the rules read at one moment. */
export interface WarningInputs {
  now: number;
  /** OBS's websocket is connected now; stats are fresh only then. */
  connected: boolean;
  stats: ObsStatsView | null;
  /** Kick's side (main's live status as Kick confirmed it), or null while unknown. */
  kick: { live: boolean } | null;
  /** While Kick delays its events: by how much (a live-status event may be that late). */
  kickDelayMs: number | null;
}

interface Rule {
  kind: StreamWarningKind;
  /** The condition holds now. */
  holds(inputs: WarningInputs): boolean;
  /** How long it must hold before the warning shows. */
  holdMs(inputs: WarningInputs): number;
  clearMs: number;
  line: string;
}

const streaming = (i: WarningInputs): boolean => i.connected && i.stats !== null && i.stats.stream.active;

export const RULES: readonly Rule[] = [
  {
    kind: 'dropped-frames',
    // The share is over the last 30 s of the stream, so it is judged once the stream is 30 s old.
    holds: (i) =>
      streaming(i) &&
      i.stats!.stream.durationMs >= WARNING_HOLD_MS &&
      i.stats!.droppedPctRecent !== null &&
      i.stats!.droppedPctRecent > DROPPED_PCT_LIMIT,
    holdMs: () => 0,
    clearMs: DROPPED_CLEAR_MS,
    line: 'OBS is dropping frames: more than 1% in the last 30 seconds. Your upload cannot keep up — lower the bitrate in OBS (Settings → Output) or check your connection.',
  },
  {
    kind: 'obs-live-kick-offline',
    holds: (i) => streaming(i) && i.kick !== null && !i.kick.live,
    // A live event Kick is holding back is not a wrong key: wait out the delay Kick shows now as well.
    holdMs: (i) => WARNING_HOLD_MS + (i.kickDelayMs ?? 0),
    clearMs: 0,
    line: 'OBS is streaming but Kick shows you offline — check the stream key and server in OBS.',
  },
  {
    kind: 'kick-live-obs-off',
    holds: (i) => i.connected && i.stats !== null && !i.stats.stream.active && i.kick !== null && i.kick.live,
    holdMs: () => WARNING_HOLD_MS,
    clearMs: 0,
    line: 'Kick shows you live but OBS is not streaming — start streaming in OBS, or end the stream on Kick.',
  },
  {
    kind: 'disk-low',
    holds: (i) =>
      i.connected &&
      i.stats !== null &&
      i.stats.record.active &&
      i.stats.freeDiskMb !== null &&
      i.stats.freeDiskMb < DISK_LOW_MB,
    holdMs: () => 0,
    clearMs: 0,
    line: 'Less than 2 GB is free where OBS records — free some space now, or the recording will stop.',
  },
];

interface Episode {
  /** When the condition began. */
  since: number;
  shown: boolean;
  /** When the condition stopped holding, while the episode waits out its clear grace. */
  goneAt: number | null;
}

export class StreamWarnings {
  readonly #log: (line: string) => void;
  readonly #rules: readonly Rule[];
  readonly #episodes = new Map<StreamWarningKind, Episode>();

  constructor(log: (line: string) => void, rules: readonly Rule[] = RULES) {
    this.#log = log;
    this.#rules = rules;
  }

  /** Judges every rule at `inputs.now`; returns the warnings showing, in the rules' order. */
  update(inputs: WarningInputs): StreamWarningView[] {
    for (const rule of this.#rules) {
      const episode = this.#episodes.get(rule.kind);
      if (rule.holds(inputs)) {
        const current = episode ?? { since: inputs.now, shown: false, goneAt: null };
        current.goneAt = null;
        if (!current.shown && inputs.now - current.since >= rule.holdMs(inputs)) {
          current.shown = true;
          this.#log(`obs: warning: ${rule.line}`);
        }
        this.#episodes.set(rule.kind, current);
      } else if (episode) {
        episode.goneAt ??= inputs.now;
        if (!episode.shown || inputs.now - episode.goneAt >= rule.clearMs) {
          this.#episodes.delete(rule.kind);
          if (episode.shown) {
            this.#log(`obs: cleared: ${rule.kind}`);
          }
        }
      }
    }
    return this.current();
  }

  current(): StreamWarningView[] {
    return this.#rules.flatMap((rule) => {
      const episode = this.#episodes.get(rule.kind);
      return episode?.shown ? [{ kind: rule.kind, since: episode.since, line: rule.line }] : [];
    });
  }
}
