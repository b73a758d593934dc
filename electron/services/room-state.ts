/**
 * The chat room's state from Kick's live socket ([Chat tools](../../docs/chat-tools.md#the-rooms-modes-and-pinned-message)):
 * its modes (ChatroomUpdatedEvent), the pinned message (PinnedMessageCreatedEvent / PinnedMessageDeletedEvent) and
 * the cleared-chat lines (ChatroomClearEvent). Pure: the caller passes the time and the connection's state.
 *
 * What it holds is "what is true now" only while the socket is up. When the connection drops, each thing held is
 * marked stale from that moment (the socket says modes only when they change, so a change in the gap is missed);
 * a fresh event for it makes it current again; stale for ROOM_STATE_FORGET_MS, or the socket switched off, and it
 * is forgotten. The socket is unofficial, so names, text, durations and intervals are bounded here.
 */
import type { LiveChatMessage, LiveEvent } from '../../shared/kick/live-events';
import {
  CLEAR_LINES_MAX,
  FOLLOWERS_MINUTES_MAX,
  PIN_CONTENT_MAX,
  PIN_SECONDS_MAX,
  ROOM_NAME_MAX,
  ROOM_STATE_FORGET_MS,
  type ChatClearedView,
  type PinnedMessageView,
  type RoomModesView,
  type RoomStateView,
  SLOW_SECONDS_MAX,
} from '../../shared/room-state';

/** How the live connection stands, as far as the room's state cares. */
export type RoomConnection = 'up' | 'down' | 'off';

type ModesEvent = Extract<LiveEvent, { type: 'chatroom.updated' }>;
type PinEvent = Extract<LiveEvent, { type: 'pin.created' }>;

interface Held<T> {
  value: T;
  /** When the connection dropped with this held; null while current. */
  staleSinceMs: number | null;
}

/** A whole number from 0 to `max`; null for what is not a finite number. */
function bounded(value: number | null, max: number): number | null {
  if (value === null || Number.isNaN(value)) {
    return null;
  }
  return Math.min(max, Math.max(0, Math.floor(value)));
}

/** A name without control or invisible characters, at most ROOM_NAME_MAX long; null when nothing is left. */
export function roomName(value: string): string | null {
  const cleaned = value.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '').trim();
  return cleaned === '' ? null : [...cleaned].slice(0, ROOM_NAME_MAX).join('');
}

/**
 * The pinned text without control characters or direction overrides (which could turn the bar's text around),
 * at most PIN_CONTENT_MAX characters, a longer one ending in "…". Joiners stay: emoji are built with them.
 */
export function pinContent(value: string): string {
  const cleaned = value.replace(/[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/gu, ' ').trim();
  const chars = [...cleaned];
  return chars.length <= PIN_CONTENT_MAX ? cleaned : `${chars.slice(0, PIN_CONTENT_MAX - 1).join('')}…`;
}

/** Tracks the room's state; `view(nowMs)` is what the panels are shown. */
export class RoomStateTracker {
  #modes: Held<RoomModesView> | null = null;
  #pin: Held<PinnedMessageView> | null = null;
  #clears: ChatClearedView[] = [];
  #connection: RoomConnection = 'off';
  #clearCount = 0;

  /**
   * Takes one live-socket event; true when the view changed. Events that are not the room's are ignored.
   * `lastMessageId` is the newest chat line when the event came, where a clear's line goes.
   */
  apply(event: LiveEvent, nowMs: number, lastMessageId: string | null = null): boolean {
    switch (event.type) {
      case 'chatroom.updated':
        this.#modes = { value: this.#nextModes(event), staleSinceMs: null };
        return true;
      case 'pin.created': {
        const pin = toPin(event, nowMs);
        if (pin === null) {
          return false;
        }
        this.#pin = { value: pin, staleSinceMs: null };
        return true;
      }
      case 'pin.deleted': {
        const had = this.#pin !== null;
        this.#pin = null;
        return had;
      }
      case 'chat.cleared':
        this.#clears = [
          ...this.#clears,
          { id: `cleared-${nowMs}-${++this.#clearCount}`, atMs: nowMs, afterMessageId: lastMessageId },
        ].slice(-CLEAR_LINES_MAX);
        return true;
      default:
        return false;
    }
  }

  /** The connection's state changed; true when the view changed. */
  connection(next: RoomConnection, nowMs: number): boolean {
    const was = this.#connection;
    this.#connection = next;
    if (next === 'off') {
      // Switched off, signed out or another account: nothing the old connection said holds.
      const had = this.#modes !== null || this.#pin !== null;
      this.#modes = null;
      this.#pin = null;
      return had;
    }
    if (next === 'down' && was === 'up') {
      let changed = false;
      for (const held of [this.#modes, this.#pin]) {
        if (held && held.staleSinceMs === null) {
          held.staleSinceMs = nowMs;
          changed = true;
        }
      }
      return changed;
    }
    return false;
  }

  /** Drops an expired pin and what was stale too long; true when the view changed. */
  tick(nowMs: number): boolean {
    let changed = false;
    if (this.#pin && (isStaleTooLong(this.#pin, nowMs) || isExpired(this.#pin.value, nowMs))) {
      this.#pin = null;
      changed = true;
    }
    if (this.#modes && isStaleTooLong(this.#modes, nowMs)) {
      this.#modes = null;
      changed = true;
    }
    return changed;
  }

  /** The next time `tick` has something to do, or null. */
  nextDeadline(): number | null {
    const times: number[] = [];
    for (const held of [this.#modes, this.#pin]) {
      if (held?.staleSinceMs != null) {
        times.push(held.staleSinceMs + ROOM_STATE_FORGET_MS);
      }
    }
    if (this.#pin?.value.expiresAtMs != null) {
      times.push(this.#pin.value.expiresAtMs);
    }
    return times.length === 0 ? null : Math.min(...times);
  }

  /** What the panels are shown at `nowMs`: an expired pin is left out even before `tick` drops it. */
  view(nowMs: number): RoomStateView {
    const modes = this.#modes && !isStaleTooLong(this.#modes, nowMs) ? this.#modes : null;
    const pin = this.#pin && !isStaleTooLong(this.#pin, nowMs) && !isExpired(this.#pin.value, nowMs) ? this.#pin : null;
    const stale = [modes?.staleSinceMs, pin?.staleSinceMs].filter((t): t is number => t != null);
    return {
      modes: modes ? structuredClone(modes.value) : null,
      pinned: pin ? { ...pin.value } : null,
      asOfMs: stale.length === 0 ? null : Math.min(...stale),
      clears: this.#clears.map((c) => ({ ...c })),
    };
  }

  /** A mode the update leaves out keeps what was known, else is off. */
  #nextModes(event: ModesEvent): RoomModesView {
    const before = this.#modes?.value;
    return {
      slow: event.slowMode
        ? event.slowMode.enabled
          ? { seconds: bounded(event.slowMode.intervalSeconds, SLOW_SECONDS_MAX) }
          : null
        : (before?.slow ?? null),
      followersOnly: event.followersMode
        ? event.followersMode.enabled
          ? { minutes: bounded(event.followersMode.minDurationMinutes, FOLLOWERS_MINUTES_MAX) }
          : null
        : (before?.followersOnly ?? null),
      subscribersOnly: event.subscribersMode ? event.subscribersMode.enabled : (before?.subscribersOnly ?? false),
      emotesOnly: event.emotesMode ? event.emotesMode.enabled : (before?.emotesOnly ?? false),
    };
  }
}

function isStaleTooLong(held: Held<unknown>, nowMs: number): boolean {
  return held.staleSinceMs !== null && nowMs - held.staleSinceMs >= ROOM_STATE_FORGET_MS;
}

function isExpired(pin: PinnedMessageView, nowMs: number): boolean {
  return pin.expiresAtMs !== null && nowMs >= pin.expiresAtMs;
}

/** The pin as shown, or null when its message has no usable sender name. */
function toPin(event: PinEvent, nowMs: number): PinnedMessageView | null {
  const message: LiveChatMessage = event.message;
  const sender = roomName(message.sender.username);
  if (sender === null) {
    return null;
  }
  const seconds = bounded(event.durationSeconds, PIN_SECONDS_MAX);
  return {
    messageId: message.messageId.slice(0, 64),
    content: pinContent(message.content),
    senderUsername: sender,
    pinnedByUsername: event.pinnedBy ? roomName(event.pinnedBy.username) : null,
    pinnedAtMs: nowMs,
    // Kick's pins always name a duration; none (or 0) is shown until the socket says it went.
    expiresAtMs: seconds ? nowMs + seconds * 1000 : null,
  };
}
