/**
 * What the ObsLink contract (obs-link-contract.ts) shares between its files: the subject a run provides,
 * the suite's context, and waiting for an event or a refusal.
 */
import { expect } from 'vitest';
import {
  type ObsEvents,
  type ObsEventType,
  type ObsLink,
  type ObsLinkFactory,
  ObsRequestError,
} from '../../../electron/obs/obs-link';

export interface ObsLinkSubject {
  link: ObsLinkFactory;
  /** Where this OBS listens, and its password (null: it asks for none). */
  url: string;
  password: string | null;
  /** A websocket URL where nothing listens. */
  unusedUrl: string;
  /**
   * Streams fail to connect from now on. The real OBS needs nothing: the suite points it at a port where
   * nothing listens; the fake cannot tell, so it is told.
   */
  refuseIngest(): void;
  /** OBS crashes (SIGKILL for the real one); resolves once it is gone. */
  kill(): Promise<void>;
  /** OBS runs again at the same address with the same password; resolves once it answers. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** How long an event may take to arrive: OBS sends it within milliseconds; this only bounds a broken run. */
const EVENT_DEADLINE_MS = 5_000;

/** Resolves with the first `type` event that `match` accepts. */
export function nextEvent<E extends ObsEventType>(
  link: ObsLink,
  type: E,
  match: (data: ObsEvents[E]) => boolean = () => true,
): Promise<ObsEvents[E]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no ${type} within ${EVENT_DEADLINE_MS} ms`));
    }, EVENT_DEADLINE_MS);
    const off = link.on(type, (data) => {
      if (match(data)) {
        clearTimeout(timer);
        off();
        resolve(data);
      }
    });
  });
}

/** What a promise rejected with (fails the test when it resolved). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => expect.unreachable(`resolved with ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
}

export async function expectRequestError(promise: Promise<unknown>, code: number): Promise<void> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(ObsRequestError);
  expect((error as ObsRequestError).code).toBe(code);
}

/** What each test of the suite reads: the subject, the suite's link, and fresh names. */
export interface ContractContext {
  subject: ObsLinkSubject;
  link: ObsLink;
  /** A name no other test uses (one OBS serves the whole suite). */
  fresh(what: string): string;
  /** A new link, connected with the right password, closed after the test. */
  connected(): Promise<ObsLink>;
}
