/**
 * Chat lines the live socket brought before Kick's signed webhook, remembered by their message id with who
 * said what, so the webhook can be told apart from a plain copy
 * ([design notes](../../../docs/design-notes.md#chat-from-the-live-socket-first)). The socket is unsigned and
 * the webhook is the record: a webhook under the same key with other words or another sender is not a copy,
 * it is journaled and shown in place of the socket's line. A webhook that agrees confirms the line, and the
 * line is forgotten. By message id, not by event key: a socket line that gave another second than Kick's has
 * another key, and its webhook must still win. Bounded, so a socket whose webhooks never come costs a fixed amount.
 */
import { hash } from 'node:crypto';
import type { KickEvent } from '../events/types';

/** The journal's subscription id for what the live socket brought: its source, on disk. */
export const LIVE_SOCKET_SOURCE = 'live-socket';

/** Socket lines remembered at most (as many as `socket-first.ts` awaits: 100 lines a second for 10 minutes). */
export const MAX_SOCKET_LINES = 60_000;

/** Each takes a chat line's payload in the webhook's shape (the socket's line is journaled in that shape too). */
export interface SignedCopies {
  /** A chat line the live socket brought, journaled: in this run, or (`thisRun` false) read back from the journal. */
  socketLine(payload: unknown, thisRun?: boolean): void;
  /**
   * Whether the webhook says other words, or names another sender, than the socket's line with its message id.
   * False when no socket line with that id waits; when they agree the line is forgotten: it is confirmed.
   */
  differs(payload: unknown): boolean;
  /**
   * The signed copy of the line is journaled: the socket's line no longer stands for it. True when that line came
   * over the socket in this run, not before a restart (what Health counted as received, it counts no more).
   */
  signed(payload: unknown): boolean;
}

export function createSignedCopies(maxLines = MAX_SOCKET_LINES): SignedCopies {
  // Insertion order is arrival order: the oldest line is dropped first. Each value is the line's fingerprint after
  // one character that says whether it came in this run (THIS_RUN) or was read back (READ_BACK).
  const lines = new Map<string, string>();
  return {
    socketLine(payload, thisRun = true) {
      const id = messageIdOf(payload);
      if (id === null) {
        return;
      }
      lines.delete(id);
      lines.set(id, (thisRun ? THIS_RUN : READ_BACK) + fingerprint(payload));
      if (lines.size > maxLines) {
        lines.delete(lines.keys().next().value!);
      }
    },
    differs(payload) {
      const id = messageIdOf(payload);
      const socket = id === null ? undefined : lines.get(id);
      if (socket === undefined) {
        return false;
      }
      if (socket.slice(1) === fingerprint(payload)) {
        lines.delete(id!);
        return false;
      }
      return true;
    },
    signed(payload) {
      const id = messageIdOf(payload);
      const socket = id === null ? undefined : lines.get(id);
      if (socket === undefined) {
        return false;
      }
      lines.delete(id!);
      return socket.startsWith(THIS_RUN);
    },
  };
}

const THIS_RUN = '+';
const READ_BACK = '-';

/** What a reader sees of a line: its sender (id and name) and its words; hashed, so each costs 44 characters. */
function fingerprint(payload: unknown): string {
  const fields = (typeof payload === 'object' && payload !== null ? payload : {}) as {
    content?: unknown;
    sender?: { user_id?: unknown; username?: unknown } | null;
  };
  const seen = [fields.sender?.user_id ?? null, fields.sender?.username ?? null, fields.content ?? null];
  return hash('sha256', JSON.stringify(seen), 'base64');
}

/**
 * While the journal is read back: a socket line is remembered, and a signed line that differs from it takes its
 * place in `events` (where the socket's line was shown), so a restart shows the signed words once. True when
 * `event` was placed; false when it is to be added as usual.
 */
export function readBackChat(copies: SignedCopies, events: KickEvent[], event: KickEvent): boolean {
  if (event.subscriptionId === LIVE_SOCKET_SOURCE) {
    copies.socketLine(event.payload, false);
    return false;
  }
  if (!copies.differs(event.payload)) {
    return false;
  }
  copies.signed(event.payload);
  const id = messageIdOf(event.payload);
  const at = events.findLastIndex((e) => e.subscriptionId === LIVE_SOCKET_SOURCE && messageIdOf(e.payload) === id);
  if (at < 0) {
    return false;
  }
  events[at] = event;
  return true;
}

function messageIdOf(payload: unknown): string | null {
  const id = typeof payload === 'object' && payload !== null ? (payload as { message_id?: unknown }).message_id : null;
  return typeof id === 'string' ? id : null;
}
