/**
 * The chat room's state as the panel shows it above chat ([Chat tools](../docs/chat-tools.md#the-rooms-modes-and-pinned-message)):
 * the modes (slow, followers-only, subscribers-only, emote-only), the pinned message and the lines that say a
 * moderator cleared chat. Only Kick's live socket says these (neither Kick's public API nor its webhooks do), so
 * the view is "what is true now" while the socket is up, says since when it is known when the socket dropped,
 * and is forgotten when the socket is switched off or stays away too long.
 */

/** The longest pinned message shown, in characters: Kick's own chat limit; a longer one is cut with "…". */
export const PIN_CONTENT_MAX = 500;
/** Kick's usernames are at most 25 characters; a longer name from the socket is cut here, with room to spare. */
export const ROOM_NAME_MAX = 50;
/** A pin is shown at most this long (a day): a longer duration from the socket is cut to it. */
export const PIN_SECONDS_MAX = 86_400;
/** The longest slow-mode interval shown, in seconds (a day). */
export const SLOW_SECONDS_MAX = 86_400;
/** The longest followers-only age shown, in minutes (a year). */
export const FOLLOWERS_MINUTES_MAX = 525_600;
/** "Chat was cleared" lines kept for the panels, newest last. */
export const CLEAR_LINES_MAX = 20;
/** What the socket said is forgotten this long after the connection dropped (and not said again since). */
export const ROOM_STATE_FORGET_MS = 10 * 60_000;

/** The room's modes; a mode that is off is null (or false). */
export interface RoomModesView {
  /** Slow mode: seconds between one viewer's messages; null seconds when the socket did not say. */
  slow: { seconds: number | null } | null;
  /** Followers-only: how long a viewer must have followed, in minutes (0: any follower). */
  followersOnly: { minutes: number | null } | null;
  subscribersOnly: boolean;
  emotesOnly: boolean;
}

/** The message pinned above chat, bounded before it leaves main. */
export interface PinnedMessageView {
  messageId: string;
  /** The message's text, emote tokens kept, at most PIN_CONTENT_MAX characters. */
  content: string;
  senderUsername: string;
  /** Who pinned it, when the socket said. */
  pinnedByUsername: string | null;
  pinnedAtMs: number;
  /** When Kick takes it down by itself; null when the socket named no duration. */
  expiresAtMs: number | null;
}

/** One "Chat was cleared by a moderator" line, placed in chat where it came. */
export interface ChatClearedView {
  id: string;
  atMs: number;
  /**
   * The newest chat line Greenroom had when the clear came (null: none), so the line sits right after it: chat
   * times are Kick's whole seconds, too coarse to order a clear among the lines of the same second.
   */
  afterMessageId: string | null;
}

/** The room's state, pushed as `chat:room-changed` and read with `chat:room-state`. */
export interface RoomStateView {
  /** Null while Greenroom does not know them: the socket tells the modes only when they change. */
  modes: RoomModesView | null;
  pinned: PinnedMessageView | null;
  /**
   * Null: what is shown is true now. Otherwise the live connection dropped at this time (epoch ms) and nothing
   * said it again since, so the panel says "as of" it.
   */
  asOfMs: number | null;
  /** Clears this run, oldest first, at most CLEAR_LINES_MAX. */
  clears: ChatClearedView[];
}

export const EMPTY_ROOM_STATE: RoomStateView = { modes: null, pinned: null, asOfMs: null, clears: [] };

/** Whether the view has anything for the bar above chat. */
export function roomBarShows(view: RoomStateView): boolean {
  const m = view.modes;
  return (
    view.pinned !== null ||
    (m !== null && (m.slow !== null || m.followersOnly !== null || m.subscribersOnly || m.emotesOnly))
  );
}
