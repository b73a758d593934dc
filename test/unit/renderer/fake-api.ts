/**
 * A fake PanelApi for renderer tests: the real `createPanelApi` over an in-memory transport, so the method
 * names and argument shapes are the contract's. Tests set canned Results per channel, read the calls made,
 * hold a call open to see "pending", and emit events as main would.
 */
import type { ErrorCode, Result } from '../../../shared/errors';
import type {
  EventChannel,
  EventPayloads,
  InvokeChannel,
  InvokeResults,
  SendChannel,
} from '../../../shared/ipc-contract';
import { createPanelApi, type PanelApi, type PanelTransport } from '../../../shared/panel-api';
import type { Clock, FrameScheduler } from '../../../renderer/src/lib/clock';
import { OBS_VIEW_NOT_SET_UP } from '../../../shared/obs';
import * as fx from './fixtures';

type Handler = (...args: any[]) => Result<unknown> | Promise<Result<unknown>>;

export interface FakeApi {
  api: PanelApi;
  /** Every invoke, in order. */
  calls: { channel: InvokeChannel; args: unknown[] }[];
  sent: { channel: SendChannel; args: unknown[] }[];
  ok<C extends InvokeChannel>(channel: C, value: InvokeResults[C]): void;
  fail(channel: InvokeChannel, code: ErrorCode, message?: string): void;
  handle(channel: InvokeChannel, handler: Handler): void;
  /** Holds the next calls on `channel` open until `release` is called with a result. */
  hold<C extends InvokeChannel>(channel: C): { release(result: Result<InvokeResults[C]>): void };
  argsOf(channel: InvokeChannel): unknown[][];
  emit<E extends EventChannel>(event: E, payload: EventPayloads[E]): void;
  listeners(event: EventChannel): number;
}

/** Defaults: a signed-in sandbox session with empty lists. */
function defaults(): Map<InvokeChannel, Handler> {
  const ok = (value: unknown) => () => ({ ok: true as const, value });
  return new Map<InvokeChannel, Handler>([
    ['app:snapshot', ok(fx.snapshot())],
    ['chat:history', ok([])],
    ['feed:history', ok([])],
    ['mod:log', ok([])],
    [
      'mod:user-card',
      (a: { userId: number }) => ({
        ok: true,
        value: { userId: a.userId, username: 'x', recentMessages: [], actions: [], chatter: null, note: '' },
      }),
    ],
    ['chat:delete', ok(null)],
    ['chat:send', ok({ is_sent: true, message_id: 'sent-1' })],
    [
      'mod:timeout',
      (a: { userId: number; minutes: number }) => ({
        ok: true,
        value: fx.modAction({ kind: 'timeout', targetUserId: a.userId, minutes: a.minutes }),
      }),
    ],
    [
      'mod:ban',
      (a: { userId: number }) => ({ ok: true, value: fx.modAction({ kind: 'ban', targetUserId: a.userId }) }),
    ],
    [
      'mod:unban',
      (a: { userId: number }) => ({ ok: true, value: fx.modAction({ kind: 'unban', targetUserId: a.userId }) }),
    ],
    ['redemptions:list', ok([])],
    ['redemptions:accept', ok([])],
    ['redemptions:reject', ok([])],
    ['rewards:list', ok([])],
    ['rewards:delete', ok(null)],
    ['ads:status', ok(fx.adStatus())],
    ['ads:enroll', ok(null)],
    ['stream:info', ok(fx.channel())],
    ['stream:search-categories', ok([])],
    ['kicks:leaderboard', ok({ lifetime: [], month: [], week: [] })],
    ['health:snapshot', ok(fx.health())],
    ['settings:get', ok(fx.settings())],
    ['auth:cancel-login', ok(null)],
    ['auth:sign-out', ok({ revoked: true })],
    ['obs:status', ok(OBS_VIEW_NOT_SET_UP)],
    ['chat:room-state', ok({ modes: null, pinned: null, asOfMs: null, clears: [] })],
    ['history:status', ok({ state: 'ready', message: null, detail: null, chatDays: 90, liveStreamId: null })],
    ['history:streams', ok([])],
    ['history:viewer', ok(null)],
    ['history:search', ok([])],
  ]);
}

export function createFakeApi(): FakeApi {
  const handlers = defaults();
  const listeners = new Map<EventChannel, Set<(payload: unknown) => void>>();
  const calls: FakeApi['calls'] = [];
  const sent: FakeApi['sent'] = [];
  const transport: PanelTransport = {
    async invoke(channel, args) {
      calls.push({ channel, args });
      const handler = handlers.get(channel);
      if (!handler) {
        return { ok: false, error: { code: 'Internal', message: `fake: no answer for ${channel}` } };
      }
      return (await handler(...args)) as never;
    },
    send(channel, args) {
      sent.push({ channel, args });
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => set.delete(listener);
    },
  };
  return {
    api: createPanelApi(transport),
    calls,
    sent,
    ok(channel, value) {
      handlers.set(channel, () => ({ ok: true, value }));
    },
    fail(channel, code, message = `${channel} failed`) {
      handlers.set(channel, () => ({ ok: false, error: { code, message } }));
    },
    handle(channel, handler) {
      handlers.set(channel, handler);
    },
    hold(channel) {
      const waiting: ((r: Result<unknown>) => void)[] = [];
      handlers.set(channel, () => new Promise<Result<unknown>>((resolve) => waiting.push(resolve)));
      return {
        release(result) {
          for (const resolve of waiting.splice(0)) {
            resolve(result);
          }
        },
      };
    },
    argsOf(channel) {
      return calls.filter((c) => c.channel === channel).map((c) => c.args);
    },
    emit(event, payload) {
      for (const listener of listeners.get(event) ?? []) {
        listener(payload);
      }
    },
    listeners(event) {
      return listeners.get(event)?.size ?? 0;
    },
  };
}

/** A frame scheduler that runs queued frames only when the test says so. */
export function manualFrames(): { scheduler: FrameScheduler; run(): void; pending(): number } {
  let queue: (() => void)[] = [];
  return {
    scheduler: (fn) => {
      queue.push(fn);
    },
    run() {
      const now = queue;
      queue = [];
      for (const fn of now) {
        fn();
      }
    },
    pending: () => queue.length,
  };
}

/** A clock the test advances by hand; timers fire in order as time passes. */
export function manualClock(start = 1_700_000_000_000): Clock & { advance(ms: number): void } {
  let now = start;
  let nextId = 0;
  const timers = new Map<number, { at: number; every: number | null; fn: () => void }>();
  const clock = {
    now: () => now,
    setTimeout(fn: () => void, ms: number) {
      const id = nextId++;
      timers.set(id, { at: now + ms, every: null, fn });
      return () => void timers.delete(id);
    },
    setInterval(fn: () => void, ms: number) {
      const id = nextId++;
      timers.set(id, { at: now + ms, every: ms, fn });
      return () => void timers.delete(id);
    },
    advance(ms: number) {
      const end = now + ms;
      for (;;) {
        let due: [number, { at: number; every: number | null; fn: () => void }] | null = null;
        for (const entry of timers) {
          if (entry[1].at <= end && (!due || entry[1].at < due[1].at)) {
            due = entry;
          }
        }
        if (!due) {
          break;
        }
        const [id, timer] = due;
        now = timer.at;
        if (timer.every) {
          timer.at += timer.every;
        } else {
          timers.delete(id);
        }
        timer.fn();
      }
      now = end;
    },
  };
  return clock;
}

/** Lets pending promise callbacks run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await Promise.resolve();
  }
  await new Promise((resolve) => setTimeout(resolve, 0));
}
