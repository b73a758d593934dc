/**
 * Chat lines the live socket brought before Kick's signed webhook, remembered by their event key
 * (`event-key.ts`) with who said what, so the webhook can be told apart from a plain copy
 * ([design notes](../../docs/design-notes.md#chat-from-the-live-socket-first)). The socket is unsigned and
 * the webhook is the record: a webhook under the same key with other words or another sender is not a copy,
 * it is journaled and shown in place of the socket's line. A webhook that agrees confirms the line, and the
 * key is forgotten. Bounded, so a socket whose webhooks never come costs a fixed amount.
 */
import { hash } from 'node:crypto';
import type { KickEvent } from './types';

/** The journal's subscription id for what the live socket brought: its source, on disk. */
export const LIVE_SOCKET_SOURCE = 'live-socket';

/** Socket lines remembered at most (as many as `socket-first.ts` awaits: 100 lines a second for 10 minutes). */
export const MAX_SOCKET_LINES = 60_000;

export interface SignedCopies {
  /** A chat line the live socket brought, journaled under `eventKey` (its payload in the webhook's shape). */
  socketLine(eventKey: string, payload: unknown): void;
  /**
   * Whether the webhook under `eventKey` says other words, or names another sender, than the socket's line.
   * False when no socket line waits under the key; when they agree the key is forgotten: the line is confirmed.
   */
  differs(eventKey: string, payload: unknown): boolean;
  /** The signed copy under `eventKey` is journaled: the socket's line no longer stands for it. */
  signed(eventKey: string): void;
}

export function createSignedCopies(maxLines = MAX_SOCKET_LINES): SignedCopies {
  // Insertion order is arrival order: the oldest line is dropped first.
  const lines = new Map<string, string>();
  return {
    socketLine(eventKey, payload) {
      lines.delete(eventKey);
      lines.set(eventKey, fingerprint(payload));
      if (lines.size > maxLines) {
        lines.delete(lines.keys().next().value!);
      }
    },
    differs(eventKey, payload) {
      const socket = lines.get(eventKey);
      if (socket === undefined) {
        return false;
      }
      if (socket === fingerprint(payload)) {
        lines.delete(eventKey);
        return false;
      }
      return true;
    },
    signed(eventKey) {
      lines.delete(eventKey);
    },
  };
}

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
export function readBackChat(copies: SignedCopies, events: KickEvent[], event: KickEvent, eventKey: string): boolean {
  if (event.subscriptionId === LIVE_SOCKET_SOURCE) {
    copies.socketLine(eventKey, event.payload);
    return false;
  }
  if (!copies.differs(eventKey, event.payload)) {
    return false;
  }
  copies.signed(eventKey);
  const id = messageIdOf(event.payload);
  const at = events.findLastIndex((e) => e.subscriptionId === LIVE_SOCKET_SOURCE && messageIdOf(e.payload) === id);
  if (at < 0) {
    return false;
  }
  events[at] = event;
  return true;
}

function messageIdOf(payload: unknown): unknown {
  return typeof payload === 'object' && payload !== null ? (payload as { message_id?: unknown }).message_id : undefined;
}
