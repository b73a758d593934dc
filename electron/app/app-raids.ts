/**
 * Incoming raids and hosts as the app wires them ([Raids](../../docs/overlays.md#raids)): Kick's public API has
 * no raid event, so they come from Kick's live socket only. Each raid, once (Kick sends every host twice),
 * becomes an activity-feed entry pushed to the panels, a "raid" alert, the bot's welcome and the OBS action.
 * Not journaled: a raid from before a restart is not shown again.
 */
import type { LiveEvent } from '../../shared/kick/live-events';
import type { Clock } from '../core/clock';
import type { AlertSource } from '../overlays/alert-source';
import type { OverlayHub } from '../overlays/overlay-hub';
import type { Feed } from '../services/feed';
import { RaidTwins, raidAlertSource, raidFeedItem } from '../services/raids';
import type { AppChatBot } from './app-chat-bot';
import type { AppEventEmitter } from './app-events';

export interface AppRaidsDeps {
  feed: Feed;
  events: AppEventEmitter;
  overlays: Pick<OverlayHub, 'offerRaid'>;
  chatBot: Pick<AppChatBot, 'onRaid'>;
  /** The OBS action on a raid (docs/obs.md#obs-actions-on-events). */
  obs: { raided(username: string): void };
  clock: Clock;
}

/** Takes every live-socket event and acts on incoming hosts; other events are not its business. */
export function createAppRaids(deps: AppRaidsDeps): (event: LiveEvent) => void {
  const twins = new RaidTwins();
  return (event) => {
    if (event.type !== 'host') {
      return;
    }
    const raid = twins.accept(event, deps.clock.now());
    if (raid === null) {
      return;
    }
    const kept = deps.feed.upsert(raidFeedItem(raid));
    if (kept) {
      deps.events.emit('kick:event', { kind: 'feed', item: { ...kept } });
    }
    const source: AlertSource = raidAlertSource(raid);
    deps.overlays.offerRaid(source);
    deps.chatBot.onRaid(source);
    deps.obs.raided(raid.username);
  };
}
