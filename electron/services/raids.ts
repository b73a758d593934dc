/**
 * Incoming raids and hosts from Kick's live socket ([Raids](../../docs/overlays.md#raids)): one raid per host,
 * though Kick sends each twice (the v2 `StreamHostEvent` and the v1 `StreamHostedEvent`), and the feed entry
 * and alert it becomes. Pure: the caller passes the time. The socket is unofficial, so what it says is bounded
 * here before anything shows it: the name's length and its invisible characters, and the viewer count.
 */
import type { LiveEvent } from '../../shared/kick/live-events';
import { plural } from '../../shared/plural';
import type { FeedItem } from '../../shared/views';
import type { AlertSource } from '../overlays/alert-source';

/** The most viewers a raid is shown with: more than any Kick channel has had watching at once. */
export const RAID_VIEWERS_MAX = 10_000_000;
/** Kick's usernames are at most 25 characters; a longer one is cut here, with room to spare. */
export const RAID_NAME_MAX = 50;
/** How long after a host its twin (the other version) may arrive and still be the same raid. */
export const RAID_TWIN_WINDOW_MS = 60_000;

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
}

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
  readonly #seen = new Map<string, number>();

  /** The raid this host event is, or null for the twin of one already seen (or a host without a usable name). */
  accept(event: HostEvent, nowMs: number): Raid | null {
    const username = raidUsername(event.hostUsername);
    if (username === null) {
      return null;
    }
    for (const [key, atMs] of this.#seen) {
      if (nowMs - atMs >= RAID_TWIN_WINDOW_MS) {
        this.#seen.delete(key);
      }
    }
    const key = username.toLowerCase();
    if (this.#seen.has(key)) {
      return null;
    }
    this.#seen.set(key, nowMs);
    const created = event.createdAt === null ? Number.NaN : Date.parse(event.createdAt);
    const atMs = Number.isFinite(created) ? created : nowMs;
    return { id: `raid:${key}:${nowMs}`, username, viewers: raidViewers(event.viewers), atMs, receivedAtMs: nowMs };
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
