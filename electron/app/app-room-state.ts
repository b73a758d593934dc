/**
 * The chat room's state as the app wires it ([Chat tools](../../docs/chat-tools.md#the-rooms-modes-and-pinned-message)):
 * the live socket's room events and its connection state go into one tracker (`../services/room-state.ts`), and
 * every change is pushed to the panels (`chat:room-changed`). A timer wakes it when a pin expires or what was said
 * before a drop is to be forgotten, so main pushes and the panels never keep their own clocks for it.
 */
import type { LiveEvent } from '../../shared/kick/live-events';
import type { RoomStateView } from '../../shared/room-state';
import type { LiveSocketHealthView } from '../../shared/views';
import type { Clock } from '../core/clock';
import type { SetTimer } from '../core/scheduler';
import { type RoomConnection, RoomStateTracker } from '../services/room-state';

export interface AppRoomStateDeps {
  clock: Clock;
  setTimer: SetTimer;
  /** The live connection's state now. */
  connectionState: () => LiveSocketHealthView['state'];
  onConnectionChange: (listener: () => void) => () => void;
  push: (view: RoomStateView) => void;
  /** The newest chat line's id (null: none yet): a clear's line goes right after it. Read only for a clear. */
  lastMessageId: () => string | null;
}

export interface AppRoomState {
  view(): RoomStateView;
  /** Takes every live-socket event; only the room's change anything. */
  onEvent(event: LiveEvent): void;
  stop(): void;
}

/** `off` forgets at once; every state but `connected` is a drop that makes what is held "as of" its start. */
function roomConnection(state: LiveSocketHealthView['state']): RoomConnection {
  return state === 'off' ? 'off' : state === 'connected' ? 'up' : 'down';
}

export function createAppRoomState(deps: AppRoomStateDeps): AppRoomState {
  const tracker = new RoomStateTracker();
  let timer: { cancel(): void } | null = null;
  let stopped = false;

  const now = () => deps.clock.now();
  // What the panels were last told: a socket repeating the same modes (or flooding them) pushes nothing.
  let told = JSON.stringify(tracker.view(now()));
  const push = () => {
    const view = tracker.view(now());
    const text = JSON.stringify(view);
    if (text !== told) {
      told = text;
      deps.push(view);
    }
  };
  const changed = () => {
    push();
    schedule();
  };
  const schedule = () => {
    timer?.cancel();
    timer = null;
    const at = tracker.nextDeadline();
    if (at === null || stopped) {
      return;
    }
    timer = deps.setTimer(
      () => {
        timer = null;
        if (tracker.tick(now())) {
          push();
        }
        schedule();
      },
      Math.max(0, at - now()),
    );
  };

  let last = roomConnection(deps.connectionState());
  tracker.connection(last, now());
  const off = deps.onConnectionChange(() => {
    const next = roomConnection(deps.connectionState());
    if (next === last) {
      return;
    }
    last = next;
    if (tracker.connection(next, now())) {
      changed();
    }
  });

  return {
    view: () => tracker.view(now()),
    onEvent(event) {
      if (stopped) {
        return;
      }
      if (tracker.apply(event, now(), event.type === 'chat.cleared' ? deps.lastMessageId() : null)) {
        changed();
      }
    },
    stop() {
      stopped = true;
      off();
      timer?.cancel();
      timer = null;
    },
  };
}
