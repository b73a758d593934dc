/**
 * Test doubles for the panel server: the real contract router (so validation is the product's own) over
 * stub handlers that record what they got, the real app event emitter, a built-renderer folder on disk,
 * and small HTTP and WebSocket clients that can set any Host and Origin.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tempDir } from './temp-dir';
import { request } from 'node:http';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { createAppEvents, type AppEventEmitter } from '../../electron/core/app-events';
import { createRouter, type InvokeHandlers, type Router, type SendHandlers } from '../../electron/ipc/router';
import { INVOKE_SCHEMAS, SEND_SCHEMAS } from '../../shared/ipc-contract';
import { parseServerFrame, type ServerFrame } from '../../shared/panel-protocol';

export interface FakeApp {
  router: Router;
  events: AppEventEmitter;
  /** Every handler call that got through validation, in order. */
  calls: { channel: string; args: unknown[] }[];
  logs: string[];
  /** Replace one invoke handler's behaviour. */
  answer(channel: keyof typeof INVOKE_SCHEMAS, fn: (...args: unknown[]) => Promise<unknown>): void;
}

export function createFakeApp(): FakeApp {
  const calls: FakeApp['calls'] = [];
  const logs: string[] = [];
  const answers = new Map<string, (...args: unknown[]) => Promise<unknown>>();
  const invoke: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const channel of Object.keys(INVOKE_SCHEMAS)) {
    invoke[channel] = (...args) => {
      calls.push({ channel, args });
      return answers.get(channel)?.(...args) ?? Promise.resolve({ echo: args });
    };
  }
  const send: Record<string, (...args: unknown[]) => void> = {};
  for (const channel of Object.keys(SEND_SCHEMAS)) {
    send[channel] = (...args) => {
      calls.push({ channel, args });
    };
  }
  const log = (line: string): void => {
    logs.push(line);
  };
  return {
    router: createRouter({
      handlers: { invoke: invoke as unknown as InvokeHandlers, send: send as unknown as SendHandlers },
      log,
    }),
    events: createAppEvents(log),
    calls,
    logs,
    answer: (channel, fn) => answers.set(channel, fn),
  };
}

/** A stand-in for `out/renderer`, with a secret file beside it and a symlink pointing at that file. */
export function makeRendererDir(): { dir: string; secretPath: string } {
  const root = tempDir('greenroom-panel-');
  const dir = join(root, 'renderer');
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><title>Greenroom</title><script src="./assets/app-1a2b.js"></script>',
  );
  writeFileSync(join(dir, 'assets', 'app-1a2b.js'), 'console.log("panel");');
  writeFileSync(join(dir, 'assets', 'app-1a2b.css'), 'body{}');
  writeFileSync(join(dir, 'assets', 'app-1a2b.js.map'), '{}');
  const secretPath = join(root, 'secret.txt');
  writeFileSync(secretPath, 'TOP-SECRET');
  symlinkSync(secretPath, join(dir, 'assets', 'linked.txt'));
  return { dir, secretPath };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A GET (or other method) with exactly the given path and headers; Host defaults to 127.0.0.1:<port>. */
export function rawGet(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A WebSocket client that records every server frame and can await the next one of a type. */
export class TestSocket {
  readonly ws: WebSocket;
  /** Every frame received, in order, an `events` frame as its events one by one. */
  readonly all: ServerFrame[] = [];
  /** The frames as they came over the wire. */
  readonly frames: ServerFrame[] = [];
  readonly #unclaimed: ServerFrame[] = [];
  readonly #waiters: { type: string; resolve: (f: ServerFrame) => void }[] = [];
  readonly #closed: Promise<number>;

  constructor(url: string, options: { origin?: string; headers?: Record<string, string> } = {}) {
    this.ws = new WebSocket(url, { ...options });
    this.ws.on('message', (data: Buffer) => {
      const parsed = parseServerFrame(data.toString('utf8'));
      if (!parsed) {
        return;
      }
      this.frames.push(parsed);
      // A turn's events arrive as one `events` frame; tests read them one event at a time.
      const frames: ServerFrame[] =
        parsed.type === 'events' ? parsed.events.map((e) => ({ type: 'event', ...e })) : [parsed];
      for (const frame of frames) {
        this.#take(frame);
      }
    });
    this.ws.on('error', () => undefined);
    // Not events.once: that rejects on an 'error' event, and refused upgrades emit one.
    this.#closed = new Promise((resolve) => this.ws.once('close', (code: number) => resolve(code)));
  }

  #take(frame: ServerFrame): void {
    this.all.push(frame);
    const i = this.#waiters.findIndex((w) => w.type === frame.type);
    if (i >= 0) {
      this.#waiters.splice(i, 1)[0]!.resolve(frame);
    } else {
      this.#unclaimed.push(frame);
    }
  }

  /** Resolves when the socket opens; rejects with the HTTP status when the upgrade is refused. */
  opened(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
      this.ws.once('error', reject);
    });
  }

  next<T extends ServerFrame['type']>(type: T): Promise<Extract<ServerFrame, { type: T }>> {
    const seen = this.#unclaimed.findIndex((f) => f.type === type);
    if (seen >= 0) {
      return Promise.resolve(this.#unclaimed.splice(seen, 1)[0] as Extract<ServerFrame, { type: T }>);
    }
    return new Promise((resolve) => this.#waiters.push({ type, resolve: resolve as (f: ServerFrame) => void }));
  }

  /** Resolves with the close code. */
  closed(): Promise<number> {
    return this.#closed;
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }
}
