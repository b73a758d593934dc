/**
 * One delivery attempt, as Kick makes it ([reference §5](../../docs/kick-wire-reference.md#5-webhooks)): sign
 * the message with this attempt's own send time, POST it, and describe what happened. The delivery engine
 * (`delivery.ts`) decides what an outcome means (done, retry, give up); this file only talks HTTP.
 *
 * Timing choices the reference leaves open ([§5.2](../../docs/kick-wire-reference.md#52-headers-on-event-webhooks) says only "the time the
 * message was sent"; [§9](../../docs/kick-wire-reference.md#9-open-questions) question 10):
 * - Every attempt, the first included, is signed with its own send time in `Kick-Event-Message-Timestamp`,
 *   as Kick stamps it when it *sends* ([reference §5.5](../../docs/kick-wire-reference.md#55-expected-response-and-retries), Lateness). A delivery held back (the
 *   `delaySeconds` fault, like Kick's prime-time queue delays) therefore arrives with a fresh header and an
 *   old `created_at` in its payload (fixed when the event happened): the delay only the payload shows, which
 *   is what Greenroom measures.
 * - Retries go out under the same message id, re-signed, as Stripe and Svix do, so receivers dedupe on the
 *   id. (Whether Kick's retries carry a fresh timestamp is undocumented; Greenroom's replay window is wide
 *   enough either way, see `electron/kick/wire-assumptions.ts`.)
 * - Each {@link DeliveryAttempt} keeps `eventAtMs` next to `attemptedAtMs`.
 */
import type { KeyObject } from 'node:crypto';
import { Agent, type Dispatcher } from 'undici';
import type { OutboxMessage } from './outbox';
import { type PostOutcome, postWebhook } from './post-webhook';
import { buildWebhookHeadersAsync } from './sign';
import type { Signer } from './signer';

/** One attempt to deliver one message, kept for the admin API and tests. */
export interface DeliveryAttempt {
  messageId: string;
  subscriptionId: string;
  clientId: string;
  eventType: string;
  url: string;
  /** When the signed request was handed to the HTTP client. */
  attemptedAtMs: number;
  /** HTTP status, or null when the request failed (refused, timeout). */
  status: number | null;
  error: string | null;
  /** 1 for the first attempt of this message copy, 2 for its first retry, … */
  attemptNumber: number;
  /** When the event happened; `attemptedAtMs - eventAtMs` is the delivery lag. */
  eventAtMs: number;
  /** The `Kick-Event-Message-Timestamp` value this attempt carried (and signed). */
  messageTimestamp: string;
  /** Whether the receiver answered 2xx. */
  delivered: boolean;
}

export interface SendAttemptInput {
  message: Readonly<OutboxMessage>;
  url: string;
  /** This attempt's send time: signed into `Kick-Event-Message-Timestamp`. */
  sentAtMs: number;
  now: () => number;
  privateKey: KeyObject;
  /** Signs off the app's event loop and libuv's pool (`signer.ts`); without it, libuv's pool signs. */
  signer?: Signer;
  dispatcher: Dispatcher;
  timeoutMs: number;
}

export async function sendAttempt(
  input: SendAttemptInput,
): Promise<{ attempt: DeliveryAttempt; outcome: PostOutcome }> {
  const { message, url } = input;
  const headers = await buildWebhookHeadersAsync(
    {
      messageId: message.messageId,
      subscriptionId: message.subscriptionId,
      eventType: message.eventType,
      eventVersion: message.eventVersion,
      sentAtMs: input.sentAtMs,
      body: message.body,
      privateKey: input.privateKey,
    },
    input.signer,
  );
  // Signing waits for the thread pool; the attempt is timed from when the request is handed over.
  const handedOverAtMs = input.now();
  const outcome = await postWebhook({
    dispatcher: input.dispatcher,
    url,
    headers,
    body: message.body,
    timeoutMs: input.timeoutMs,
  });
  const attempt: DeliveryAttempt = {
    messageId: message.messageId,
    subscriptionId: message.subscriptionId,
    clientId: message.clientId,
    eventType: message.eventType,
    url,
    attemptedAtMs: handedOverAtMs,
    status: outcome.status,
    error: outcome.error,
    attemptNumber: message.failedAttempts + 1,
    eventAtMs: message.eventAtMs,
    messageTimestamp: headers['Kick-Event-Message-Timestamp']!,
    delivered: outcome.status !== null && outcome.status >= 200 && outcome.status < 300,
  };
  return { attempt, outcome };
}

/**
 * The keep-alive pool attempts go out over. With `resolveHostsTo`, every webhook host resolves to that
 * address instead of DNS (a localtunnel server's `<sub>.localhost` URL on loopback).
 */
export function createDeliveryAgent(options: { attemptTimeoutMs: number; resolveHostsTo?: string }): Agent {
  const address = options.resolveHostsTo;
  const family = address?.includes(':') ? 6 : 4;
  // Node asks for every address (`all`) when it may try several families; answer in the form asked.
  const lookup = address
    ? (_host: string, opts: { all?: boolean }, callback: (error: null, ...result: unknown[]) => void) =>
        opts.all ? callback(null, [{ address, family }]) : callback(null, address, family)
    : undefined;
  return new Agent({
    keepAliveTimeout: 4_000,
    connect: { timeout: options.attemptTimeoutMs, ...(lookup ? { lookup } : {}) },
  });
}
