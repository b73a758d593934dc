/**
 * The webhook-ingest floor in the benchmark's own process (bench/webhook-ingest.ts): what any receiver must
 * do at least (read the body, verify the RSA signature once, answer), so the module's rate is compared
 * with it on the same machine in the same moment. The whole-app comparison uses the same floor in its own
 * process (`side-process.ts`).
 */
import { type KeyObject, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KICK_EVENT_HEADERS } from '../../shared/kick/events';

/**
 * The floor in this process: read the body, verify once, answer. With `verifyOnce` false it is a bare
 * node:http responder.
 */
export function startFloor(key: KeyObject, verifyOnce = true): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const id = String(req.headers[KICK_EVENT_HEADERS.messageId]);
      const ts = String(req.headers[KICK_EVENT_HEADERS.timestamp]);
      const signed = Buffer.concat([Buffer.from(`${id}.${ts}.`), ...chunks]);
      const signature = Buffer.from(String(req.headers[KICK_EVENT_HEADERS.signature]), 'base64');
      // The key alone, as the app verifies (docs/decisions.md#the-app-over-the-durable-floor).
      const ok = !verifyOnce || verify('sha256', signed, key, signature);
      res.writeHead(ok ? 200 : 400, { 'content-type': 'text/plain; charset=utf-8', 'content-length': '2' });
      res.end(ok ? 'OK' : 'NO');
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/kick/webhook`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
