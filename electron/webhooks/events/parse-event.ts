/**
 * Turns an accepted (verified, new) delivery into a typed {@link KickEvent}. Runs while its journal write is on
 * its way (docs/decisions.md, "Shown while the journal write is on its way"), on the journal record, so the same function rebuilds the feed from the journal on start. Never throws:
 * anything it cannot read as a known v1 event comes back as `kind: 'unknown'` with the reason, and is
 * kept rather than dropped.
 */
import { isKickEventType } from '../../../shared/kick/scopes';
import { checkPayload } from './parse-payloads';
import type { JournalRecord, KickEvent } from './types';

/** The only payload version Kick documents for every event type ([reference §5.6](../../../docs/kick-wire-reference.md#56-event-catalogue)). */
const KNOWN_VERSION = '1';

/**
 * The event each record was last read as. A live record is read when it is shown and again when the history keeps
 * it (and, for a gift, when its amount is checked): the same object, handed on by the journal, so its JSON and its
 * checks run once ([decisions](../../../docs/decisions.md#a-record-is-read-once)). Keyed by the record, so it goes
 * when the record does; an entry is used only while the record still holds what it was read from.
 */
const readAs = new WeakMap<JournalRecord, { body: string; event: KickEvent }>();

/** Whether `record` still holds what `event` was read from: the event carries every other field it was read from. */
const readFrom = (record: JournalRecord, body: string, event: KickEvent): boolean =>
  record.body === body &&
  record.type === event.type &&
  record.version === String(event.version) &&
  record.messageId === event.messageId &&
  record.subscriptionId === event.subscriptionId &&
  record.timestamp === event.timestamp &&
  record.receivedAtMs === event.receivedAtMs;

/**
 * Parses and validates one record's body against its `Kick-Event-Type` and `-Version`. `parsed` is the body
 * as the receiver already read it (`JSON.parse` of `record.body`), so a live delivery is parsed once. A record
 * read before (unchanged since) gets the same event back; callers only read it.
 */
export function parseKickEvent(record: JournalRecord, parsed?: { payload: unknown }): KickEvent {
  const known = readAs.get(record);
  if (known && readFrom(record, known.body, known.event)) {
    return known.event;
  }
  const event = readRecord(record, parsed);
  readAs.set(record, { body: record.body, event });
  return event;
}

function readRecord(record: JournalRecord, parsed: { payload: unknown } | undefined): KickEvent {
  const base = {
    messageId: record.messageId,
    subscriptionId: record.subscriptionId,
    timestamp: record.timestamp,
    receivedAtMs: record.receivedAtMs,
  };
  let payload: unknown;
  try {
    payload = parsed ? parsed.payload : (JSON.parse(record.body) as unknown);
  } catch (error) {
    return unknown(`body is not JSON (${error instanceof Error ? error.message : String(error)})`, undefined);
  }
  try {
    const type = record.type;
    if (!isKickEventType(type)) {
      return unknown(`unknown event type "${type}"`, payload);
    }
    if (record.version !== KNOWN_VERSION) {
      return unknown(`unknown version "${record.version}" of ${type}`, payload);
    }
    const result = checkPayload(type, payload);
    if (!result.ok) {
      return unknown(result.error, payload);
    }
    // checkPayload pairs each type with its payload type, which TypeScript cannot follow through `type`.
    return { kind: 'known', type, version: 1, ...base, payload: result.value } as KickEvent;
  } catch (error) {
    return unknown(
      `payload could not be validated (${error instanceof Error ? error.message : String(error)})`,
      payload,
    );
  }

  function unknown(reason: string, raw: unknown): KickEvent {
    return { kind: 'unknown', type: record.type, version: record.version, ...base, payload: raw, reason };
  }
}
