/**
 * The receiver's hand-over to the app: lag tracking, parse, and the listener, none of which may reach the
 * response or the server; and the journal's append as a promise the receiver can always settle its claim on.
 */
import { parseKickEvent } from '../events/parse-event';
import type { EventJournal, JournalRecord, KickEvent } from '../events/types';

export interface PublishDeps {
  onEvent: (event: KickEvent) => void;
  onAccepted?: (record: JournalRecord) => void;
  log: (level: 'info' | 'error', message: string, fields: Record<string, unknown>) => void;
}

/** A new record and its body as the receiver already parsed it (so it is not parsed twice). */
export interface Accepted {
  record: JournalRecord;
  payload: unknown;
}

/** Publishes one new record; every failure is logged, none is thrown. */
export function createPublish(deps: PublishDeps): (accepted: Accepted) => void {
  return ({ record, payload }) => {
    try {
      deps.onAccepted?.(record);
    } catch (error) {
      deps.log('error', 'webhook onAccepted failed', { messageId: record.messageId, error: String(error) });
    }
    try {
      const event = parseKickEvent(record, { payload });
      if (event.kind === 'unknown') {
        deps.log('info', 'webhook event not understood', { messageId: record.messageId, reason: event.reason });
      }
      deps.onEvent(event);
    } catch (error) {
      deps.log('error', 'webhook listener failed', { messageId: record.messageId, error: String(error) });
    }
  };
}

/** The journal's append as a promise, even if it throws at once (so the dedup claim is always settled). */
export function appendRecord(journal: EventJournal, record: JournalRecord): Promise<void> {
  try {
    return journal.append(record);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
