/**
 * The OBS connection on A's in-memory OBS, the house's manual scheduler and a hand-moved clock: every
 * retry, poll and time limit fires only when a test says so.
 */
import { expect } from 'vitest';
import type { ObsConnectionState } from '../../../../shared/obs';
import { ObsConnection, type ObsConnectionDeps } from '../../../../electron/obs/obs-connection';
import type { ObsLink } from '../../../../electron/obs/obs-link';
import { FakeObs } from '../../../helpers/fake-obs';
import { ManualScheduler } from '../../../helpers/manual-scheduler';

export const PASSWORD = 'fake-obs-password';
export const TARGET = { host: '127.0.0.1', port: 4455, password: PASSWORD };

/** Lets the fake's answers (promises) settle; no time passes. */
export const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export interface Harness {
  obs: FakeObs;
  scheduler: ManualScheduler;
  clock: { now: number };
  connection: ObsConnection;
  states: ObsConnectionState['kind'][];
  logs: string[];
  /** Moves the clock and fires the pending timer of exactly `ms` (there must be one). */
  fire(ms: number): void;
  /** The one pending timer's delay that is not a request or connect time limit. */
  retryDelays(): number[];
}

export function harness(over: Partial<ObsConnectionDeps> = {}, obs = new FakeObs()): Harness {
  const scheduler = new ManualScheduler();
  const clock = { now: 1_000_000 };
  const logs: string[] = [];
  const connection = new ObsConnection({
    linkFactory: obs.link,
    now: () => clock.now,
    setTimer: scheduler.setTimer,
    // No jitter: the delays are the backoff's ceilings, so the tests can name them.
    random: () => 0,
    log: (line) => logs.push(line),
    ...over,
  });
  const states: ObsConnectionState['kind'][] = [];
  connection.onState((state) => states.push(state.kind));
  return {
    obs,
    scheduler,
    clock,
    connection,
    states,
    logs,
    fire(ms) {
      const entry = [...scheduler.pending].find(([, timer]) => timer.ms === ms);
      expect(entry, `a pending timer of ${ms} ms`).toBeDefined();
      scheduler.pending.delete(entry![0]);
      clock.now += ms;
      entry![1].callback();
    },
    retryDelays: () => [...scheduler.pending.values()].map((timer) => timer.ms).filter((ms) => ms < 10_000),
  };
}

/** A link that never answers its connect (a host that drops packets), and whether it was closed. */
export function hangingLink(): { link: ObsLink; closed: () => boolean } {
  let closed = false;
  return {
    link: {
      connect: () => new Promise(() => undefined),
      call: () => new Promise(() => undefined),
      on: () => () => undefined,
      onClosed: () => () => undefined,
      close: () => {
        closed = true;
        return Promise.resolve();
      },
    },
    closed: () => closed,
  };
}
