/**
 * Which Kick events raise an alert, with the fields its template may use and the amount its minimum is
 * compared with (gifted subs: how many; KICKs: how much). Pure. A redemption alerts once, on its first
 * delivery: Kick sends the same redemption again when it is accepted or rejected (docs/overlays.md).
 */
import type { AlertFields, AlertKind } from '../../shared/overlays';
import type { KickEvent } from '../webhooks/events/types';
import { alertTimeOf } from './alert-time';

export interface AlertSource {
  /** The delivery's message id: what marks the alert as shown across restarts. */
  id: string;
  kind: AlertKind;
  fields: AlertFields;
  /** Compared with the template's `minAmount` (1 for events without an amount). */
  amount: number;
  receivedAtMs: number;
  /** When the event happened (alert-time.ts): an alert older than the set age is dropped, not played. */
  eventAtMs: number;
  /** A redemption's id, so its later status updates do not alert again. */
  redemptionId?: string;
}

const ANONYMOUS = 'Anonymous';

/** The alert an event raises, or null. */
export function alertSourceOf(event: KickEvent): AlertSource | null {
  if (event.kind !== 'known') {
    return null;
  }
  const base = { id: event.messageId, receivedAtMs: event.receivedAtMs, eventAtMs: alertTimeOf(event) };
  switch (event.type) {
    case 'channel.followed':
      return { ...base, kind: 'follow', fields: { user: name(event.payload.follower) }, amount: 1 };
    case 'channel.subscription.new':
      return {
        ...base,
        kind: 'subscription',
        fields: { user: name(event.payload.subscriber), months: String(event.payload.duration) },
        amount: 1,
      };
    case 'channel.subscription.renewal':
      return {
        ...base,
        kind: 'renewal',
        fields: { user: name(event.payload.subscriber), months: String(event.payload.duration) },
        amount: 1,
      };
    case 'channel.subscription.gifts': {
      const count = event.payload.giftees.length;
      return {
        ...base,
        kind: 'gifted-subs',
        fields: { user: name(event.payload.gifter), count: String(count) },
        amount: count,
      };
    }
    case 'kicks.gifted': {
      const { gift, sender } = event.payload;
      return {
        ...base,
        kind: 'kicks',
        fields: { user: name(sender), amount: String(gift.amount), message: gift.message ?? '' },
        amount: gift.amount,
      };
    }
    case 'channel.reward.redemption.updated': {
      const p = event.payload;
      return {
        ...base,
        kind: 'redemption',
        fields: { user: name(p.redeemer), reward: p.reward.title, message: p.user_input },
        amount: 1,
        redemptionId: p.id,
      };
    }
    case 'livestream.status.updated':
      return event.payload.is_live
        ? { ...base, kind: 'live', fields: { title: event.payload.title }, amount: 1 }
        : null;
    default:
      return null;
  }
}

function name(user: { username?: string | null; is_anonymous?: boolean }): string {
  return user.is_anonymous || !user.username ? ANONYMOUS : user.username;
}
