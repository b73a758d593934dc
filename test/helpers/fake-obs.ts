/**
 * An in-memory OBS for tests above the `ObsLink` port (the connection, the monitor, the actions, "Set up
 * OBS for Kick"): `fake.link` is an `ObsLinkFactory` whose links talk to this OBS as the real link talks to
 * Debian's OBS 29 — the password check with close code 4009, OBS's request status codes, its events. The
 * contract suite (test/integration/obs/obs-link-contract.ts) holds the fake and the real OBS to the same
 * behaviour (docs/obs.md#testing-against-a-real-obs).
 *
 * Controls: `kill()` (OBS crashed: every open link hears `onClosed` unreachable, connects fail until
 * `start()`), `quit()` (OBS closed by the streamer: ExitStarted first), `setPassword()`, `stats` and
 * `tick()` to drive the counters, `ingestReachable`, `endStream()`, `failNext()`, and `requests`, every
 * request any link sent.
 */
import {
  type ObsEvents,
  type ObsEventType,
  type ObsIdentity,
  type ObsLink,
  ObsLinkError,
  type ObsLinkFactory,
  ObsRequestError,
} from '../../electron/obs/obs-link';
import { DEBIAN_INPUT_KINDS, type FakeObsStats, FakeObsStudio } from './fake-obs-studio';

export { DEBIAN_INPUT_KINDS, OBS_STATUS, type FakeObsStats } from './fake-obs-studio';

export interface FakeObsOptions {
  /** Where the fake "listens"; a link connecting anywhere else finds nothing. */
  url?: string;
  /** The websocket password; null: OBS asks for none. Default 'fake-obs-password'. */
  password?: string | null;
  /** Input kinds OBS offers; default Debian's (no browser source). */
  inputKinds?: string[];
  /** Adds `browser_source` to the input kinds (an OBS with CEF, as on Windows and macOS). */
  browserSource?: boolean;
}

type Listener = (data: unknown) => void;

interface Session {
  listeners: Map<ObsEventType, Set<Listener>>;
  closedListeners: Set<(error: ObsLinkError) => void>;
  end(error: ObsLinkError): void;
}

const IDENTITY: ObsIdentity = { obsVersion: '29.0.2', websocketVersion: '5.1.0', rpcVersion: 1 };

/** JSON in and out, as on the wire: no shared objects, `undefined` fields dropped. */
function wire<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

export class FakeObs {
  readonly url: string;
  readonly studio: FakeObsStudio;
  /** Every request a link sent, in order (the data as sent). */
  readonly requests: { type: string; data: unknown }[] = [];
  readonly link: ObsLinkFactory = () => this.newLink();
  #password: string | null;
  #running = true;
  #sessions = new Set<Session>();
  #failures: { type: string; code: number; comment: string }[] = [];

  constructor(options: FakeObsOptions = {}) {
    this.url = options.url ?? 'ws://127.0.0.1:4455';
    this.#password = options.password === undefined ? 'fake-obs-password' : options.password;
    const kinds = [...(options.inputKinds ?? DEBIAN_INPUT_KINDS), ...(options.browserSource ? ['browser_source'] : [])];
    this.studio = new FakeObsStudio(kinds, (type, data) => this.#broadcast(type, data));
  }

  get password(): string | null {
    return this.#password;
  }

  /** Links currently identified with this OBS. */
  get openLinks(): number {
    return this.#sessions.size;
  }

  get running(): boolean {
    return this.#running;
  }

  /** Counters GetStats reports (cpu %, memory MB, free disk MB, fps, frames); assign to drive them. */
  get stats(): FakeObsStats {
    return this.studio.stats;
  }

  /** Passes time in OBS: active outputs grow by `ms` and the bytes given; frame counters grow. */
  tick(step: {
    ms?: number;
    streamBytes?: number;
    recordBytes?: number;
    /** Frames the stream output sent, and of those dropped (network). */
    streamFrames?: number;
    droppedFrames?: number;
    /** Frames rendered, and of those lagged (the computer could not keep up). */
    renderedFrames?: number;
    laggedFrames?: number;
  }): void {
    const { stream, record, stats } = this.studio;
    if (stream.active) {
      stream.durationMs += step.ms ?? 0;
      stream.bytes += step.streamBytes ?? 0;
      stream.total += step.streamFrames ?? 0;
      stream.skipped += step.droppedFrames ?? 0;
      stats.outputTotalFrames += step.streamFrames ?? 0;
      stats.outputSkippedFrames += step.droppedFrames ?? 0;
    }
    if (record.active) {
      record.durationMs += step.ms ?? 0;
      record.bytes += step.recordBytes ?? 0;
    }
    stats.renderTotalFrames += step.renderedFrames ?? 0;
    stats.renderSkippedFrames += step.laggedFrames ?? 0;
  }

  /** Whether StartStream reaches the server (false: STARTING → STOPPED, as OBS does when nothing answers). */
  set ingestReachable(value: boolean) {
    this.studio.ingestReachable = value;
  }

  /** The streamer pressed Stop Streaming in OBS itself. */
  endStream(): void {
    this.studio.stopOutput('stream');
  }

  /** The next request of `type` fails with OBS's `code` (once). */
  failNext(type: string, code: number, comment = ''): void {
    this.#failures.push({ type, code, comment });
  }

  setPassword(password: string | null): void {
    this.#password = password;
  }

  /** OBS crashed: every session ends unreachable, and nothing answers until `start()`. */
  kill(): void {
    this.#running = false;
    this.#endAll();
  }

  /** The streamer closed OBS: ExitStarted to every session, then each ends unreachable. */
  quit(): void {
    this.#broadcast('ExitStarted', undefined);
    this.kill();
  }

  /** OBS is running again (its scenes and settings as they were, its outputs stopped). */
  start(): void {
    this.#running = true;
    this.studio.stream.active = false;
    this.studio.record.active = false;
  }

  #endAll(): void {
    for (const session of [...this.#sessions]) {
      session.end(new ObsLinkError('unreachable', 'OBS closed the connection', 1006));
    }
  }

  #broadcast<E extends ObsEventType>(type: E, data: ObsEvents[E]): void {
    for (const session of [...this.#sessions]) {
      for (const listener of [...(session.listeners.get(type) ?? [])]) {
        listener(wire(data));
      }
    }
  }

  #answer(type: string, data: unknown): unknown {
    this.requests.push({ type, data: wire(data) });
    const failure = this.#failures.findIndex((f) => f.type === type);
    if (failure >= 0) {
      const [f] = this.#failures.splice(failure, 1);
      throw new ObsRequestError(type, f!.code, f!.comment);
    }
    return wire(this.studio.handle(type, (wire(data) ?? {}) as Record<string, unknown>));
  }

  private newLink(): ObsLink {
    let session: Session | null = null;
    let used = false;
    const listeners = new Map<ObsEventType, Set<Listener>>();
    const closedListeners = new Set<(error: ObsLinkError) => void>();

    return {
      connect: async ({ url, password }) => {
        if (used) {
          throw new Error('an ObsLink is used for one session: make a new one to connect again');
        }
        used = true;
        await Promise.resolve();
        if (!this.#running || url !== this.url) {
          throw new ObsLinkError('unreachable', `Nothing answered at ${url}`);
        }
        if (this.#password !== null && password !== this.#password) {
          throw new ObsLinkError('wrong-password', 'OBS refused the password', 4009);
        }
        const current: Session = {
          listeners,
          closedListeners,
          end: (error) => {
            this.#sessions.delete(current);
            session = null;
            for (const listener of [...closedListeners]) {
              listener(error);
            }
          },
        };
        session = current;
        this.#sessions.add(current);
        return { ...IDENTITY };
      },
      call: async (type, ...data) => {
        await Promise.resolve();
        if (session === null) {
          throw new ObsLinkError('unreachable', `${type}: not connected to OBS`);
        }
        return this.#answer(type, data[0]) as never;
      },
      on(type, listener) {
        const set = listeners.get(type) ?? new Set<Listener>();
        listeners.set(type, set);
        set.add(listener as Listener);
        return () => void set.delete(listener as Listener);
      },
      onClosed(listener) {
        closedListeners.add(listener);
        return () => void closedListeners.delete(listener);
      },
      close: () => {
        if (session !== null) {
          this.#sessions.delete(session);
          session = null;
        }
        return Promise.resolve();
      },
    };
  }
}
