/**
 * The webhook receiver: a node:http adapter that composes the hot-path steps ([design notes](../../../docs/design-notes.md#event-path-the-hot-path) "Event path"):
 * route → content type → size-capped raw body → headers → RSA verify over the exact bytes → replay window
 * → parse and the own-channel check (`channel-check.ts`) → dedup (message id, event id, body hash) → journal
 * append queued → (once per turn, a few ms at most) validate → onEvent → append durable → 200. It binds to loopback only;
 * the tunnel is its one public door. Every rejection gets a precise status, a log line (code and reason,
 * never the body or the signature) and a count, and the server keeps serving whatever arrives.
 * @see https://github.com/octokit/webhooks.js (verify-and-receive: verify the raw body before parsing)
 */
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Clock } from '../../core/clock';
import type { ChannelGate } from './channel-gate';
import { createChannelCheck } from './channel-check';
import { type DeliveryDedup, hashBody } from '../dedup/dedup';
import { createReject, describe, reply, replyOk } from './receiver-replies';
import { type PublicKeyCache, verifyWithKeyCache } from './public-key-cache';
import { readBody, SlowReads } from './read-body';
import { createReceiverServer, DEFAULT_TIMEOUTS, listen, type ReceiverTimeouts } from './receiver-server';
import { readDeliveryHeaders } from './read-headers';
import { checkReplayWindow, DEFAULT_FUTURE_SKEW_SECONDS, DEFAULT_REPLAY_WINDOW_SECONDS } from '../events/replay-guard';
import { appendRecord, createPublish } from './receiver-publish';
import { routeRequest } from './route-request';
import { createShownUnkept } from './shown-unkept';
import { createTurnHandOver } from './turn-hand-over';
import type { EventJournal, JournalRecord, KickEvent, ReceiverCounters } from '../events/types';
import { WebhookError } from '../events/webhook-error';

export type ReceiverLogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface WebhookReceiverDeps {
  /** Interface to bind; default 127.0.0.1. Keep it loopback: the tunnel forwards to it. */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  /** Default `/kick/webhook` (`GREENROOM_WEBHOOK_PATH`). */
  path?: string;
  /** Largest body read; default 256 KiB. Beyond it: 413 and the connection is closed. */
  maxBodyBytes?: number;
  /** Header, body and idle time limits; beyond them the connection is closed (receiver-server.ts). */
  timeouts?: Partial<ReceiverTimeouts>;
  /** Bodies arriving at once before the oldest is cut with a 408 (read-body.ts); default 8. */
  maxPendingBodies?: number;
  clock: Clock;
  /** Default 48 h (`DEFAULT_REPLAY_WINDOW_SECONDS`); 0 turns the window off (`GREENROOM_REPLAY_WINDOW_S`). */
  replayWindowSeconds?: number;
  /** How far ahead of our clock a timestamp may be; default 300. */
  futureSkewSeconds?: number;
  publicKey: PublicKeyCache;
  journal: EventJournal;
  dedup: DeliveryDedup;
  /** Which deliveries are this channel's: the rest are answered 200 and not acted on (`channel-gate.ts`). */
  gate: ChannelGate;
  /** How long a delivery the gate cannot judge yet waits before a 503; default 5 s (`channel-check.ts`). */
  holdMs?: number;
  /** Deliveries waiting on the gate at once; past it, 503 at once (each holds a socket). Default 64. */
  maxHolding?: number;
  /**
   * Each new delivery, parsed, at the end of the turn its journal append was queued in (the turn's deliveries
   * together, in order; in a burst that takes longer than a slice, the rest in the turns after) and before Kick
   * is answered; Kick's 200 waits for the append to be durable. A delivery
   * whose append fails is not announced again when Kick retries it. A throw here is logged and ignored.
   */
  onEvent: (event: KickEvent) => void;
  /** Each new record, just before `onEvent` (lag tracking). */
  onAccepted?: (record: JournalRecord) => void;
  /** Each verified delivery not acted on (another channel, a subscription not held), once counted. */
  onRefused?: () => void;
  /**
   * Each delivery recognised by its event's own id (`event-key.ts`) as one already journaled: Kick's resend,
   * or the webhook of a chat line the live socket brought first (`socket-first.ts`). Not acted on.
   */
  onDuplicateEvent?: (copy: { eventKey: string; type: string; nowMs: number; payload: unknown }) => void;
  /**
   * Asked of each delivery recognised by its event key: a function when it is not a copy but the signed record
   * of a line the live socket told otherwise (`signed-copy.ts`). It is then journaled and announced as new, and
   * the function hears whether its write was kept.
   */
  signedOver?: (eventKey: string, payload: unknown) => ((kept: boolean) => void) | null;
  log: (level: ReceiverLogLevel, message: string, fields: Record<string, unknown>) => void;
  /**
   * Whether anyone reads `debug` lines; default yes. When not, a duplicate's line is not even built: in a chat
   * storm every line comes twice (live socket and webhook), and building and writing that line per copy cost
   * about as much as the rest of the copy's work ([decisions](../../../docs/decisions.md#a-debug-line-is-built-only-when-read)).
   */
  debugRead?: () => boolean;
  /** Runs the turn's hand-over once the turn's I/O is done; `setImmediate` unless a test steps it by hand. */
  handOverSchedule?: (run: () => void) => void;
}

export interface WebhookReceiver {
  /** Listens; resolves with the URL the tunnel should forward to and the port picked. */
  start(): Promise<{ url: string; port: number }>;
  /** Stops accepting, lets deliveries in flight finish (their journal appends included), closes sockets. */
  stop(): Promise<void>;
  /** Live counters (the same object, updated in place). */
  readonly counters: ReceiverCounters;
  /** The request listener, for mounting on another server. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /**
   * Hands over now what this turn journaled and has not handed over yet. Called before something else is
   * journaled and shown at once (a line from the live socket), so what is shown keeps the journal's order and a
   * restart brings chat back as it was ([design notes](../../../docs/design-notes.md#chat-from-the-live-socket-first)).
   */
  handOverNow(): void;
}

export const DEFAULT_WEBHOOK_PATH = '/kick/webhook';
export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;
/** Identifies the receiver to the tunnel's end-to-end self-check (`GET <path>?check=<nonce>`). */
export const RECEIVER_SERVICE_NAME = 'greenroom-webhook-receiver';

/** Creates the receiver; nothing listens until `start()`. */
export function createWebhookReceiver(deps: WebhookReceiverDeps): WebhookReceiver {
  const host = deps.host ?? '127.0.0.1';
  const path = deps.path ?? DEFAULT_WEBHOOK_PATH;
  const maxBodyBytes = deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const window = {
    windowSeconds: deps.replayWindowSeconds ?? DEFAULT_REPLAY_WINDOW_SECONDS,
    futureSkewSeconds: deps.futureSkewSeconds ?? DEFAULT_FUTURE_SKEW_SECONDS,
  };
  const timeouts = { ...DEFAULT_TIMEOUTS, ...deps.timeouts };
  const reads = new SlowReads(deps.maxPendingBodies);
  const counters: ReceiverCounters = { accepted: 0, duplicates: 0, rejected: 0, foreign: 0, rejectedByCode: {} };
  const shownUnkept = createShownUnkept();
  const handOver = createTurnHandOver(createPublish(deps), deps.handOverSchedule);
  const channel = createChannelCheck({ ...deps, counters });
  let server: Server | null = null;
  let stopping = false;
  // Ends every wait for the gate at once when stop() begins.
  let stopRequested: () => void = () => undefined;
  let stopped = new Promise<void>((resolve) => (stopRequested = resolve));
  // Requests past their body (verifying, journaling), which stop() lets finish; slow senders it cuts off.
  let inFlight = 0;
  let drained: (() => void) | null = null;

  /**
   * Once the hand-over has reached the record at `place` (at once when it has, or the record was never queued):
   * a delivery is answered only after its event was published.
   */
  const handedOver = (place: number | null): Promise<void> | null =>
    place === null ? null : handOver.whenHanded(place);

  const reject = createReject(counters, deps.log);
  const debugRead = deps.debugRead ?? (() => true);

  // --- The pipeline ---

  /** Route and body; then the rest, counted as in flight so stop() can let it finish. */
  const receive = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const route = routeRequest({
      method: req.method,
      url: req.url,
      contentType: req.headersDistinct['content-type']?.[0],
      path,
    });
    if (route.kind === 'check') {
      return reply(res, 200, { service: RECEIVER_SERVICE_NAME, check: route.nonce });
    }
    if (route.kind === 'reject') {
      return reject(req, res, route.error);
    }
    const body = await readBody(req, { maxBytes: maxBodyBytes, timeoutMs: timeouts.bodyTimeoutMs, reads });
    if (body === 'aborted') {
      return;
    }
    if (body === 'too-slow') {
      // The 408 closes the connection, which frees the tunnel socket it held.
      return reject(req, res, new WebhookError('WebhookSlow', 408, 'body not received in time'));
    }
    if (body === 'too-large') {
      return reject(req, res, new WebhookError('WebhookTooLarge', 413, `body larger than ${maxBodyBytes} bytes`));
    }
    if (stopping) {
      // Read after stop() began: not kept, so Kick retries it against the next run.
      return reject(req, res, new WebhookError('WebhookShuttingDown', 503, 'shutting down; retry later'));
    }
    inFlight++;
    try {
      await processDelivery(req, res, body);
    } finally {
      inFlight--;
      if (inFlight === 0) {
        drained?.();
      }
    }
  };

  /** Headers → verify → window → own channel → dedup → journal queued → publish → durable → 200, on a full body. */
  const processDelivery = async (req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> => {
    const read = readDeliveryHeaders(req.headersDistinct);
    if (!read.ok) {
      return reject(req, res, read.error);
    }
    const { headers, timestampMs } = read.value;
    if (body.length === 0 || !isUtf8(body)) {
      return reject(req, res, new WebhookError('WebhookBody', 400, 'body is empty or not UTF-8'), describe(headers));
    }
    const { messageId, timestamp, signature } = headers;
    const verified = await verifyWithKeyCache(deps.publicKey, { messageId, timestamp, signature, body }, deps.log);
    if (verified !== 'verified') {
      const failure =
        verified === 'key-unavailable'
          ? new WebhookError('WebhookKeyUnavailable', 503, 'public key unavailable; retry later')
          : new WebhookError('WebhookSignature', 400, 'signature does not verify');
      return reject(req, res, failure, describe(headers));
    }
    const nowMs = deps.clock.now();
    const verdict = checkReplayWindow(timestampMs, nowMs, window);
    if (verdict !== 'ok') {
      const message = verdict === 'stale' ? 'timestamp older than the replay window' : 'timestamp in the future';
      return reject(req, res, new WebhookError('WebhookStale', 400, message), {
        ...describe(headers),
        timestamp: headers.timestamp,
      });
    }

    const judged = await channel.check(headers, body, stopped);
    if (judged.verdict === 'refused') {
      return replyOk(res);
    }
    if (judged.verdict === 'undecided') {
      const error = stopping
        ? new WebhookError('WebhookShuttingDown', 503, 'shutting down; retry later')
        : new WebhookError('WebhookNotReady', 503, 'subscriptions not known yet; retry later');
      return reject(req, res, error, describe(headers));
    }
    const bodyHash = hashBody(body);
    let claim = deps.dedup.claim(headers.messageId, bodyHash, nowMs, judged.eventKey);
    // The same delivery (or its twin from a duplicate subscription) is being journaled right now: its
    // answer is that write's answer, so a failed write is retried by Kick for both copies.
    if (claim.verdict === 'pending' && !(await claim.kept)) {
      const failed = new WebhookError('WebhookJournal', 500, 'journal append failed; retry later');
      return reject(req, res, failed, { ...describe(headers), duplicateOf: claim.by });
    }
    const byEvent = claim.verdict === 'duplicate-event' || (claim.verdict === 'pending' && claim.by === 'event');
    const signedOver = byEvent && judged.eventKey !== null ? deps.signedOver?.(judged.eventKey, judged.payload) : null;
    if (signedOver) {
      // Not a copy: the live socket's unsigned line under this key said something else, and the signed
      // webhook is the record. Claimed again by its own delivery id and body, so Kick's retries of it are copies.
      claim = deps.dedup.claim(headers.messageId, bodyHash, nowMs, null);
      if (claim.verdict === 'pending' && !(await claim.kept)) {
        const failed = new WebhookError('WebhookJournal', 500, 'journal append failed; retry later');
        return reject(req, res, failed, { ...describe(headers), duplicateOf: claim.by });
      }
    }
    if (claim.verdict !== 'new') {
      counters.duplicates++;
      if (byEvent && !signedOver && judged.eventKey !== null) {
        deps.onDuplicateEvent?.({ eventKey: judged.eventKey, type: headers.type, nowMs, payload: judged.payload });
      }
      if (debugRead()) {
        deps.log('debug', 'webhook duplicate', {
          ...describe(headers),
          by: claim.verdict === 'pending' ? claim.by : claim.verdict,
        });
      }
      return replyOk(res);
    }
    const record: JournalRecord = {
      messageId: headers.messageId,
      subscriptionId: headers.subscriptionId,
      type: headers.type,
      version: headers.version,
      timestamp: headers.timestamp,
      receivedAtMs: nowMs,
      bodyHash,
      body: judged.text,
    };
    // Queued first, so it joins this turn's group commit; shown while it is on its way to the disk, since a
    // raid's chat would otherwise wait on an fdatasync to be seen (docs/decisions.md, "Shown while the
    // journal write is on its way"), with the turn's other deliveries. Kick gets its 200 once it is durable.
    const appended = appendRecord(deps.journal, record);
    const place = shownUnkept.take(record.messageId, bodyHash)
      ? null
      : handOver.add({ record, payload: judged.payload });
    try {
      await appended;
    } catch (error) {
      const publishing = handedOver(place);
      if (publishing) {
        await publishing;
      }
      // Not kept: Kick's retry of this delivery (and any copy waiting on it) must be retried. It was shown
      // already, so the retry is kept without being announced again.
      claim.settle(false);
      signedOver?.(false);
      shownUnkept.remember(record.messageId, bodyHash);
      const failed = new WebhookError('WebhookJournal', 500, 'journal append failed; retry later', { cause: error });
      return reject(req, res, failed, { ...describe(headers), error: String(error) });
    }
    // Awaited only when the hand-over has not reached it yet: an await per delivery costs a turn of microtasks.
    const publishing = handedOver(place);
    if (publishing) {
      await publishing;
    }
    claim.settle(true);
    signedOver?.(true);
    replyOk(res);
    counters.accepted++;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      await receive(req, res);
    } catch (error) {
      // A bug, not a rejection: logged with its stack, answered 500 so Kick retries.
      deps.log('error', 'webhook receiver failed', {
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      if (!res.headersSent) {
        res.writeHead(500, { connection: 'close', 'content-length': '0' });
      }
      res.end();
    }
  };

  return {
    counters,
    handle: (req, res) => void handle(req, res),
    handOverNow: () => handOver.flush(),
    async start() {
      if (server) {
        throw new Error('webhook receiver already started');
      }
      const created = createReceiverServer((req, res) => void handle(req, res), timeouts);
      const port = await listen(created, deps.port, host);
      created.on('error', (error) => deps.log('error', 'webhook server error', { error: String(error) }));
      server = created;
      stopping = false;
      stopped = new Promise<void>((resolve) => (stopRequested = resolve));
      const shownHost = host.includes(':') ? `[${host}]` : host;
      return { url: `http://${shownHost}:${port}${path}`, port };
    },
    async stop() {
      const running = server;
      if (!running) {
        return;
      }
      server = null;
      stopping = true;
      stopRequested();
      const closed = new Promise<void>((resolve) => running.close(() => resolve()));
      running.closeIdleConnections();
      if (inFlight > 0) {
        await new Promise<void>((resolve) => (drained = resolve));
      }
      drained = null;
      running.closeAllConnections();
      await closed;
    },
  };
}
