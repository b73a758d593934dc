/**
 * The one outgoing queue for everything Greenroom posts by itself, and for the streamer's own messages
 * while it runs (docs/chat-bot.md, "Sending"):
 * - one message at a time, at most one per `minIntervalMs` (electron/kick/wire-assumptions.ts chatSend);
 * - a manual message always goes before any automatic one;
 * - on Kick's 429 nothing is sent until the back-off has passed (an automatic message is kept and retried;
 *   the streamer's own is answered with the error at once, see `sendManual`);
 * - automatic messages wait while automation is paused or the streamer is signed out, and one older than
 *   `maxAgeMs` when its turn comes is dropped (a thank-you a minute late reads as spam).
 * Clock and timers are injected; `send` is the Kick client's chat send.
 */
import { type Backoff, backoffDelay } from '../../shared/backoff';
import { AppError, isAppError } from '../../shared/errors';
import type { SetTimer } from '../core/scheduler';

export interface OutgoingMessage {
  content: string;
  as: 'bot' | 'user';
  manual: boolean;
  /** A manual reply's parent message. */
  replyToMessageId?: string;
}

export interface ChatQueueDeps {
  /** Sends one message; resolves with Kick's answer, which a manual message's sender gets back. */
  send: (message: OutgoingMessage) => Promise<unknown>;
  now: () => number;
  setTimer: SetTimer;
  /** True while automatic messages may go out (not paused, signed in). */
  automationAllowed: () => boolean;
  minIntervalMs: number;
  after429: Backoff;
  log: (line: string) => void;
  random?: () => number;
  maxAgeMs?: number;
  maxWaiting?: number;
}

type Outcome = { sent: true; value: unknown } | { sent: false; error?: unknown };

interface Waiting extends OutgoingMessage {
  queuedAtMs: number;
  settle: (outcome: Outcome) => void;
}

export class ChatQueue {
  readonly #deps: ChatQueueDeps;
  readonly #manual: Waiting[] = [];
  readonly #auto: Waiting[] = [];
  #lastSentMs = Number.NEGATIVE_INFINITY;
  #blockedUntilMs = 0;
  #rateLimits = 0;
  #sending = false;
  #timer: { cancel(): void } | null = null;

  constructor(deps: ChatQueueDeps) {
    this.#deps = deps;
  }

  /** Queues a message; resolves true once Kick took it, false when it was dropped. */
  enqueue(message: OutgoingMessage): Promise<boolean> {
    return new Promise((resolve) => this.#push(message, (outcome) => resolve(outcome.sent)));
  }

  /**
   * The streamer's own message: before every automatic one, and answered with Kick's reply or its error,
   * since the streamer is waiting on it. It is never held through a 429 back-off: while one runs it is
   * refused at once with the wait, so the panel keeps the draft and says when to try again.
   */
  sendManual(message: Omit<OutgoingMessage, 'manual'>): Promise<unknown> {
    const waitMs = this.#blockedUntilMs - this.#deps.now();
    if (waitMs > 0) {
      return Promise.reject(
        new AppError('Ratelimited', `Kick is limiting chat messages; try again in ${Math.ceil(waitMs / 1000)} s`),
      );
    }
    return new Promise((resolve, reject) =>
      this.#push({ ...message, manual: true }, (outcome) =>
        outcome.sent
          ? resolve(outcome.value)
          : reject(asError(outcome.error) ?? new AppError('Internal', 'Greenroom stopped before the message was sent')),
      ),
    );
  }

  #push(message: OutgoingMessage, settle: (outcome: Outcome) => void): void {
    const list = message.manual ? this.#manual : this.#auto;
    list.push({ ...message, queuedAtMs: this.#deps.now(), settle });
    if (!message.manual && this.#auto.length > (this.#deps.maxWaiting ?? 50)) {
      this.#auto.shift()!.settle({ sent: false });
      this.#deps.log('chat bot: too many automatic messages waiting; dropped the oldest');
    }
    this.#pump();
  }

  /** Automatic messages waiting. */
  waiting(): number {
    return this.#auto.length;
  }

  /** Drops every automatic message (automation paused, signed out, the app stopping). */
  clearAutomatic(): void {
    for (const message of this.#auto.splice(0)) {
      message.settle({ sent: false });
    }
  }

  stop(): void {
    this.#timer?.cancel();
    this.#timer = null;
    this.clearAutomatic();
    for (const message of this.#manual.splice(0)) {
      message.settle({ sent: false });
    }
  }

  #next(): Waiting | null {
    if (this.#manual.length > 0) {
      return this.#manual.shift()!;
    }
    const maxAge = this.#deps.maxAgeMs ?? 60_000;
    while (this.#auto.length > 0 && this.#deps.automationAllowed()) {
      const message = this.#auto.shift()!;
      if (this.#deps.now() - message.queuedAtMs <= maxAge) {
        return message;
      }
      message.settle({ sent: false });
    }
    return null;
  }

  #pump(): void {
    if (this.#sending || this.#timer) {
      return;
    }
    const now = this.#deps.now();
    const readyAt = Math.max(this.#lastSentMs + this.#deps.minIntervalMs, this.#blockedUntilMs);
    if (now < readyAt) {
      this.#timer = this.#deps.setTimer(() => {
        this.#timer = null;
        this.#pump();
      }, readyAt - now);
      return;
    }
    const message = this.#next();
    if (!message) {
      return;
    }
    this.#sending = true;
    this.#lastSentMs = now;
    void this.#deps.send(message).then(
      (value) => {
        this.#rateLimits = 0;
        message.settle({ sent: true, value });
        this.#done();
      },
      (error: unknown) => {
        if (isAppError(error) && error.code === 'Ratelimited') {
          this.#rateLimits += 1;
          const wait = backoffDelay(this.#rateLimits, this.#deps.after429, this.#deps.random ?? Math.random);
          this.#blockedUntilMs = this.#deps.now() + wait;
          this.#deps.log(`chat bot: Kick answered 429; waiting ${Math.round(wait / 1000)} s`);
          if (message.manual) {
            message.settle({ sent: false, error });
          } else {
            this.#auto.unshift(message);
          }
        } else {
          this.#deps.log(
            `chat bot: a message was not sent (${error instanceof Error ? error.message : String(error)})`,
          );
          message.settle({ sent: false, error });
        }
        this.#done();
      },
    );
  }

  #done(): void {
    this.#sending = false;
    this.#pump();
  }
}

/** What `send` threw, as an Error (the Kick client throws AppErrors; anything else is wrapped). */
function asError(error: unknown): Error | undefined {
  return error === undefined || error instanceof Error ? error : new Error(JSON.stringify(error));
}
