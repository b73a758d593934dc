/**
 * When an alert's event happened, so an alert that would play long after the fact is dropped instead
 * (docs/overlays.md#controlling-the-alert-queue). Pure.
 *
 * - Where Kick's payload carries the moment of the event itself, that: a gift's or a new sub's
 *   `created_at`, a redemption's `redeemed_at`, a stream's `started_at`. Kick can hold deliveries in its
 *   queue for minutes at busy times, and only these times show that delay.
 * - Otherwise the time the app already takes as the event's (`event-time.ts`: chat's `created_at`, else
 *   `Kick-Event-Message-Timestamp`, Kick's send time). A renewal's `created_at` is not used: it may be
 *   when the subscription began, months ago.
 * - Never later than when Greenroom received it: a time in the future means the clocks disagree, and the
 *   alert then counts as just happened rather than as never growing old.
 */
import type { KickEventType } from '../../shared/kick/scopes';
import { eventTimeOf } from '../webhooks/events/event-time';
import { parseRfc3339 } from '../webhooks/events/replay-guard';
import type { KickEvent } from '../webhooks/events/types';

/** The payload field that dates the event itself, per event type that raises an alert. */
const OWN_TIME_FIELDS: Partial<Record<KickEventType, string>> = {
  'kicks.gifted': 'created_at',
  'channel.subscription.gifts': 'created_at',
  'channel.subscription.new': 'created_at',
  'channel.reward.redemption.updated': 'redeemed_at',
  'livestream.status.updated': 'started_at',
};

/** Epoch ms when the event happened, at most its receipt time. */
export function alertTimeOf(event: KickEvent): number {
  const field = event.kind === 'known' ? OWN_TIME_FIELDS[event.type] : undefined;
  const payload = event.payload as Record<string, unknown> | null;
  const own = field !== undefined && payload !== null && typeof payload === 'object' ? payload[field] : undefined;
  const parsed =
    (typeof own === 'string' ? parseRfc3339(own) : null) ?? parseRfc3339(eventTimeOf(event).at) ?? event.receivedAtMs;
  return Math.min(parsed, event.receivedAtMs);
}
