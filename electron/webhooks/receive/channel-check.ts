/**
 * The receiver's ownership step, after the signature and the replay window and before dedup and the
 * journal: parse the verified body once, read whose channel it is about and the event's own id, and ask the
 * {@link ChannelGate} whether to act on it ([design notes](../../../docs/design-notes.md#only-the-signed-in-channels-events)).
 *
 * A delivery for another channel, or under a subscription Greenroom does not hold, is answered 200 (Kick
 * must not retry it) and nothing else happens: not journaled, not shown, not announced. It is counted, and
 * logged once per source (subscription id and broadcaster) with the running count, so a sender cannot fill
 * the log. One that cannot be judged yet waits for the gate's next change, at most `holdMs`.
 */
import type { ChannelGate, Judgement } from './channel-gate';
import { eventKeyOf } from '../events/event-key';
import type { DeliveryHeaders, ReceiverCounters } from '../events/types';

/** How long an undecided delivery waits for the subscription list before it is answered 503. */
export const DEFAULT_HOLD_MS = 5_000;
/** Undecided deliveries waiting at once; past this, 503 at once (each holds a socket). */
export const DEFAULT_MAX_HOLDING = 64;
/** Sources logged; past this, one more line says so and the rest are only counted. */
export const MAX_LOGGED_SOURCES = 1_000;

/** What the check found. `own` carries the parsed payload, so nothing parses it again. */
export type ChannelCheck =
  | {
      verdict: 'own';
      payload: unknown;
      eventKey: string | null;
      /** The body as text, decoded once here for the parse and kept for the journal record. */
      text: string;
    }
  | { verdict: 'refused' }
  | { verdict: 'undecided' };

export interface ChannelCheckDeps {
  gate: ChannelGate;
  counters: ReceiverCounters;
  log: (level: 'warn', message: string, fields: Record<string, unknown>) => void;
  /** Each delivery not acted on, after it is counted (the health view shows the count). */
  onRefused?: () => void;
  holdMs?: number;
  maxHolding?: number;
}

/** The check, with its memory of sources already logged; `stopped` ends every wait at once. */
export function createChannelCheck(deps: ChannelCheckDeps) {
  const holdMs = deps.holdMs ?? DEFAULT_HOLD_MS;
  const maxHolding = deps.maxHolding ?? DEFAULT_MAX_HOLDING;
  const logged = new Set<string>();
  let holding = 0;

  const refuse = (headers: DeliveryHeaders, broadcaster: unknown, why: Exclude<Judgement, 'own' | 'undecided'>) => {
    deps.counters.foreign++;
    deps.onRefused?.();
    const source = `${headers.subscriptionId} ${typeof broadcaster} ${String(broadcaster)}`;
    if (logged.has(source) || logged.size > MAX_LOGGED_SOURCES) {
      return;
    }
    logged.add(source);
    const message =
      logged.size > MAX_LOGGED_SOURCES
        ? `webhook not acted on: more than ${MAX_LOGGED_SOURCES} sources; the rest are only counted`
        : why === 'other-channel'
          ? 'webhook not acted on: another channel'
          : 'webhook not acted on: a subscription Greenroom does not hold';
    deps.log('warn', message, {
      subscriptionId: headers.subscriptionId,
      broadcasterUserId: broadcaster ?? null,
      type: headers.type,
      notActedOn: deps.counters.foreign,
    });
  };

  /** Waits for the gate to decide, at most `holdMs`; 'undecided' when it did not or `stopped` came first. */
  const waitForVerdict = async (
    subscriptionId: string,
    broadcaster: unknown,
    stopped: Promise<void>,
  ): Promise<Judgement> => {
    if (holding >= maxHolding) {
      return 'undecided';
    }
    holding++;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<'expired'>((resolve) => (timer = setTimeout(() => resolve('expired'), holdMs)));
    try {
      for (;;) {
        const outcome = await Promise.race([deps.gate.nextChange(), expired, stopped.then(() => 'expired' as const)]);
        const verdict = deps.gate.judge(subscriptionId, broadcaster);
        if (verdict !== 'undecided' || outcome === 'expired') {
          return verdict;
        }
      }
    } finally {
      clearTimeout(timer);
      holding--;
    }
  };

  return {
    async check(headers: DeliveryHeaders, body: Buffer, stopped: Promise<void>): Promise<ChannelCheck> {
      let payload: unknown;
      const text = body.toString('utf8');
      try {
        payload = JSON.parse(text) as unknown;
      } catch {
        // Kick sends JSON; a body that is not names no channel, so it cannot be ours.
        refuse(headers, undefined, 'other-channel');
        return { verdict: 'refused' };
      }
      const broadcaster = broadcasterOf(payload);
      let verdict = deps.gate.judge(headers.subscriptionId, broadcaster);
      if (verdict === 'undecided') {
        verdict = await waitForVerdict(headers.subscriptionId, broadcaster, stopped);
      }
      if (verdict === 'undecided') {
        return { verdict };
      }
      if (verdict !== 'own') {
        refuse(headers, broadcaster, verdict);
        return { verdict: 'refused' };
      }
      return { verdict, payload, eventKey: eventKeyOf(headers.type, payload), text };
    },
  };
}

/** `broadcaster.user_id` as sent (any type), or undefined when the payload has none. */
export function broadcasterOf(payload: unknown): unknown {
  if (typeof payload !== 'object' || payload === null) {
    return undefined;
  }
  const broadcaster = (payload as { broadcaster?: unknown }).broadcaster;
  return typeof broadcaster === 'object' && broadcaster !== null
    ? (broadcaster as { user_id?: unknown }).user_id
    : undefined;
}
