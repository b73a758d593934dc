/**
 * When an accepted event happened, for delivery lag: the payload's own time where Kick documents one for
 * that purpose (`WIRE_ASSUMPTIONS.eventTimeFields`), else `Kick-Event-Message-Timestamp`, Kick's send time.
 */
import { WIRE_ASSUMPTIONS } from '../../kick/wire-assumptions';
import type { LagSource } from './delivery-lag';
import { parseRfc3339 } from './replay-guard';
import type { KickEvent } from './types';

/** The start of an event's delivery lag and where it came from. */
export interface EventTime {
  /** RFC 3339. */
  at: string;
  source: LagSource;
}

/** The event's own time when its payload has a readable one, else the send-time header. */
export function eventTimeOf(event: KickEvent): EventTime {
  const field = WIRE_ASSUMPTIONS.eventTimeFields[event.type];
  const payload = event.payload;
  if (field !== undefined && typeof payload === 'object' && payload !== null) {
    const value = (payload as Record<string, unknown>)[field];
    // A malformed field falls back to the header rather than losing the sample.
    if (typeof value === 'string' && parseRfc3339(value) !== null) {
      return { at: value, source: 'event' };
    }
  }
  return { at: event.timestamp, source: 'sent' };
}
