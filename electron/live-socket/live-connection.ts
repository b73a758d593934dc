/**
 * Kick's live chat connection ([reference §10](../../docs/kick-wire-reference.md#10-kicks-live-socket)): one
 * session at a time through a {@link LiveTransports} port, with the provider and key asked at each connect, the
 * five public channels, a watchdog for a line that went silent, and a reconnect chosen by close code with the
 * shared backoff. Every frame is read by `parseLiveFrame`, which never throws; typed events go to `onEvent`
 * listeners, surprises are counted and logged once per name. Clock, timers, randomness, discovery, the ids and
 * the transports are injected, so every path is a unit test.
 */
import { type Backoff, backoffDelay } from '../../shared/backoff';
import type { LiveEvent } from '../../shared/kick/live-events';
import { parseLiveFrame } from '../../shared/kick/live-frames';
import { Listeners } from '../../shared/listeners';
import type { LiveSocketHealthView } from '../../shared/views';
import type { Clock } from '../core/clock';
import { RecentKeys } from '../core/recent-keys';
import { closeAction, LOCAL_CLOSE } from './close-action';
import { type ChannelIds, liveChannels } from './channel-ids';
import type { Result } from '../../shared/errors';
import type { LiveTarget, LiveTransports, TransportSession } from './live-transport';
import type { SetTimer } from '../core/scheduler';

/** The shared backoff's shape for this socket: 1 s doubling to a minute, at least half kept. */
export const LIVE_BACKOFF: Backoff = { initialMs: 1000, maxMs: 60_000, spread: 0.5 };
/** No handshake within this long: the attempt is dead. */
export const HANDSHAKE_TIMEOUT_MS = 15_000;
/**
 * No frame at all for this long: the line is dead. pusher-js pings after 120 s of quiet and waits 30 s for the
 * pong ([reference §10.1](../../docs/kick-wire-reference.md#101-connection), heartbeat), so a live line always
 * shows a frame within 150 s; Centrifugo pings every 25 s.
 */
export const SILENCE_LIMIT_MS = 160_000;
/** Connected this long, a drop is a new outage: the backoff starts from its first step again. */
export const STABLE_AFTER_MS = 60_000;
/**
 * A chat message, deletion or host seen again on another alias within this window is the same one. A host's
 * v1 and v2 twins both pass: only v1 carries Kick's time, and the raids make one raid of them
 * (electron/services/raids.ts).
 */
export const REPEAT_WINDOW_MS = 30_000;
/**
 * The most keys each of the two repeat memories (chat lines; deletions and hosts) holds, however fast frames
 * come. The window alone lets it grow with the rate: a raid at 400 lines a second keeps 12,000 keys, and a server
 * sending new ids as fast as it can would keep millions. A line's copy on another alias comes right after it, so
 * the newest 20,000 keys (about 1.5 MB in a heap snapshot) cover the whole window up to 660 lines a second and
 * the copies far beyond ([reference §10.2](../../docs/kick-wire-reference.md#102-channels)).
 */
export const REPEAT_KEYS_MAX = 20_000;
/**
 * How many different surprises (unknown event names, unreadable frames, errors) are logged, once each; a server
 * inventing a new name per frame would otherwise write a log line, and keep a key, for every frame. Past this
 * they are still counted in Health.
 */
export const LOGGED_ONCE_MAX = 100;
/**
 * The longest `data` read, in characters. Kick's frames are a few kilobytes (a chat line is at most 500
 * characters); Pusher's client takes frames of up to 64 MiB, and reading one of those (parsing it, cleaning a
 * pinned text or a raider's name of that length) would hold main for seconds and take gigabytes.
 */
export const LIVE_DATA_MAX_CHARS = 256 * 1024;

export interface LiveConnectionDeps {
  clock: Clock;
  setTimer: SetTimer;
  random: () => number;
  transports: LiveTransports;
  /** The ids for the signed-in channel, or null (with why) when they are not known: Settings asks for them. */
  ids: () => Promise<Result<ChannelIds, string>>;
  /** Where to connect, asked at every connect. */
  discover: (ids: ChannelIds) => Promise<LiveTarget>;
  log: (line: string) => void;
  backoff?: Backoff;
}

type State = LiveSocketHealthView['state'];

export class LiveConnection {
  readonly #deps: LiveConnectionDeps;
  readonly #events: Listeners<[LiveEvent]>;
  readonly #changes: Listeners<[]>;
  #state: State = 'off';
  #running = false;
  /** Bumped at every start, stop and new session, so a late callback of an old one is ignored. */
  #generation = 0;
  #session: TransportSession | null = null;
  #target: LiveTarget | null = null;
  #channels: string[] = [];
  #chatroomId: number | null = null;
  #timer: { cancel(): void } | null = null;
  #watchdog: { cancel(): void } | null = null;
  /** The generation the watchdog's timer belongs to, and the time it counts silence from (the last frame). */
  #watchdogGeneration = -1;
  #watchedSinceMs = 0;
  #attempt = 0;
  #openedAtMs: number | null = null;
  #lastFrameAtMs: number | null = null;
  #retryAtMs: number | null = null;
  #lastClose: { code: number; reason: string } | null = null;
  #problem: string | null = null;
  #counters = { events: 0, unknown: 0, malformed: 0, reconnects: 0 };
  readonly #loggedOnce = new Set<string>();
  /** Chat lines by their own id, the string the line already holds: no key is built per line in a raid. */
  readonly #recentLines = new RecentKeys(REPEAT_WINDOW_MS, REPEAT_KEYS_MAX);
  /** Deletions and hosts, by a key naming their kind. */
  readonly #recentOther = new RecentKeys(REPEAT_WINDOW_MS, REPEAT_KEYS_MAX);

  constructor(deps: LiveConnectionDeps) {
    this.#deps = deps;
    const log = (error: unknown) => deps.log(`live socket: a listener failed: ${String(error)}`);
    this.#events = new Listeners(log);
    this.#changes = new Listeners(log);
  }

  /** Typed events as they arrive (never wired into the webhook path here). */
  onEvent(listener: (event: LiveEvent) => void): () => void {
    return this.#events.add(listener);
  }

  /** Called whenever `view()` would answer differently. */
  onChange(listener: () => void): () => void {
    return this.#changes.add(listener);
  }

  view(): LiveSocketHealthView {
    const target = this.#target;
    return {
      state: this.#state,
      provider: target?.provider ?? null,
      keySource: target?.keySource ?? null,
      channels: [...this.#channels],
      connectedAtMs: this.#state === 'connected' ? this.#openedAtMs : null,
      lastFrameAtMs: this.#lastFrameAtMs,
      retryAtMs: this.#retryAtMs,
      lastClose: this.#lastClose,
      problem: this.#problem,
      counters: { ...this.#counters },
    };
  }

  /** Connects (again) from scratch; a no-op while already running. */
  start(): void {
    if (this.#running) {
      return;
    }
    this.#running = true;
    this.#attempt = 0;
    this.#problem = null;
    void this.#connect();
  }

  /** Closes the session and every timer; `view()` says `off`. */
  stop(): void {
    this.#running = false;
    this.#generation += 1;
    this.#endSession();
    this.#retryAtMs = null;
    this.#set('off');
  }

  async #connect(): Promise<void> {
    const generation = ++this.#generation;
    this.#retryAtMs = null;
    this.#set('connecting');
    const ids = await this.#deps.ids();
    if (generation !== this.#generation) {
      return;
    }
    if (!ids.ok) {
      this.#problem = ids.error;
      this.#set('needs-ids');
      return;
    }
    let target: LiveTarget;
    try {
      target = await this.#deps.discover(ids.value);
    } catch (error) {
      // Discovery falls back by itself; a throw here is a bug, and retrying is still the right answer.
      this.#deps.log(`live socket: discovery failed: ${String(error)}`);
      this.#scheduleRetry('backoff');
      return;
    }
    if (generation !== this.#generation) {
      return;
    }
    this.#target = target;
    this.#channels = liveChannels(ids.value);
    this.#chatroomId = ids.value.chatroomId;
    this.#openedAtMs = null;
    this.#timer = this.#deps.setTimer(() => {
      if (generation === this.#generation) {
        this.#closed(generation, LOCAL_CLOSE.handshakeTimeout, 'no handshake in time', true);
      }
    }, HANDSHAKE_TIMEOUT_MS);
    try {
      this.#session = this.#deps.transports[target.provider](target, this.#channels, {
        onOpen: () => this.#opened(generation),
        onFrame: (frame, channel) => this.#frame(generation, frame, channel),
        onActivity: () => this.#activity(generation),
        onClose: (code, reason) => this.#closed(generation, code, reason, false),
      });
    } catch (error) {
      this.#deps.log(`live socket: the ${target.provider} transport could not start: ${String(error)}`);
      this.#closed(generation, LOCAL_CLOSE.handshakeTimeout, 'transport failed to start', true);
    }
  }

  #opened(generation: number): void {
    if (generation !== this.#generation) {
      return;
    }
    this.#cancelTimer();
    this.#openedAtMs = this.#deps.clock.now();
    this.#problem = null;
    this.#armWatchdog(generation);
    this.#set('connected');
  }

  #activity(generation: number): void {
    if (generation === this.#generation && this.#state === 'connected') {
      this.#lastFrameAtMs = this.#deps.clock.now();
      this.#armWatchdog(generation);
    }
  }

  #frame(generation: number, raw: unknown, channel: string | null): void {
    if (generation !== this.#generation) {
      return;
    }
    this.#lastFrameAtMs = this.#deps.clock.now();
    this.#armWatchdog(generation);
    let frame: ReturnType<typeof parseLiveFrame>;
    try {
      frame = tooLarge(raw)
        ? { kind: 'malformed', name: null, reason: `over ${LIVE_DATA_MAX_CHARS} characters` }
        : parseLiveFrame(raw, channel);
    } catch (error) {
      // A reader's bug must not escape into the socket library's callback, where it would be uncaught in main.
      frame = { kind: 'malformed', name: null, reason: `could not be read (${String(error).slice(0, 200)})` };
    }
    switch (frame.kind) {
      case 'event':
        if (!this.#isOurs(frame.event)) {
          this.#counters.malformed += 1;
          this.#once(
            `elsewhere:${frame.event.type}`,
            `live socket: a ${frame.event.type} frame for another channel or chatroom (${frame.event.channel ?? '?'}) was not used`,
          );
          break;
        }
        if (this.#isRepeat(frame.event)) {
          break;
        }
        this.#counters.events += 1;
        this.#events.emit(frame.event);
        break;
      case 'unknown':
        this.#counters.unknown += 1;
        this.#once(`unknown:${frame.name}`, `live socket: an event Greenroom does not know: ${frame.name}`);
        break;
      case 'malformed':
        this.#counters.malformed += 1;
        this.#once(
          `malformed:${frame.name ?? ''}`,
          `live socket: a frame that could not be read (${frame.name ?? 'no event name'}: ${frame.reason})`,
        );
        break;
      case 'error':
        this.#once(
          `error:${frame.code ?? ''}`,
          `live socket: the server reported error ${frame.code ?? '?'} ${frame.message}`,
        );
        break;
      case 'subscription-error':
        this.#once(`suberror:${frame.channel ?? ''}`, `live socket: subscribing to ${frame.channel ?? '?'} failed`);
        break;
      default:
        break;
    }
    this.#changes.emit();
  }

  #closed(generation: number, code: number, reason: string, local: boolean): void {
    if (generation !== this.#generation || !this.#running) {
      return;
    }
    this.#generation += 1;
    if (local) {
      this.#endSession();
    } else {
      this.#session = null;
      this.#cancelTimer();
      this.#watchdog?.cancel();
      this.#watchdog = null;
    }
    this.#lastClose = { code, reason };
    const stable = this.#openedAtMs !== null && this.#deps.clock.now() - this.#openedAtMs >= STABLE_AFTER_MS;
    if (stable) {
      this.#attempt = 0;
    }
    const provider = this.#target?.provider ?? 'pusher';
    const action = closeAction(provider, code);
    this.#deps.log(
      `live socket: closed with ${code}${reason ? ` (${reason})` : ''}; ${action === 'stop' ? 'not reconnecting' : 'reconnecting'}`,
    );
    if (action === 'stop') {
      this.#problem = `refused with close code ${code}`;
      this.#retryAtMs = null;
      this.#set('refused');
      return;
    }
    this.#scheduleRetry(action);
  }

  #scheduleRetry(action: 'now' | 'backoff'): void {
    this.#attempt += 1;
    this.#counters.reconnects += 1;
    const backoff = this.#deps.backoff ?? LIVE_BACKOFF;
    // "Reconnect now" is honoured once; a server that keeps asking is waited for like any other failure.
    const delay = action === 'now' && this.#attempt === 1 ? 0 : backoffDelay(this.#attempt, backoff, this.#deps.random);
    this.#retryAtMs = this.#deps.clock.now() + delay;
    const generation = this.#generation;
    this.#timer = this.#deps.setTimer(() => {
      if (generation === this.#generation && this.#running) {
        this.#timer = null;
        void this.#connect();
      }
    }, delay);
    this.#set('waiting');
  }

  /**
   * Silence is counted from now. One timer serves many frames: in a raid a timer cancelled and set again at every
   * frame (twice, for its activity and for the frame) was work and garbage per chat line. When the timer fires
   * after frames came, it is set again for what is left of the limit from the last one, so the close comes
   * exactly {@link SILENCE_LIMIT_MS} after the last frame, as before.
   */
  #armWatchdog(generation: number): void {
    this.#watchedSinceMs = this.#deps.clock.now();
    if (this.#watchdog !== null && this.#watchdogGeneration === generation) {
      return;
    }
    this.#watchdog?.cancel();
    this.#setWatchdog(generation, SILENCE_LIMIT_MS);
  }

  #setWatchdog(generation: number, ms: number): void {
    this.#watchdogGeneration = generation;
    const timer = this.#deps.setTimer(() => {
      if (this.#watchdog === timer) {
        this.#watchdog = null;
      }
      if (generation !== this.#generation) {
        return;
      }
      const silentMs = this.#deps.clock.now() - this.#watchedSinceMs;
      if (silentMs < SILENCE_LIMIT_MS) {
        this.#setWatchdog(generation, SILENCE_LIMIT_MS - silentMs);
        return;
      }
      this.#closed(generation, LOCAL_CLOSE.silent, 'no frame for too long', true);
    }, ms);
    this.#watchdog = timer;
  }

  /**
   * The same event on two channel aliases ([reference §10.2](../../docs/kick-wire-reference.md#102-channels)): each key is
   * remembered for {@link REPEAT_WINDOW_MS}.
   */
  #isRepeat(event: LiveEvent): boolean {
    if (event.type === 'chat.message') {
      return this.#recentLines.seenOrRemember(event.messageId, this.#deps.clock.now());
    }
    const key =
      event.type === 'chat.deleted'
        ? `d:${event.messageId}`
        : event.type === 'host'
          ? `h:${event.version}:${event.hostUsername.toLowerCase()}:${event.viewers}`
          : null;
    return key !== null && this.#recentOther.seenOrRemember(key, this.#deps.clock.now());
  }

  /**
   * Whether the event is this channel's: it came on a channel subscribed to, and a chat line or pin names this
   * chatroom when it names one. Pusher hands over every frame on the line, whatever its channel, and the socket
   * is unauthenticated: another room's line must not enter this room's chat, journal or mod log.
   */
  #isOurs(event: LiveEvent): boolean {
    if (event.channel !== null && !this.#channels.includes(event.channel)) {
      return false;
    }
    const chatroomId =
      event.type === 'chat.message' ? event.chatroomId : event.type === 'pin.created' ? event.message.chatroomId : null;
    return chatroomId === null || chatroomId === this.#chatroomId;
  }

  #once(key: string, line: string): void {
    if (this.#loggedOnce.has(key)) {
      return;
    }
    if (this.#loggedOnce.size >= LOGGED_ONCE_MAX) {
      if (this.#loggedOnce.size === LOGGED_ONCE_MAX) {
        this.#loggedOnce.add('');
        this.#deps.log(`live socket: more than ${LOGGED_ONCE_MAX} kinds of surprise; further ones are only counted`);
      }
      return;
    }
    this.#loggedOnce.add(key);
    this.#deps.log(line);
  }

  #endSession(): void {
    this.#cancelTimer();
    this.#watchdog?.cancel();
    this.#watchdog = null;
    const session = this.#session;
    this.#session = null;
    session?.close();
  }

  #cancelTimer(): void {
    this.#timer?.cancel();
    this.#timer = null;
  }

  #set(state: State): void {
    this.#state = state;
    this.#changes.emit();
  }
}

/** More values than this in one frame's `data` is not a frame of Kick's either. */
const LIVE_DATA_MAX_VALUES = 10_000;

/**
 * Whether a frame is over {@link LIVE_DATA_MAX_CHARS}: its text, or (pusher-js and centrifuge hand `data` over
 * already decoded) the characters of every string and key in it, counted without copying, or over
 * {@link LIVE_DATA_MAX_VALUES} values.
 */
function tooLarge(raw: unknown): boolean {
  let chars = 0;
  let values = 0;
  const stack: unknown[] = [raw];
  while (stack.length > 0) {
    const value = stack.pop();
    if (++values > LIVE_DATA_MAX_VALUES) {
      return true;
    }
    if (typeof value === 'string') {
      chars += value.length;
    } else if (Array.isArray(value)) {
      if (values + value.length > LIVE_DATA_MAX_VALUES) {
        return true;
      }
      stack.push(...(value as unknown[]));
    } else if (typeof value === 'object' && value !== null) {
      for (const key in value) {
        if (!Object.hasOwn(value, key)) {
          continue;
        }
        chars += key.length;
        stack.push((value as Record<string, unknown>)[key]);
        if (stack.length > LIVE_DATA_MAX_VALUES) {
          return true;
        }
      }
    }
    if (chars > LIVE_DATA_MAX_CHARS) {
      return true;
    }
  }
  return false;
}
