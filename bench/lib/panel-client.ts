/**
 * A panel connected the way a dock connects, minus the page: the panel server's WebSocket with the token
 * from the panel URL (and the Origin a page served by it would send). It counts the events it is pushed
 * and can invoke the contract, e.g. to start a sign-in without clicking.
 */
import WebSocket from 'ws';
import { PANEL_WS_PATH } from '../../shared/panel-protocol';
import { visit } from './app-process';

export interface PanelClient {
  /** Events received, by event name. */
  readonly events: Map<string, number>;
  /** Bytes of event frames received. */
  readonly eventBytes: number;
  /** Event frames received (a turn's events share one). */
  readonly eventFrames: number;
  /** Calls `listener` with every event's name and payload; returns the unsubscribe function. */
  onEvent(listener: (event: string, payload: unknown) => void): () => void;
  invoke<T = unknown>(channel: string, args?: unknown[]): Promise<{ ok: boolean; value?: T; error?: unknown }>;
  close(): Promise<void>;
}

export async function connectPanel(panelUrl: string): Promise<PanelClient> {
  const page = new URL(panelUrl);
  const token = page.searchParams.get('token') ?? '';
  const socket = new WebSocket(`ws://${page.host}${PANEL_WS_PATH}`, { origin: page.origin });
  const events = new Map<string, number>();
  const listeners = new Set<(event: string, payload: unknown) => void>();
  const pending = new Map<number, (result: { ok: boolean; value?: unknown; error?: unknown }) => void>();
  let nextId = 1;
  let eventBytes = 0;
  let frames = 0;
  const ready = new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('close', (code) => reject(new Error(`the panel socket closed (${code}) before it was ready`)));
    socket.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString('utf8')) as {
        type: string;
        event?: string;
        payload?: unknown;
        events?: { event: string; payload: unknown }[];
        id?: number;
        result?: { ok: boolean; value?: unknown; error?: unknown };
      };
      if (frame.type === 'ready') {
        resolve();
      } else if (frame.type === 'event' || frame.type === 'events') {
        eventBytes += data.length;
        frames++;
        // A turn's events come as one `events` frame (shared/panel-protocol.ts).
        for (const { event, payload } of frame.events ?? [{ event: frame.event!, payload: frame.payload }]) {
          events.set(event, (events.get(event) ?? 0) + 1);
          for (const listener of listeners) {
            listener(event, payload);
          }
        }
      } else if (frame.type === 'result') {
        pending.get(frame.id!)?.(frame.result!);
        pending.delete(frame.id!);
      }
    });
  });
  socket.once('open', () => socket.send(JSON.stringify({ type: 'hello', token })));
  await ready;
  return {
    events,
    get eventBytes() {
      return eventBytes;
    },
    get eventFrames() {
      return frames;
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    invoke(channel, args = []) {
      const id = nextId++;
      socket.send(JSON.stringify({ type: 'invoke', id, channel, args }));
      return new Promise((resolve) => pending.set(id, resolve as never));
    },
    close: () =>
      new Promise((resolve) => {
        socket.once('close', () => resolve());
        socket.close();
      }),
  };
}

/**
 * Signs the app in without a page: starts the sign-in over the panel socket and follows the link the app
 * prints (or puts in its account view), which the sandbox approves at once.
 */
export async function signInOverPanel(client: PanelClient, printedLink: () => Promise<string>): Promise<void> {
  let fromView: ((url: string) => void) | null = null;
  const viewLink = new Promise<string>((resolve) => (fromView = resolve));
  const stop = client.onEvent((event, payload) => {
    const url = (payload as { signInUrl?: unknown } | null)?.signInUrl;
    if (event === 'session:changed' && typeof url === 'string') {
      fromView?.(url);
    }
  });
  const login = client.invoke('auth:start-login', [{}]);
  await visit(await Promise.race([printedLink(), viewLink]));
  const result = await login;
  stop();
  if (!result.ok) {
    throw new Error(`sign-in failed: ${JSON.stringify(result.error)}`);
  }
}
