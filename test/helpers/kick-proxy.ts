/**
 * A fake Kick in front of the sandbox's API host: every request goes through to the sandbox unchanged, every
 * answer is recorded (method, path, status, JSON body), and a test may change an answer's JSON before the client
 * reads it, as Kick would by renaming or retyping a field. Used by the answer contract
 * (docs/kick-wire-reference.md#3-rest-endpoints).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { readRequestBody } from './request-body';

export interface RecordedAnswer {
  method: string;
  path: string;
  status: number;
  json: unknown;
}

/** Changes an answer's parsed JSON in place or returns a replacement; `undefined` leaves it as the sandbox sent it. */
export type Tamper = (method: string, path: string, json: unknown) => unknown;

export interface KickProxy {
  url: string;
  answers: RecordedAnswer[];
  tamper: Tamper | undefined;
  close(): Promise<void>;
}

/** Starts the proxy on a free loopback port in front of `target` (the sandbox's API URL). */
export async function startKickProxy(target: string): Promise<KickProxy> {
  const proxy: KickProxy = { url: '', answers: [], tamper: undefined, close: () => Promise.resolve() };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readRequestBody(req);
      const url = new URL(req.url ?? '/', target);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) {
          headers[name] = value;
        }
      }
      const method = (req.method ?? 'GET') as 'GET';
      const upstream = await request(url, { method, headers, body: body.length > 0 ? body : undefined });
      const text = await upstream.body.text();
      let json: unknown;
      try {
        json = text.length > 0 ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      proxy.answers.push({ method, path: url.pathname, status: upstream.statusCode, json });
      const changed = json === undefined ? undefined : proxy.tamper?.(method, url.pathname, json);
      const out = changed === undefined ? text : JSON.stringify(changed);
      const contentType = upstream.headers['content-type'];
      res.writeHead(upstream.statusCode, typeof contentType === 'string' ? { 'content-type': contentType } : {});
      res.end(out);
    })().catch((error: unknown) => {
      res.writeHead(502).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}
