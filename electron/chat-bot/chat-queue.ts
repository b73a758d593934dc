/**
 * The one outgoing queue for everything Greenroom posts by itself, and for the streamer's own messages
 * while it runs (docs/chat-bot.md, "Sending"):
 * - one message at a time, at most one per `minIntervalMs` (electron/kick/wire-assumptions.ts chatSend);
 * - a manual message always goes before any automatic one;
 * - on Kick's 429 nothing is sent until the back-off has passed (the message is kept and retried);
 * - automatic messages wait while automation is paused or the streamer is signed out, and one older than
 *   `maxAgeMs` when its turn comes is dropped (a thank-you a minute late reads as spam).
 * Clock and timers are injected; `send` is the Kick client's chat send.
 */
import { type Backoff, backoffDelay } from '../../shared/backoff';
import { isAppError } from '../../shared/errors';

export interface OutgoingMessage {
  content: string;
  as: 'bot' | 'user';
  manual: boolean;
}

export interface ChatQueueDeps {
  send: (message: OutgoingMessage) => Promise<void>;
  now: () => number;
  setTimer: (fn: () => void, ms: number) => { cancel(): void };
  /** True while automatic messages may go out (not paused, signed in). */
  automationAllowed: () => boolean;
  minIntervalMs: number;
  after429: Backoff;
  log: (line: string) => void;
  random?: () => number;
  maxAgeMs?: number;
  maxWaiting?: number;
}

interface Waiting extends OutgoingMessage {
  queuedAtMs: number;
  resolve: (sent: boolean) => void;
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
    return new Promise((resolve) => {
      const list = message.manual ? this.#manual : this.#auto;
      list.push({ ...message, queuedAtMs: this.#deps.now(), resolve });
      if (!message.manual && this.#auto.length > (this.#deps.maxWaiting ?? 50)) {
        this.#auto.shift()!.resolve(false);
        this.#deps.log('chat bot: too many automatic messages waiting; dropped the oldest');
      }
      this.#pump();
    });
  }

  /** Automatic messages waiting. */
  waiting(): number {
    return this.#auto.length;
  }

  /** Drops every automatic message (automation paused, signed out, the app stopping). */
  clearAutomatic(): void {
    for (const message of this.#auto.splice(0)) {
      message.resolve(false);
    }
  }

  stop(): void {
    this.#timer?.cancel();
    this.#timer = null;
    this.clearAutomatic();
    for (const message of this.#manual.splice(0)) {
      message.resolve(false);
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
      message.resolve(false);
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
      () => {
        this.#rateLimits = 0;
        message.resolve(true);
        this.#done();
      },
      (error: unknown) => {
        if (isAppError(error) && error.code === 'Ratelimited') {
          this.#rateLimits += 1;
          const wait = backoffDelay(this.#rateLimits, this.#deps.after429, this.#deps.random ?? Math.random);
          this.#blockedUntilMs = this.#deps.now() + wait;
          this.#deps.log(`chat bot: Kick answered 429; sending again in ${Math.round(wait / 1000)} s`);
          (message.manual ? this.#manual : this.#auto).unshift(message);
        } else {
          this.#deps.log(
            `chat bot: a message was not sent (${error instanceof Error ? error.message : String(error)})`,
          );
          message.resolve(false);
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
