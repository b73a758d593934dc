/**
 * Fakes for the live connection's injected parts: time that moves only when a test says, a transport whose
 * sessions a test drives frame by frame, and a scripted `fetch`.
 */
import type { LiveEvent } from '../../../../shared/kick/live-events';
import { LiveConnection, type LiveConnectionDeps } from '../../../../electron/live-socket/live-connection';
import type { LiveTarget, TransportHandlers } from '../../../../electron/live-socket/live-transport';
import type { WebFetch, WebResponse } from '../../../../electron/live-socket/web-fetch';

/** A clock and timers in one: `advance` moves time and fires what fell due, in order. */
export class FakeTime {
  nowMs = 1_800_000_000_000;
  #timers: { at: number; fn: () => void; id: number }[] = [];
  #next = 1;

  now = (): number => this.nowMs;

  setTimer = (fn: () => void, ms: number): { cancel(): void } => {
    const id = this.#next++;
    this.#timers.push({ at: this.nowMs + ms, fn, id });
    return { cancel: () => (this.#timers = this.#timers.filter((t) => t.id !== id)) };
  };

  /** Delays of the timers pending now, soonest first. */
  pending(): number[] {
    return this.#timers.map((t) => t.at - this.nowMs).sort((a, b) => a - b);
  }

  advance(ms: number): void {
    const end = this.nowMs + ms;
    for (;;) {
      const due = this.#timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) {
        break;
      }
      this.#timers = this.#timers.filter((t) => t !== due);
      this.nowMs = due.at;
      due.fn();
    }
    this.nowMs = end;
  }
}

export interface FakeSession {
  target: LiveTarget;
  channels: readonly string[];
  handlers: TransportHandlers;
  closed: boolean;
}

/** Records every session the connection opens; the test plays the server. */
export class FakeTransports {
  readonly sessions: FakeSession[] = [];

  readonly transports = {
    pusher: (target: LiveTarget, channels: readonly string[], handlers: TransportHandlers) =>
      this.#open(target, channels, handlers),
    centrifugo: (target: LiveTarget, channels: readonly string[], handlers: TransportHandlers) =>
      this.#open(target, channels, handlers),
  };

  get last(): FakeSession {
    const session = this.sessions.at(-1);
    if (!session) {
      throw new Error('no session was opened');
    }
    return session;
  }

  #open(target: LiveTarget, channels: readonly string[], handlers: TransportHandlers) {
    const session: FakeSession = { target, channels, handlers, closed: false };
    this.sessions.push(session);
    return { close: () => (session.closed = true) };
  }
}

export const IDS = { channelId: 99, chatroomId: 4242 };
export const PUSHER_TARGET: LiveTarget = {
  provider: 'pusher',
  socketUrl: 'wss://stand-in',
  key: 'k',
  cluster: 'us2',
  keySource: 'discovered',
};

/** Lets the connection's awaited ids and discovery settle. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await Promise.resolve();
  }
}

export function makeConnection(over: Partial<LiveConnectionDeps> = {}) {
  const time = new FakeTime();
  const fake = new FakeTransports();
  const lines: string[] = [];
  const events: LiveEvent[] = [];
  const connection = new LiveConnection({
    clock: { now: time.now },
    setTimer: time.setTimer,
    random: () => 0,
    transports: fake.transports,
    ids: () => Promise.resolve({ ok: true, value: IDS }),
    discover: () => Promise.resolve(PUSHER_TARGET),
    log: (line) => lines.push(line),
    ...over,
  });
  connection.onEvent((event) => events.push(event));
  return { connection, time, fake, lines, events };
}

/** A scripted `fetch`: each call is answered by `answer`, and recorded. */
export function scriptedFetch(
  answer: (url: string, body: unknown) => { status: number; body: string; headers?: Record<string, string> } | Error,
) {
  const calls: { url: string; method: string; body: unknown }[] = [];
  const fetch: WebFetch = (url, init) => {
    const body = init.body === undefined ? undefined : JSON.parse(init.body);
    calls.push({ url, method: init.method, body });
    const reply = answer(url, body);
    if (reply instanceof Error) {
      return Promise.reject(reply);
    }
    const response: WebResponse = {
      status: reply.status,
      headers: { get: (name) => reply.headers?.[name.toLowerCase()] ?? null },
      text: () => Promise.resolve(reply.body),
    };
    return Promise.resolve(response);
  };
  return { fetch, calls };
}
