/**
 * What the live-socket tests share: a sandbox per test, the real pusher-js and centrifuge clients pointed
 * at it, and a raw `ws` client for frames no well-behaved client sends.
 */
import { Centrifuge } from 'centrifuge';
import Pusher from 'pusher-js';
import { afterEach, beforeEach } from 'vitest';
import { WebSocket } from 'ws';
import { createSigningKeys, type Sandbox, type SandboxOptions } from '../../../sandbox/index';
import { chatroomIdOf, PUSHER_APP_KEY } from '../../../sandbox/live-socket/ids';
import { rawText } from '../../../sandbox/live-socket/pusher-session';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { call, callAdmin, startSandbox } from '../../helpers/sandbox';

export const CHATROOM = `chatrooms.${chatroomIdOf(STREAMER_USER_ID)}.v2`;
export const CHAT_EVENT = 'App\\Events\\ChatMessageEvent';

/** One key for every sandbox in a file: RSA generation takes up to a second. */
const keys = createSigningKeys();

export const fx = {} as { sandbox: Sandbox; logs: string[]; closers: (() => void)[] };

/** A fresh sandbox for each test (manual webhook delivery), and every client closed after it. */
export function useLiveSandbox(options: SandboxOptions = {}): void {
  beforeEach(async () => {
    fx.logs = [];
    fx.closers = [];
    fx.sandbox = await startSandbox({ keys, delivery: { tickMs: 0 }, log: (line) => fx.logs.push(line), ...options });
  });
  afterEach(async () => {
    for (const close of fx.closers) {
      close();
    }
    await fx.sandbox.close();
  });
}

export function admin(method: string, path: string, body?: unknown): ReturnType<typeof call> {
  return callAdmin(fx.sandbox, method, path, { body });
}

/** Sends a chat line through the admin trigger (as a viewer would type it); resolves to its message id. */
export async function triggerChat(content: string): Promise<string> {
  const res = await admin('POST', '/trigger/chat.message.sent', { overrides: { content } });
  if (res.status !== 200) {
    throw new Error(`trigger failed: ${res.status} ${res.text}`);
  }
  return res.json.events[0].payload.message_id as string;
}

/** pusher-js 8, unchanged, pointed at the sandbox's socket as a Kick client would be at ws-us2.pusher.com. */
export function pusherClient(): Pusher {
  const url = new URL(fx.sandbox.urls.socket);
  const pusher = new Pusher(PUSHER_APP_KEY, {
    cluster: 'us2',
    wsHost: url.hostname,
    wsPort: Number(url.port),
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
  });
  fx.closers.push(() => pusher.disconnect());
  return pusher;
}

/** centrifuge 5, unchanged, with the token the web host mints (as Kick's web client gets it). */
export async function centrifugeClient(): Promise<Centrifuge> {
  const token = await call(fx.sandbox.urls.web, 'POST', '/api/v1/realtime/auth/connection', {
    body: { client_id: 'test-client' },
  });
  const client = new Centrifuge(`${fx.sandbox.urls.socket}/connection/websocket`, {
    websocket: WebSocket,
    token: token.json.data.token as string,
  });
  fx.closers.push(() => client.disconnect());
  return client;
}

/** The next time `bind` calls back, with what it passed. */
export function once<T>(bind: (callback: (value: T) => void) => void): Promise<T> {
  return new Promise((resolve) => bind(resolve));
}

/** A raw socket that keeps every text frame it gets, for hostile frames and exact bytes. */
export interface RawClient {
  ws: WebSocket;
  frames: string[];
  /** The next frame not yet taken, waiting for it if need be. */
  next(): Promise<string>;
  /** The next frame that is a JSON object with this `event` (frames before it are skipped). */
  nextEvent(event: string): Promise<Record<string, any>>;
  closed: Promise<{ code: number; reason: string }>;
}

export function rawClient(path: string, headers: Record<string, string> = {}): Promise<RawClient> {
  const ws = new WebSocket(`${fx.sandbox.urls.socket}${path}`, { headers });
  fx.closers.push(() => ws.terminate());
  const frames: string[] = [];
  let taken = 0;
  let wake: (() => void) | null = null;
  ws.on('message', (data) => {
    frames.push(rawText(data));
    wake?.();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const next = async (): Promise<string> => {
    while (taken >= frames.length) {
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
    return frames[taken++]!;
  };
  const nextEvent = async (event: string): Promise<Record<string, any>> => {
    for (;;) {
      const frame = JSON.parse(await next()) as Record<string, any>;
      if (frame.event === event) {
        return frame;
      }
    }
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, frames, next, nextEvent, closed }));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`refused with HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

export const PUSHER_PATH = `/app/${PUSHER_APP_KEY}?protocol=7&client=js&version=8.4.0&flash=false`;

/** A raw Pusher connection past `connection_established`. */
export async function rawPusher(): Promise<RawClient> {
  const client = await rawClient(PUSHER_PATH);
  await client.nextEvent('pusher:connection_established');
  return client;
}

export function send(client: RawClient, frame: unknown): void {
  client.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
}
