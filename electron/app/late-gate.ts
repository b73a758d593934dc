/**
 * Which live events are late ([late events](../../docs/design-notes.md#late-events)): judged once per event
 * as it arrives, by when Kick says it happened against when it reached Greenroom and the streamer's "late"
 * age. A late event's feed item is marked; the bot, the alert box and the OBS actions are told it is not
 * live news. While deliveries run late, one digest entry in the feed lists them, updated in place.
 */
import { isLate, type LateEntry, LateEpisodes, lateDigestText } from '../../shared/late-events';
import type { FeedItem } from '../../shared/views';
import type { Feed } from '../services/feed';
import { toPanelEvent } from '../services/event-views';
import { parseRfc3339 } from '../webhooks/events/replay-guard';
import type { KickEvent } from '../webhooks/events/types';
import type { AppEventEmitter } from '../core/app-events';
import type { SettingsStore } from './settings';
import { deliveryLatenessMs } from './delivery-delay';

export interface LateGate {
  /** Whether a live event is late. */
  judge(event: KickEvent): boolean;
  /**
   * How late a live event came, in ms, by the same judgement as `judge`; null when it is on time. An event with
   * a time of its own: from that to its arrival. One without (a follow): Kick's delivery delay it was judged by.
   */
  lateness(event: KickEvent): number | null;
  /** Whether something that happened at `happenedAtMs` (null: not known) is late on arriving at `receivedAtMs`. */
  judgeTimes(happenedAtMs: number | null, receivedAtMs: number): boolean;
  /** How late, in ms, when `judgeTimes` finds it late; null otherwise. */
  latenessOfTimes(happenedAtMs: number | null, receivedAtMs: number): number | null;
  /**
   * After the event went into the feed: adds it to the episode's digest when late, or ends the episode.
   * `live` false while the journal is read back at start: the digest is rebuilt as it was, and not announced.
   */
  recorded(event: KickEvent, late: boolean, live?: boolean): void;
  /**
   * While the journal is read back at start: the deliveries its late marks name (late-marks.ts), judged late
   * whatever their times say now; an empty set once the journal is read.
   */
  restoring(lateIds: ReadonlySet<string>): void;
  /** The same for a feed entry that is not a webhook's event (a raid from the live socket). */
  recordedItem(entry: LateEntry, late: boolean, receivedAtMs: number, live?: boolean): void;
}

/**
 * When Kick says the event happened: the payload's own time (`created_at`, a redemption's `redeemed_at`, a
 * ban's `metadata.created_at`), else `Kick-Event-Message-Timestamp`, its send time. Null when neither reads.
 * A renewal's `created_at` may be when the subscription began, months ago, so its send time is taken, as the
 * alert box takes it: one age per event for both limits ([late events](../../docs/design-notes.md#late-events)).
 */
export function happenedAtMs(event: KickEvent): number | null {
  const payload = event.payload;
  if (typeof payload === 'object' && payload !== null) {
    const record = payload as Record<string, unknown>;
    const metadata = record.metadata;
    const own = [
      event.type === 'channel.subscription.renewal' ? undefined : record.created_at,
      record.redeemed_at,
      typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>).created_at : undefined,
    ];
    for (const value of own) {
      // A malformed field falls back to the header rather than losing the judgement.
      const ms = typeof value === 'string' ? parseRfc3339(value) : null;
      if (ms !== null) {
        return ms;
      }
    }
  }
  return parseRfc3339(event.timestamp);
}

export function createLateGate(deps: {
  settings: Pick<SettingsStore, 'values'>;
  feed: Pick<Feed, 'upsert'>;
  events: Pick<AppEventEmitter, 'emit'>;
  /**
   * How late Kick delivers right now (Health's figure), for an event with no time of its own: its header is
   * Kick's send time, which never shows the queue's delay (delivery-delay.ts). Absent: such events are on time.
   */
  deliveryDelayMs?: () => number | null;
  /**
   * Writes a live late verdict down beside the event (late-marks.ts), so a restart gives the event back its
   * mark and its place in the digest whatever Kick's delay is then. Absent: nothing is written.
   */
  journalLate?: (event: KickEvent) => void;
}): LateGate {
  const episodes = new LateEpisodes();
  let marked: ReadonlySet<string> = new Set();
  const age = () => deps.settings.values().lateAfterSec;
  const note = (entry: LateEntry, late: boolean, receivedAtMs: number, live: boolean): void => {
    const digest = episodes.note(entry, late, receivedAtMs, age());
    if (!digest) {
      return;
    }
    const item: FeedItem = {
      id: digest.id,
      kind: 'app',
      atMs: digest.startedAtMs,
      text: lateDigestText(digest.count),
      userId: null,
      username: null,
      eventType: 'greenroom.late-digest',
      lateDigest: { count: digest.count, entries: digest.entries },
    };
    const kept = deps.feed.upsert(item);
    if (kept && live) {
      deps.events.emit('kick:event', { kind: 'feed', item: { ...kept } });
    }
  };
  const latenessOfTimes = (at: number | null, receivedAtMs: number): number | null =>
    at !== null && isLate(at, receivedAtMs, age()) ? receivedAtMs - at : null;
  const lateness = (event: KickEvent): number | null => {
    const at = happenedAtMs(event);
    const measured =
      latenessOfTimes(at, event.receivedAtMs) ??
      deliveryLatenessMs(at, parseRfc3339(event.timestamp), deps.deliveryDelayMs ?? (() => null), age());
    // A journaled verdict (read back at start) stands whatever the times say now; how late is then not known.
    return measured ?? (marked.has(event.messageId) ? 0 : null);
  };
  return {
    judge: (event) => lateness(event) !== null,
    lateness,
    judgeTimes: (at, receivedAtMs) => latenessOfTimes(at, receivedAtMs) !== null,
    latenessOfTimes,
    restoring(lateIds) {
      marked = lateIds;
    },
    recorded(event, late, live = true) {
      const view = toPanelEvent(event);
      // Chat is shown in chat, not in Activity: it neither joins a digest nor ends an episode.
      if (view.kind === 'chat') {
        return;
      }
      const entry = { id: view.item.id, text: view.item.text, happenedAtMs: happenedAtMs(event) ?? event.receivedAtMs };
      if (late && live) {
        deps.journalLate?.(event);
      }
      note(entry, late, event.receivedAtMs, live);
    },
    recordedItem: (entry, late, receivedAtMs, live = true) => note(entry, late, receivedAtMs, live),
  };
}
