/**
 * The OBS actions on events as the app wires them ([OBS actions on events](../../docs/obs.md#obs-actions-on-events)):
 * the saved actions from the settings, OBS through the connection's API (app-obs.ts), and each outcome as a
 * line of Greenroom's own in the activity feed, pushed to every panel like an event.
 */
import type { FeedItem } from '../../shared/views';
import type { Clock } from '../core/clock';
import { type SetTimer, unrefTimer } from '../core/scheduler';
import { ObsActions, type ObsCaller } from '../obs/obs-actions';
import type { Feed } from '../services/feed';
import type { AppEventEmitter } from '../core/app-events';
import type { ObsApi } from './app-obs';
import type { SettingsStore } from './settings';

export interface AppObsActionsDeps {
  obs: Pick<ObsApi, 'call' | 'state' | 'onState'>;
  settings: SettingsStore;
  feed: Feed;
  events: AppEventEmitter;
  clock: Clock;
  log: (line: string) => void;
  /** Timers for the settle, the ad break and the hides; unref'd Node timers by default. */
  setTimer?: SetTimer;
}

export function createAppObsActions(deps: AppObsActionsDeps): ObsActions {
  const { feed, events, clock } = deps;
  let lines = 0;
  const obs: ObsCaller = {
    call: (type, ...data) => deps.obs.call(type, ...data),
    connected: () => deps.obs.state().kind === 'connected',
    // Hides and switch-backs owed while OBS was away are done on reconnecting.
    onConnected: (listener) =>
      deps.obs.onState((state) => {
        if (state.kind === 'connected') {
          listener();
        }
      }),
  };
  return new ObsActions({
    obs,
    actions: () => deps.settings.values().obsActions,
    setTimer: deps.setTimer ?? unrefTimer,
    log: deps.log,
    report: (text) => {
      lines += 1;
      const item: FeedItem = {
        id: `greenroom-obs-${clock.now()}-${lines}`,
        kind: 'app',
        atMs: clock.now(),
        text,
        userId: null,
        username: null,
        eventType: 'greenroom.obs-action',
      };
      const kept = feed.upsert(item);
      if (kept) {
        events.emit('kick:event', { kind: 'feed', item: { ...kept } });
      }
    },
  });
}
