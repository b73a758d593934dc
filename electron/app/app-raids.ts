/**
 * Incoming raids and hosts as the app wires them ([Raids](../../docs/overlays.md#raids)): Kick's public API has
 * no raid event, so they come from Kick's live socket only. Each raid, once (Kick sends every host twice),
 * becomes an activity-feed entry pushed to the panels, a "raid" alert, the bot's welcome and the OBS action.
 *
 * - A raid is judged by the late gate ([late events](../../docs/design-notes.md#late-events)) on Kick's own
 *   time, which only the old-style twin carries: a host without it waits up to `RAID_TIME_WAIT_MS` for that
 *   twin. A late raid is in the feed, marked late, and in the episode's digest; no alert, welcome or OBS action.
 * - It is journaled beside the webhooks, so a restart restores its feed entry once, its alert only if no alert
 *   box showed it yet, and never the welcome or the OBS action.
 */
import type { LiveEvent } from '../../shared/kick/live-events';
import type { Clock } from '../core/clock';
import type { OverlayHub } from '../overlays/overlay-hub';
import type { Feed } from '../services/feed';
import { type Raid, RAID_TIME_WAIT_MS, RaidTwins, raidAlertSource, raidFeedItem } from '../services/raids';
import type { JournalRecord, KickEvent } from '../webhooks/events/types';
import type { AppChatBot } from './app-chat-bot';
import type { AppEventEmitter } from '../core/app-events';
import type { LateGate } from './late-gate';
import { raidOfRecord, raidRecord } from './raid-journal';
import type { SetTimer } from '../core/scheduler';

export interface AppRaidsDeps {
  feed: Feed;
  events: AppEventEmitter;
  overlays: Pick<OverlayHub, 'offerRaid'>;
  chatBot: Pick<AppChatBot, 'onRaid'>;
  /** The OBS action on a raid (docs/obs.md#obs-actions-on-events). */
  obs: { raided(username: string): void };
  late: Pick<LateGate, 'latenessOfTimes' | 'recordedItem'>;
  /** The signed-in broadcaster, whose journal the raid joins. */
  broadcasterUserId: () => number | null;
  /** Journals the raid under its key (webhook-service.ts `recordLive`); null where no journal runs. */
  recordLive: ((record: JournalRecord, eventKey: string) => 'new' | 'duplicate' | 'closed') | null;
  clock: Clock;
  setTimer: SetTimer;
  log: (line: string) => void;
}

export interface AppRaids {
  /** Takes every live-socket event and acts on incoming hosts; other events are not its business. */
  onEvent(event: LiveEvent): void;
  /**
   * One event read back from the journal at start: true when it was a raid (its feed entry restored, its
   * alert handed to the queue's replay, nothing else), so the caller passes it on no further.
   */
  restore(event: KickEvent): boolean;
  /** Drops the raids still waiting for their twin's time. */
  stop(): void;
}

export function createAppRaids(deps: AppRaidsDeps): AppRaids {
  const twins = new RaidTwins();
  /** Raids without Kick's time yet, waiting for the twin that carries it, by raid id. */
  const waiting = new Map<string, { cancel(): void }>();

  const show = (raid: Raid, late: boolean, live: boolean): void => {
    const item = raidFeedItem(raid);
    const kept = deps.feed.upsert(late ? { ...item, late: true } : item);
    if (kept && live) {
      deps.events.emit('kick:event', { kind: 'feed', item: { ...kept } });
    }
    deps.late.recordedItem({ id: item.id, text: item.text, happenedAtMs: raid.atMs }, late, raid.receivedAtMs, live);
  };

  const act = (raid: Raid): void => {
    waiting.get(raid.id)?.cancel();
    waiting.delete(raid.id);
    const broadcaster = deps.broadcasterUserId();
    if (deps.recordLive !== null && broadcaster !== null) {
      const { record, key } = raidRecord(raid, broadcaster);
      const verdict = deps.recordLive(record, key);
      if (verdict === 'duplicate') {
        return;
      }
      if (verdict === 'closed') {
        // Stopping: nothing acts on it now, and the next start cannot know of it.
        deps.log(`raids: ${raid.username}'s raid came while Greenroom was stopping; not shown`);
        return;
      }
    }
    const lateByMs = deps.late.latenessOfTimes(raid.timed ? raid.atMs : null, raid.receivedAtMs);
    show(raid, lateByMs !== null, true);
    const source = raidAlertSource(raid);
    // A late raid's alert is listed with the alerts too old to play, as late as the gate found it, never played.
    deps.overlays.offerRaid(source, true, lateByMs);
    if (lateByMs !== null) {
      return;
    }
    deps.chatBot.onRaid(source);
    deps.obs.raided(raid.username);
  };

  return {
    onEvent(event) {
      if (event.type !== 'host') {
        return;
      }
      const verdict = twins.accept(event, deps.clock.now());
      if (verdict === null) {
        return;
      }
      if (verdict.kind === 'timed') {
        // The twin brought Kick's time for a raid still waiting for it; one already acted on is not redone.
        if (waiting.has(verdict.raid.id)) {
          act(verdict.raid);
        }
        return;
      }
      const { raid } = verdict;
      if (raid.timed) {
        act(raid);
        return;
      }
      waiting.set(
        raid.id,
        deps.setTimer(() => act(raid), RAID_TIME_WAIT_MS),
      );
    },
    restore(event) {
      const raid = raidOfRecord(event);
      if (raid === null) {
        return false;
      }
      if (raid === 'damaged') {
        deps.log('raids: a raid in the journal could not be read; it is not shown again');
        return true;
      }
      twins.remember(raid);
      const lateByMs = deps.late.latenessOfTimes(raid.atMs, raid.receivedAtMs);
      show(raid, lateByMs !== null, false);
      deps.overlays.offerRaid(raidAlertSource(raid), false, lateByMs);
      return true;
    },
    stop() {
      waiting.forEach((timer) => timer.cancel());
      waiting.clear();
    },
  };
}
