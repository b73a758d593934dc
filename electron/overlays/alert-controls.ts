/**
 * The alert queue's controls as the panel and chat use them (docs/overlays.md#controlling-the-alert-queue):
 * Pause and resume, Skip, Clear, Replay from the activity feed, and the too-old list. Each answers the
 * queue's view as it now stands, and notes who did it, so a streamer sees "Skipped by mod_anna in chat".
 * The panel reaches these through the contract (`alerts:*`), the OBS dock included; an overlay URL cannot.
 */
import { AppError } from '../../shared/errors';
import type { AlertQueueAction, AlertQueueView, OverlaySettings } from '../../shared/overlays';
import type { ChatMessageView } from '../../shared/views';
import type { Clock } from '../core/clock';
import { alertCommandOf } from './alert-chat-commands';
import type { OverlayHub } from './overlay-hub';
import { RECENT_ALERTS_KEPT } from './recent-alerts';

export interface AlertControls {
  view(): AlertQueueView;
  /** `by`: a moderator's name when the command came from chat; absent from the panel. */
  pause(paused: boolean, by?: string): AlertQueueView;
  /** Ends the alert on screen; with `id`, only if that one is still on screen. */
  skip(id?: string, by?: string): AlertQueueView;
  clear(by?: string): AlertQueueView;
  /** Plays a feed entry's alert again; an entry without one is refused, saying why. */
  replay(feedItemId: string): AlertQueueView;
  dismissTooOld(): AlertQueueView;
  /** A live chat message: a moderator's `!skipalert` and the like, when the streamer allows them. */
  onChat(message: ChatMessageView): void;
}

export function createAlertControls(deps: {
  hub: Pick<OverlayHub, 'alerts' | 'counts' | 'replayAlert'>;
  settings: () => OverlaySettings['queue'];
  clock: Clock;
  /** Called whenever `lastAction` changes (the queue's own changes are reported by the hub). */
  changed: () => void;
}): AlertControls {
  const { hub } = deps;
  let lastAction: AlertQueueAction | null = null;

  const view = (): AlertQueueView => ({
    ...hub.alerts.view(),
    boxesOpen: hub.counts().alerts,
    maxAgeSec: deps.settings().maxAgeSec,
    lastAction,
  });
  const did = (what: AlertQueueAction['what'], by: string | undefined, count?: number): AlertQueueView => {
    lastAction = { what, by: by ?? null, atMs: deps.clock.now(), ...(count === undefined ? {} : { count }) };
    deps.changed();
    return view();
  };

  const controls: AlertControls = {
    view,
    pause: (paused, by) => (hub.alerts.setPaused(paused) ? did(paused ? 'pause' : 'resume', by) : view()),
    skip: (id, by) => (hub.alerts.skip(id) ? did('skip', by) : view()),
    clear: (by) => did('clear', by, hub.alerts.clear()),
    replay(feedItemId) {
      if (!hub.replayAlert(feedItemId)) {
        throw new AppError(
          'InvalidArgument',
          `This event has no alert to replay: only follows, subs, gifts, KICKs, redemptions and going live have one, and Greenroom keeps the last ${RECENT_ALERTS_KEPT}.`,
          { details: { field: 'feedItemId' } },
        );
      }
      return did('replay', undefined);
    },
    dismissTooOld() {
      hub.alerts.dismissTooOld();
      return view();
    },
    onChat(message) {
      const command = deps.settings().chatCommands && !message.deleted ? alertCommandOf(message) : null;
      const by = message.sender.username;
      if (command === 'pause' || command === 'resume') {
        controls.pause(command === 'pause', by);
      } else if (command === 'skip') {
        controls.skip(undefined, by);
      } else if (command === 'clear') {
        controls.clear(by);
      }
    },
  };
  return controls;
}
