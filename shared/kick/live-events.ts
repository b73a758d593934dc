/**
 * The typed events Kick's live socket carries, as Greenroom uses them ([reference §10](../../docs/kick-wire-reference.md#10-kicks-live-socket)).
 * Unlike `events.ts`, these are not Kick's wire shapes: the socket is unofficial and its payloads drift, so
 * `live-frames.ts` reads each frame leniently and keeps only the fields below, in Greenroom's names.
 * Every event carries the channel alias it came on and, where the payload has one, Kick's own time.
 */

export interface LiveUser {
  id: number;
  username: string;
  slug: string | null;
}

export interface LiveBadge {
  type: string;
  text: string;
  /** Months for `subscriber`, gifts for `sub_gifter`; absent on most badges. */
  count: number | null;
}

export interface LiveChatMessage {
  /** The same UUID the `chat.message.sent` webhook carries as `message_id`. */
  messageId: string;
  chatroomId: number | null;
  content: string;
  /** `message`, `reply`, `celebration`, or a kind Kick adds later. */
  messageType: string;
  sender: LiveUser & { color: string | null; badges: LiveBadge[] };
  /** Present for replies that name both the original message and its sender. */
  replyTo: { messageId: string; content: string; sender: { id: number; username: string } } | null;
  createdAt: string | null;
}

interface Base {
  /** The Pusher channel (or Centrifugo channel) the frame came on, e.g. `chatrooms.123.v2`. */
  channel: string | null;
}

export type LiveEvent = Base &
  (
    | ({ type: 'chat.message' } & LiveChatMessage)
    | { type: 'chat.deleted'; messageId: string; aiModerated: boolean; violatedRules: string[] }
    | {
        type: 'user.banned';
        user: LiveUser;
        bannedBy: LiveUser | null;
        /** False with `durationMinutes` set: a timeout. */
        permanent: boolean;
        durationMinutes: number | null;
        expiresAt: string | null;
      }
    | { type: 'user.unbanned'; user: LiveUser; unbannedBy: LiveUser | null; permanent: boolean }
    | {
        type: 'host';
        /** Kick sends each host twice: `v2` (StreamHostEvent) and `v1` (StreamHostedEvent). */
        version: 'v1' | 'v2';
        /** v1 carries a message id; v2 has none. */
        hostId: string | null;
        hostUsername: string;
        viewers: number;
        message: string | null;
        createdAt: string | null;
      }
    | { type: 'raid.outgoing'; targetSlug: string; viewers: number | null }
    | {
        type: 'chatroom.updated';
        slowMode: { enabled: boolean; intervalSeconds: number | null } | null;
        followersMode: { enabled: boolean; minDurationMinutes: number | null } | null;
        subscribersMode: { enabled: boolean } | null;
        emotesMode: { enabled: boolean } | null;
      }
    | { type: 'chat.cleared' }
    | {
        type: 'pin.created';
        message: LiveChatMessage;
        durationSeconds: number | null;
        pinnedBy: LiveUser | null;
      }
    | { type: 'pin.deleted' }
    | { type: 'subscription'; username: string; months: number | null }
    | {
        type: 'subs.gifted';
        gifterUsername: string | null;
        recipients: string[];
        gifterTotal: number | null;
      }
    | {
        type: 'kicks.gifted';
        transactionId: string | null;
        sender: LiveUser;
        giftId: string;
        giftName: string | null;
        amount: number;
        message: string | null;
        createdAt: string | null;
      }
    | {
        type: 'reward.redeemed';
        title: string;
        userId: number | null;
        username: string;
        input: string | null;
      }
    | { type: 'stream.live'; livestreamId: number | null; title: string | null; createdAt: string | null }
    | { type: 'stream.offline'; livestreamId: number | null }
  );

export type LiveEventType = LiveEvent['type'];
