/**
 * Incoming raids and hosts from Kick's live socket ([Raids](../../docs/overlays.md#raids)): one raid per host,
 * though Kick sends each twice (the v2 `StreamHostEvent` and the v1 `StreamHostedEvent`), and the feed entry
 * and alert it becomes. Pure: the caller passes the time. The socket is unofficial, so what it says is bounded
 * here before anything shows it: the name's length and its invisible characters, and the viewer count.
 */
import type { LiveEvent } from '../../shared/kick/live-events';
import { plural } from '../../shared/plural';
import type { FeedItem } from '../../shared/views';
import type { AlertSource } from './alert-source';

/** The most viewers a raid is shown with: more than any Kick channel has had watching at once. */
export const RAID_VIEWERS_MAX = 10_000_000;
/** Kick's usernames are at most 25 characters; a longer one is cut here, with room to spare. */
export const RAID_NAME_MAX = 50;
/** How long after a host its twin (the other version) may arrive and still be the same raid. */
export const RAID_TWIN_WINDOW_MS = 60_000;
/**
 * How long a host without Kick's time (the new-style copy carries none) waits for its twin, which does: only
 * with that time can a raid be judged late ([late events](../../docs/design-notes.md#late-events)). Kick
 * sends the twin at once, so the wait ends with it; a twin that never comes costs the raid this much.
 */
export const RAID_TIME_WAIT_MS = 2000;

type HostEvent = Extract<LiveEvent, { type: 'host' }>;

/** One raid as the app shows it. */
export interface Raid {
  /** The feed entry's id, and the alert's. */
  id: string;
  username: string;
  viewers: number;
  /** When Kick says it happened, else when Greenroom heard of it. */
  atMs: number;
  receivedAtMs: number;
  /** Whether `atMs` is Kick's own time: without it nothing says the raid is late. */
  timed: boolean;
}

/**
 * What one host event is: a new raid; the twin of one that had no time, bringing Kick's time for it
 * (`timed`, once); or nothing (a twin with nothing new, or a host without a usable name).
 */
export type HostVerdict = { kind: 'new'; raid: Raid } | { kind: 'timed'; raid: Raid } | null;

/** A whole number from 0 to RAID_VIEWERS_MAX: a negative, fractional or absurd count from the socket is bounded. */
export function raidViewers(value: number): number {
  if (!Number.isFinite(value)) {
    return value === Number.POSITIVE_INFINITY ? RAID_VIEWERS_MAX : 0;
  }
  return Math.min(RAID_VIEWERS_MAX, Math.max(0, Math.floor(value)));
}

/** The raider's name without control or invisible characters, at most RAID_NAME_MAX long; null when nothing is left. */
export function raidUsername(value: string): string | null {
  const cleaned = value.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '').trim();
  return cleaned === '' ? null : [...cleaned].slice(0, RAID_NAME_MAX).join('');
}

/** Remembers recent hosts by raider, so a host's twin is recognised as the same raid. */
export class RaidTwins {
  readonly #seen = new Map<string, { firstAtMs: number; raid: Raid }>();

  /** What this host event is (see {@link HostVerdict}). */
  accept(event: HostEvent, nowMs: number): HostVerdict {
    const username = raidUsername(event.hostUsername);
    if (username === null) {
      return null;
    }
    this.#forgetBefore(nowMs);
    const key = username.toLowerCase();
    // A time ahead of ours means the clocks disagree: it counts as now, as an alert's time does.
    const created = Math.min(event.createdAt === null ? Number.NaN : Date.parse(event.createdAt), nowMs);
    const known = this.#seen.get(key);
    if (known) {
      if (known.raid.timed || !Number.isFinite(created)) {
        return null;
      }
      known.raid = { ...known.raid, atMs: created, timed: true };
      return { kind: 'timed', raid: { ...known.raid } };
    }
    const raid: Raid = {
      id: `raid:${key}:${nowMs}`,
      username,
      viewers: raidViewers(event.viewers),
      atMs: Number.isFinite(created) ? created : nowMs,
      receivedAtMs: nowMs,
      timed: Number.isFinite(created),
    };
    this.#seen.set(key, { firstAtMs: nowMs, raid });
    return { kind: 'new', raid: { ...raid } };
  }

  /** A raid read back from the journal at start: a twin arriving just after the restart is still its twin. */
  remember(raid: Raid): void {
    this.#forgetBefore(raid.receivedAtMs);
    this.#seen.set(raid.username.toLowerCase(), { firstAtMs: raid.receivedAtMs, raid: { ...raid, timed: true } });
  }

  #forgetBefore(nowMs: number): void {
    for (const [key, { firstAtMs }] of this.#seen) {
      if (nowMs - firstAtMs >= RAID_TWIN_WINDOW_MS) {
        this.#seen.delete(key);
      }
    }
  }
}

/** The activity feed's entry for a raid. */
export function raidFeedItem(raid: Raid): FeedItem {
  return {
    id: raid.id,
    kind: 'raid',
    atMs: raid.atMs,
    text: `${raid.username} raided with ${plural(raid.viewers, 'viewer')}`,
    userId: null,
    username: raid.username,
    eventType: 'host',
  };
}

/** The alert (and the bot's welcome) a raid raises; the template's minimum is compared with the viewers. */
export function raidAlertSource(raid: Raid): AlertSource {
  return {
    id: raid.id,
    kind: 'raid',
    fields: { user: raid.username, viewers: String(raid.viewers) },
    amount: raid.viewers,
    receivedAtMs: raid.receivedAtMs,
    eventAtMs: raid.atMs,
  };
}
