/**
 * The amounts of support a history counts ([history](../../docs/history.md#amounts-that-cannot-be)): KICKs, a
 * subscription's months and the subs in a gift. Kick signs what it sends, but an amount no one could give (no
 * KICKs or fewer, a subscription of no months, a gift to nobody) is not support: the event is kept, with why, and
 * counts for no one, in no total and no list.
 */
import { parseKickEvent } from '../webhooks/events/parse-event';
import type { JournalRecord, KickEvent } from '../webhooks/events/types';

type KnownEvent = Extract<KickEvent, { kind: 'known' }>;

/** The event types whose `amount` is support; each counts only with an amount of at least one. */
export const SUPPORT_TYPES: ReadonlySet<string> = new Set([
  'channel.subscription.new',
  'channel.subscription.renewal',
  'channel.subscription.gifts',
  'kicks.gifted',
]);

/** SQL: an `events` row counts as support (its amount is one or more; an amount set aside is NULL). */
export const COUNTS_AS_SUPPORT_SQL = 'amount >= 1';

/** Whether a stored event counts: any event that is not support, or support with an amount of one or more. */
export function countsAsSupport(type: string, amount: number | null): boolean {
  return !SUPPORT_TYPES.has(type) || (amount !== null && amount >= 1);
}

/** Why an event's amount is impossible, in a streamer's words, or null when it is an amount someone could give. */
export function impossibleAmount(event: KnownEvent): string | null {
  switch (event.type) {
    case 'kicks.gifted':
      return event.payload.gift.amount >= 1 ? null : `a gift of ${event.payload.gift.amount} KICKs`;
    case 'channel.subscription.new':
    case 'channel.subscription.renewal':
      return event.payload.duration >= 1 ? null : `a subscription of ${event.payload.duration} months`;
    case 'channel.subscription.gifts':
      return event.payload.giftees.length >= 1 ? null : 'gifted subs with no one to receive them';
    default:
      return null;
  }
}

/** The same for a journal record: null for any other record, and for one Greenroom cannot read. */
export function impossibleAmountOf(record: JournalRecord): string | null {
  if (!SUPPORT_TYPES.has(record.type)) {
    return null;
  }
  const event = parseKickEvent(record);
  return event.kind === 'known' ? impossibleAmount(event) : null;
}

/**
 * Sets an event with an impossible amount aside: the row keeps why (and no viewer, no amount), so it counts for
 * no one. True when it did, and the caller reads nothing more from it.
 */
export function setAsideImpossible(event: KnownEvent, row: { amount: number | null; text: string | null }): boolean {
  const reason = impossibleAmount(event);
  if (reason === null) {
    return false;
  }
  row.amount = null;
  row.text = JSON.stringify({ impossible: reason });
  return true;
}
