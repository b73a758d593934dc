/** The receiver's answers: JSON for rejections (a courtesy for people testing with curl), a bare 200 for Kick. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hasBody } from './read-body';
import type { DeliveryHeaders, ReceiverCounters } from '../events/types';
import type { WebhookError } from '../events/webhook-error';

/** A JSON answer, unless one was already sent or the client is gone. */
export function reply(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) {
    return;
  }
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(body);
}

const OK_HEADERS = { 'content-type': 'text/plain; charset=utf-8', 'content-length': '2' };

/** Kick reads only the status; the body is a courtesy for people testing with curl. */
export function replyOk(res: ServerResponse): void {
  if (res.headersSent || res.destroyed) {
    return;
  }
  res.writeHead(200, OK_HEADERS);
  res.end('OK');
}

/** Log fields naming a delivery (never its body or signature). */
export function describe(headers: DeliveryHeaders): Record<string, unknown> {
  return { messageId: headers.messageId, type: headers.type };
}

/** A rejection: counted by code, logged once (code and reason, never the body), answered with its status. */
export function createReject(
  counters: ReceiverCounters,
  log: (level: 'warn' | 'error', message: string, fields: Record<string, unknown>) => void,
): (req: IncomingMessage, res: ServerResponse, error: WebhookError, fields?: Record<string, unknown>) => void {
  return (req, res, error, fields = {}) => {
    counters.rejected++;
    counters.rejectedByCode[error.code] = (counters.rejectedByCode[error.code] ?? 0) + 1;
    log(error.status >= 500 ? 'error' : 'warn', 'webhook rejected', {
      code: error.code,
      status: error.status,
      reason: error.message,
      ...fields,
    });
    const headers: Record<string, string> = error.status === 405 ? { allow: 'POST' } : {};
    // An unread body would be drained by Node to keep the connection; close it instead (bounded work).
    if (!req.readableEnded && hasBody(req.headersDistinct)) {
      headers.connection = 'close';
    }
    reply(res, error.status, { error: error.code, message: error.message }, headers);
  };
}
