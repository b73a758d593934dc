/** The receiver's answers: JSON for rejections (a courtesy for people testing with curl), a bare 200 for Kick. */
import type { ServerResponse } from 'node:http';
import type { DeliveryHeaders } from './types';

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
