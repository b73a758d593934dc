/**
 * Joins Kick's live socket with the signed webhooks ([design notes](../../docs/design-notes.md#chat-from-the-live-socket-first)):
 * the panel, the bot and the feed see one event, whichever path brings it first.
 *
 * - A chat line from the socket is journaled under its event key, as a webhook delivery with its source
 *   (`live-socket`), and goes down the same path (auto-moderation first, then shown). Its webhook, whenever it
 *   comes, this run or after a restart, is then a copy the receiver answers and drops, unless it says other
 *   words or names another sender: then it is the record and takes the line's place (`signed-line.ts`).
 * - A deletion by any moderator is applied to chat at once: Kick sends no webhook for a deletion. A ban,
 *   timeout or unban goes to the mod log at once (`moderated`, live-moderation.ts) and leaves the viewer's
 *   lines as they are: Kick's chat API keeps them.
 * - Subs, gifts, KICKs and redemptions stay with the signed webhooks: the socket's copies are not used, so
 *   no second alert can come from them.
 */
import type { LiveChatMessage, LiveEvent, LiveUser } from '../../shared/kick/live-events';
import type { ChatMessageSentPayload, KickEventUser } from '../../shared/kick/events';
import { emotePositions } from '../../shared/emotes';
import type { ChatHistory } from '../services/chat-history';
import type { Clock } from '../core/clock';
import { hashBody } from '../webhooks/dedup/dedup';
import { eventKeyOf } from '../webhooks/events/event-key';
import { parseKickEvent } from '../webhooks/events/parse-event';
import { DEFAULT_MAX_BODY_BYTES } from '../webhooks/receive/receiver';
import type { JournalRecord, KickEvent } from '../webhooks/events/types';

import { LIVE_SOCKET_SOURCE } from '../webhooks/dedup/signed-copy';

export { LIVE_SOCKET_SOURCE };

export interface LiveMergeDeps {
  clock: Clock;
  /** The signed-in broadcaster, whose channel the socket follows; null: nothing is merged. */
  broadcasterUserId: () => number | null;
  /** Journals the line under its key (webhook-service.ts `recordLive`); absent where no journal runs. */
  recordLive: ((record: JournalRecord, eventKey: string, payload?: unknown) => 'new' | 'duplicate' | 'closed') | null;
  /** The event path a webhook's event takes (ingest, then the OBS actions). */
  deliver: (event: KickEvent) => void;
  chat: Pick<ChatHistory, 'markDeleted' | 'recentFor' | 'find'>;
  /** Tells the panels and the overlays a line is gone (`chat:deleted`). */
  deleted: (messageId: string) => void;
  /** A ban, timeout or unban by any moderator, for the mod log (live-moderation.ts). */
  moderated: (event: LiveEvent) => void;
  log: (line: string) => void;
}

/** Counts of what the merge did, for tests and the log. */
export interface LiveMergeCounts {
  shown: number;
  alreadyThere: number;
  removed: number;
  ignored: number;
}

export interface LiveMerge {
  onEvent(event: LiveEvent): void;
  counts(): LiveMergeCounts;
}

export function createLiveMerge(deps: LiveMergeDeps): LiveMerge {
  const counts: LiveMergeCounts = { shown: 0, alreadyThere: 0, removed: 0, ignored: 0 };

  const remove = (messageId: string): void => {
    const line = deps.chat.find(messageId);
    if (line === undefined) {
      // Main no longer keeps the line (its ring and the cards are bounded), but a paused panel may still show
      // it: the panels strike through what they have.
      deps.deleted(messageId);
    } else if (!line.deleted && deps.chat.markDeleted(messageId)) {
      counts.removed++;
      deps.deleted(messageId);
    }
  };

  const chatLine = (message: LiveChatMessage): void => {
    const broadcaster = deps.broadcasterUserId();
    if (deps.recordLive === null || broadcaster === null || message.createdAt === null) {
      // Without Kick's time the line's key could not match its webhook's: the webhook brings it alone.
      counts.ignored++;
      return;
    }
    const nowMs = deps.clock.now();
    const payload = toWebhookPayload(message, broadcaster);
    const body = JSON.stringify(payload);
    if (Buffer.byteLength(body, 'utf8') > DEFAULT_MAX_BODY_BYTES) {
      // Larger than any webhook the receiver takes (Kick's lines are 500 characters): the unsigned socket may
      // not put into chat and the journal what the signed path would refuse.
      deps.log(`live merge: a chat line from the live socket was over ${DEFAULT_MAX_BODY_BYTES} bytes; not used`);
      counts.ignored++;
      return;
    }
    const record: JournalRecord = {
      messageId: `${LIVE_SOCKET_SOURCE}:${message.messageId}`,
      subscriptionId: LIVE_SOCKET_SOURCE,
      type: 'chat.message.sent',
      version: '1',
      timestamp: new Date(nowMs).toISOString(),
      receivedAtMs: nowMs,
      bodyHash: hashBody(body),
      body,
    };
    // The payload as built, not `body` read back: the same values (`created_at` is always there here), and one
    // JSON.parse less per line. The payload's checks still run on it, as on a webhook's.
    const event = parseKickEvent(record, { payload });
    const key = eventKeyOf(record.type, event.payload);
    if (event.kind !== 'known' || key === null) {
      deps.log(
        `live merge: a chat line from the live socket was not usable (${event.kind === 'unknown' ? event.reason : 'no key'})`,
      );
      counts.ignored++;
      return;
    }
    const verdict = deps.recordLive(record, key, payload);
    if (verdict !== 'new') {
      counts.alreadyThere++;
      return;
    }
    counts.shown++;
    deps.deliver(event);
  };

  return {
    onEvent(event) {
      switch (event.type) {
        case 'chat.message':
          return chatLine(event);
        case 'chat.deleted':
          return remove(event.messageId);
        case 'user.banned':
        case 'user.unbanned':
          return deps.moderated(event);
        default:
          // Subs, gifts, KICKs and redemptions come from the signed webhooks; raids and room state are
          // handled beside this module.
          counts.ignored++;
          return;
      }
    },
    counts: () => ({ ...counts }),
  };
}

function eventUser(user: Pick<LiveUser, 'id' | 'username'> & { slug?: string | null }): KickEventUser {
  return {
    is_anonymous: false,
    user_id: user.id,
    username: user.username,
    is_verified: null,
    profile_picture: null,
    channel_slug: user.slug ?? null,
  };
}

/** The socket's line in the webhook's shape, so restore, the views and the bot read it as they read Kick's. */
function toWebhookPayload(message: LiveChatMessage, broadcasterUserId: number): ChatMessageSentPayload {
  const { sender, replyTo } = message;
  return {
    message_id: message.messageId,
    replies_to: replyTo
      ? { message_id: replyTo.messageId, content: replyTo.content, sender: eventUser(replyTo.sender) }
      : null,
    broadcaster: { ...eventUser({ id: broadcasterUserId, username: '' }), username: null },
    sender: {
      ...eventUser(sender),
      identity: {
        username_color: sender.color ?? '',
        badges: sender.badges.map((b) => ({
          text: b.text,
          type: b.type,
          ...(b.count === null ? {} : { count: b.count }),
        })),
      },
    },
    content: message.content,
    // Emote tokens inline in the content, with their places, as the webhook lists them.
    emotes: emotePositions(message.content),
    created_at: message.createdAt ?? undefined,
  };
}
