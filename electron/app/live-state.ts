/**
 * One answer in main to "is the stream live?": the chat bot's timers, the header and the stream views all read
 * it ([docs/chat-bot.md](../../docs/chat-bot.md#live-status-comes-from-kick)). Kick is asked at every sign-in (so at
 * start, once the saved sign-in is known to work) and again, with backoff, after an ask failed, until Kick
 * answers; every answer is checked before it is believed. Its answer wins over the journal. Kick's live-status
 * events update it between asks. Signed out, it says so: the figures are shown as they were at `asOfMs`.
 */
import { z } from 'zod';
import { backoffDelay } from '../../shared/backoff';
import { isAppError } from '../../shared/errors';
import { Listeners } from '../../shared/listeners';
import type { ChannelView } from '../../shared/views';
import { KickApiError } from '../kick/kick-errors';
import type { KickEvent } from '../webhooks/events/types';
import type { SetTimer } from '../core/scheduler';

/** What main believes about the stream, and whether it may act on it. */
export interface LiveFacts {
  live: boolean;
  /**
   * Kick said so since the last sign-in, or one of its live-status events did. Only the journal said so: not
   * confirmed, and nothing that depends on being live (timers) acts on it.
   */
  confirmed: boolean;
  /** Epoch ms the stream started, when live. */
  startedAtMs: number | null;
  title: string;
  category: string;
  /** Epoch ms these facts were last known true (Kick's answer or an event's arrival); null before either. */
  asOfMs: number | null;
}

export interface LiveStateDeps {
  /** Kick's answer for the signed-in broadcaster's channel (without the stream key); null when it has none. */
  read: () => Promise<ChannelView | null>;
  /** The signed-in broadcaster; null while signed out or not yet known. Kick is asked only while known. */
  broadcasterUserId: () => number | null;
  now: () => number;
  setTimer: SetTimer;
  log: (line: string) => void;
  /** The wait before asking again after a failed ask: doubles from `initialMs` to `maxMs`. */
  retry?: { initialMs: number; maxMs: number };
  random?: () => number;
}

const DEFAULT_RETRY = { initialMs: 2_000, maxMs: 60_000 };

/** The part of Kick's channel answer the live state believes; anything else in it is passed on untouched. */
const channelAnswer = z.object({
  broadcaster_user_id: z.int().positive(),
  stream_title: z.string(),
  category: z.object({ name: z.string() }),
  stream: z.object({ is_live: z.boolean(), start_time: z.string(), viewer_count: z.int().nonnegative() }),
});

export class LiveState {
  readonly #deps: LiveStateDeps;
  readonly #listeners: Listeners<[ChannelView | null]>;
  #facts: LiveFacts = { live: false, confirmed: false, startedAtMs: null, title: '', category: '', asOfMs: null };
  /** Where the facts came from: the journal yields to anything this run heard. */
  #source: 'none' | 'journal' | 'kick' | 'event' = 'none';
  /** When the newest live-status or metadata event arrived: a Kick answer asked for before it is older news. */
  #eventAtMs = Number.NEGATIVE_INFINITY;
  #channel: ChannelView | null = null;
  #reading: Promise<void> | null = null;
  #again = false;
  #failures = 0;
  #retry: { cancel(): void } | null = null;
  #stopped = false;
  /**
   * Counts sign-outs and account changes: an answer to an ask that left before the latest one belongs to an
   * account no longer signed in, and is dropped ([docs/chat-bot.md](../../docs/chat-bot.md#live-status-comes-from-kick)).
   */
  #session = 0;
  /** The broadcaster of the last sign-in, kept across a sign-out: a different one next starts from nothing. */
  #account: number | null = null;

  constructor(deps: LiveStateDeps) {
    this.#deps = deps;
    this.#listeners = new Listeners((error) => deps.log(`live status: a listener failed: ${String(error)}`));
  }

  facts(): LiveFacts {
    return { ...this.#facts };
  }

  /** Live, as the bot may act on it: Kick or a live event said so since the last sign-in. */
  isLive(): boolean {
    return this.#facts.live && this.#facts.confirmed;
  }

  /**
   * The channel as the panel shows it: Kick's last answer with the live status main believes, whether it is
   * current (`signedIn`) and when it was last known true (`asOfMs`). Null before Kick first answered.
   */
  view(): ChannelView | null {
    if (!this.#channel) {
      return null;
    }
    const signedIn = this.#deps.broadcasterUserId() !== null;
    return {
      ...this.#channel,
      stream: { ...this.#channel.stream, is_live: this.#facts.live },
      signedIn,
      asOfMs: this.#facts.asOfMs ?? this.#deps.now(),
    };
  }

  /** Hears each new view (after a Kick answer, a live-status change or a sign-out). */
  onChange(listener: (view: ChannelView | null) => void): () => void {
    return this.#listeners.add(listener);
  }

  /**
   * A Kick event: `live` from the webhook, or a journal replay at start. The journal only fills in what this
   * run has not heard yet; a live event is news, and confirmed.
   */
  onEvent(event: KickEvent, live: boolean): void {
    if (event.kind !== 'known' || (!live && this.#source !== 'none' && this.#source !== 'journal')) {
      return;
    }
    if (event.type === 'livestream.status.updated') {
      const p = event.payload;
      const started = p.is_live ? Date.parse(p.started_at) : Number.NaN;
      const changed = p.is_live !== this.#facts.live;
      this.#facts = {
        ...this.#facts,
        live: p.is_live,
        confirmed: live,
        startedAtMs: p.is_live ? (Number.isNaN(started) ? event.receivedAtMs : started) : null,
        title: p.title || this.#facts.title,
        asOfMs: event.receivedAtMs,
      };
      this.#source = live ? 'event' : 'journal';
      if (live) {
        this.#eventAtMs = event.receivedAtMs;
        if (changed) {
          this.#emit();
        }
      }
    } else if (event.type === 'livestream.metadata.updated') {
      this.#facts = {
        ...this.#facts,
        title: event.payload.metadata.title,
        category: event.payload.metadata.category.name,
      };
      if (live) {
        this.#eventAtMs = event.receivedAtMs;
      }
    }
  }

  /** Asks Kick now; one ask under way takes all calls meanwhile, and one more follows it. */
  refresh(): void {
    if (this.#stopped || this.#deps.broadcasterUserId() === null) {
      return;
    }
    if (this.#reading) {
      this.#again = true;
      return;
    }
    this.#reading = this.#readLoop();
  }

  /**
   * One ask of Kick for the channel (the panel's `stream:info` too): the answer, checked, becomes the facts
   * unless a live-status event arrived after the ask left. A failure leaves the facts as they were and asks
   * again later.
   */
  async ask(read: () => Promise<ChannelView | null> = this.#deps.read): Promise<ChannelView | null> {
    const askedAtMs = this.#deps.now();
    // Who asked, and in which sign-in: the answer counts only if the same broadcaster is still signed in.
    const asker = this.#deps.broadcasterUserId();
    const session = this.#session;
    let answer: ChannelView | null;
    try {
      const raw = await read();
      if (!this.#current(asker, session)) {
        // Signed out or another account since the ask left: the answer is about a channel no longer ours. The
        // panel still gets what Kick said, but nothing here believes it. (While the broadcaster is not yet
        // known, Kick's word cannot be matched to anyone, so it is only passed on too.)
        const unknown = asker === null && session === this.#session && this.#deps.broadcasterUserId() === null;
        return unknown ? checked(raw, null) : this.view();
      }
      answer = checked(raw, asker);
    } catch (error) {
      if (this.#current(asker, session)) {
        this.#failed(error);
      }
      throw error;
    }
    this.#account = asker;
    this.#answered(answer, askedAtMs);
    return this.view() ?? answer;
  }

  /**
   * A broadcaster signed in. Another account than the last one starts from nothing: the last one's live
   * status, figures and asks under way are not this account's. Then Kick is asked.
   */
  signedIn(broadcasterUserId: number): void {
    if (this.#account !== null && this.#account !== broadcasterUserId) {
      this.#session += 1;
      this.#retry?.cancel();
      this.#retry = null;
      this.#failures = 0;
      this.#facts = { live: false, confirmed: false, startedAtMs: null, title: '', category: '', asOfMs: null };
      this.#source = 'none';
      this.#eventAtMs = Number.NEGATIVE_INFINITY;
      this.#channel = null;
      this.#emit();
    }
    this.#account = broadcasterUserId;
    this.refresh();
  }

  /**
   * Signed out: nothing is confirmed any more, an answer to an ask still under way is dropped, and the panel
   * is told its figures are as of then.
   */
  signedOut(): void {
    this.#session += 1;
    this.#retry?.cancel();
    this.#retry = null;
    this.#failures = 0;
    this.#facts = { ...this.#facts, confirmed: false };
    this.#emit();
  }

  /** The ask that left as `asker` in `session` is still about the signed-in broadcaster. */
  #current(asker: number | null, session: number): boolean {
    return session === this.#session && asker !== null && this.#deps.broadcasterUserId() === asker;
  }

  /** Resolves once no ask is under way (tests, shutdown). */
  settled(): Promise<void> {
    return this.#reading ?? Promise.resolve();
  }

  stop(): void {
    this.#stopped = true;
    this.#retry?.cancel();
    this.#retry = null;
  }

  async #readLoop(): Promise<void> {
    do {
      this.#again = false;
      await this.ask().catch(() => undefined);
    } while (this.#again && !this.#stopped);
    this.#reading = null;
  }

  #answered(answer: ChannelView | null, askedAtMs: number): void {
    this.#failures = 0;
    this.#retry?.cancel();
    this.#retry = null;
    if (this.#stopped) {
      return;
    }
    this.#channel = answer;
    if (answer && askedAtMs >= this.#eventAtMs) {
      const live = answer.stream.is_live;
      const started = Date.parse(answer.stream.start_time);
      this.#facts = {
        live,
        confirmed: true,
        // Kick writes Go's zero time (year 1) as the start of a stream that is not running.
        startedAtMs: live ? (started > 0 ? started : askedAtMs) : null,
        title: answer.stream_title,
        category: answer.category.name,
        asOfMs: this.#deps.now(),
      };
      this.#source = 'kick';
    } else if (!answer) {
      // (An answer to an ask older than the newest event leaves the event's facts; its figures are still shown.)
      // Kick has no channel for this account: nothing to show, and nothing live to act on.
      this.#facts = { ...this.#facts, live: false, confirmed: true, startedAtMs: null, asOfMs: this.#deps.now() };
      this.#source = 'kick';
    }
    this.#emit();
  }

  #failed(error: unknown): void {
    const signedOut = isAppError(error) && (error.code === 'NotSignedIn' || error.code === 'RefreshRejected');
    if (this.#stopped || signedOut || this.#deps.broadcasterUserId() === null || this.#retry) {
      return;
    }
    this.#failures += 1;
    const wait = backoffDelay(
      this.#failures,
      { ...(this.#deps.retry ?? DEFAULT_RETRY), spread: 0.5 },
      this.#deps.random ?? Math.random,
    );
    if (this.#failures === 1) {
      this.#deps.log(`live status: could not ask Kick (${describe(error)}); asking again until it answers`);
    }
    this.#retry = this.#deps.setTimer(() => {
      this.#retry = null;
      this.refresh();
    }, wait);
  }

  #emit(): void {
    if (!this.#stopped) {
      this.#listeners.emit(this.view());
    }
  }
}

/** Kick's channel answer, when it is one and for `broadcasterUserId` (when known); otherwise a ServerError. */
function checked(answer: ChannelView | null, broadcasterUserId: number | null): ChannelView | null {
  if (answer === null) {
    return null;
  }
  const result = channelAnswer.safeParse(answer);
  const problem = !result.success
    ? result.error.issues.map((issue) => `${issue.path.join('.') || 'answer'}: ${issue.message}`).join('; ')
    : broadcasterUserId !== null && result.data.broadcaster_user_id !== broadcasterUserId
      ? `broadcaster_user_id: ${result.data.broadcaster_user_id}, not the signed-in ${broadcasterUserId}`
      : null;
  if (problem !== null) {
    throw new KickApiError('ServerError', `fetchChannel: Kick's answer is not the channel asked for (${problem})`, {
      operation: 'fetchChannel',
    });
  }
  return answer;
}

function describe(error: unknown): string {
  return isAppError(error) ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error);
}
