/**
 * Reads the six `Kick-Event-*` headers of a delivery ([reference §5.2](../../../docs/kick-wire-reference.md#52-headers-on-event-webhooks)) and checks them before anything
 * expensive happens: each present exactly once, short, printable ASCII, and the timestamp an RFC 3339
 * date-time. Pure: takes Node's `headersDistinct` shape, so duplicates are visible (Node's plain
 * `headers` joins repeated custom headers with ", ", which would hide a second signature).
 */
import { KICK_EVENT_HEADERS } from '../../../shared/kick/events';
import { parseRfc3339 } from '../events/replay-guard';
import type { DeliveryHeaders } from '../events/types';
import { type Checked, rejectWith } from '../events/webhook-error';

/** Longest header value accepted. Kick's are ULIDs, a 344-character signature and short names. */
export const MAX_HEADER_BYTES = 512;

/** Header names as Kick spells them on the wire, for messages a human reads. */
const DISPLAY_NAMES: Record<keyof DeliveryHeaders, string> = {
  messageId: 'Kick-Event-Message-Id',
  subscriptionId: 'Kick-Event-Subscription-Id',
  signature: 'Kick-Event-Signature',
  timestamp: 'Kick-Event-Message-Timestamp',
  type: 'Kick-Event-Type',
  version: 'Kick-Event-Version',
};

const FIELDS = Object.keys(KICK_EVENT_HEADERS) as (keyof DeliveryHeaders)[];

// Visible ASCII only: the values go into the signed string byte for byte, into logs and into the journal.
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

/** The headers, and the timestamp already parsed for the replay window. */
export interface ReadHeaders {
  headers: DeliveryHeaders;
  timestampMs: number;
}

/** Header name (lower-case) → every value received, as `IncomingMessage.headersDistinct` gives them. */
export type DistinctHeaders = Record<string, string[] | undefined>;

/**
 * Checks and returns the six headers; the failure names the first bad header.
 *
 * The message id may not contain `.`: the signed string is `id.timestamp.body`, and a dot-free id (Kick's
 * are ULIDs) together with the strict timestamp grammar makes the split of that string unambiguous.
 */
export function readDeliveryHeaders(distinct: DistinctHeaders): Checked<ReadHeaders> {
  const headers = {} as DeliveryHeaders;
  for (const field of FIELDS) {
    const name = DISPLAY_NAMES[field];
    const values = distinct[KICK_EVENT_HEADERS[field]];
    if (values === undefined || values.length === 0) {
      return bad(`${name}: missing`);
    }
    if (values.length > 1) {
      return bad(`${name}: sent ${values.length} times`);
    }
    const value = values[0]!;
    if (value.length === 0) {
      return bad(`${name}: empty`);
    }
    if (value.length > MAX_HEADER_BYTES) {
      return bad(`${name}: longer than ${MAX_HEADER_BYTES} bytes`);
    }
    if (!VISIBLE_ASCII.test(value)) {
      return bad(`${name}: not printable ASCII`);
    }
    headers[field] = value;
  }
  if (headers.messageId.includes('.')) {
    return bad(`${DISPLAY_NAMES.messageId}: contains "."`);
  }
  const timestampMs = parseRfc3339(headers.timestamp);
  if (timestampMs === null) {
    return bad(`${DISPLAY_NAMES.timestamp}: not an RFC 3339 date-time`);
  }
  return { ok: true, value: { headers, timestampMs } };
}

function bad(message: string): Checked<never> {
  return rejectWith('WebhookHeaders', 400, message);
}
