/**
 * What OBS is doing, read while connected (docs/obs.md#stream-health-warnings): every 2 s its stats and the
 * stream's and the recording's status, turned into the panel's {@link ObsStatsView}; its scenes and the
 * current scene's sources at connect and whenever OBS says they changed (several events in a row are one
 * read, and reads start at most every `SCENES_MIN_INTERVAL_MS`, so a flood of events cannot keep main busy).
 * Names are cut to `OBS_NAME_MAX`, scenes kept once each, and both lists capped, with a count of the rest
 * (docs/obs.md#obs-wire-facts). One timer drives the polls and a poll starts only after the last one ended, so a slow OBS is never
 * asked twice at once. The last stats are kept, with their `at`, after the connection drops: the panel says
 * how old they are.
 */
import { isAppError } from '../../shared/errors';
import { OBS_NAME_MAX, type ObsOutputView, type ObsScenesView, type ObsStatsView } from '../../shared/obs';
import type { SetTimer, Timer } from '../core/scheduler';
import type { ObsConnection } from './obs-connection';
import type { ObsEventType, ObsRequests } from './obs-link';
import { cutText } from './obs-wire';

/** How often OBS is read while connected. */
export const OBS_POLL_INTERVAL_MS = 2_000;
/** A poll OBS does not answer by then means the session is gone (the connection drops it and retries). */
export const OBS_POLL_TIMEOUT_MS = 5_000;
/** The window the recent dropped-frame share is taken over (docs/obs.md#stream-health-warnings). */
export const DROPPED_WINDOW_MS = 30_000;
/** Scene events that come together (a scene switch with its items) are one read this long after the first. */
export const SCENES_COALESCE_MS = 100;
/** Polls asked for at once (an output started or stopped): at most this many in this window, the rest wait. */
export const POLL_SOON_MAX = 3;
export const POLL_SOON_WINDOW_MS = 1_000;
/** Scene reads start at most this often, however fast OBS says the scenes changed. */
export const SCENES_MIN_INTERVAL_MS = 500;
/** The most scenes, and sources of the current scene, the panel is sent; the rest are counted. */
export const OBS_SCENES_MAX = 500;
export const OBS_SOURCES_MAX = 500;

type StreamStatus = ObsRequests['GetStreamStatus']['out'];
type RecordStatus = ObsRequests['GetRecordStatus']['out'];
type Stats = ObsRequests['GetStats']['out'];
type SceneList = ObsRequests['GetSceneList']['out'];
type SceneItems = ObsRequests['GetSceneItemList']['out']['sceneItems'];

/**
 * The panel's scenes from OBS's answers: names cut to `OBS_NAME_MAX`, each scene once (the panel keys its
 * buttons by name) and each item once, top of OBS's lists first, at most `OBS_SCENES_MAX` scenes (the one on
 * air always among them) and `OBS_SOURCES_MAX` sources, with how many more there are.
 */
export function scenesView(list: SceneList, items: SceneItems): ObsScenesView {
  const current = list.currentProgramSceneName === null ? null : cutText(list.currentProgramSceneName, OBS_NAME_MAX);
  // OBS numbers scenes and items from the bottom of its lists; the panel lists them top first, as OBS does.
  const names = [
    ...new Set(
      [...list.scenes].sort((a, b) => b.sceneIndex - a.sceneIndex).map((s) => cutText(s.sceneName, OBS_NAME_MAX)),
    ),
  ];
  const scenes = names.slice(0, OBS_SCENES_MAX);
  if (current !== null && names.length > OBS_SCENES_MAX && !scenes.includes(current) && names.includes(current)) {
    scenes[OBS_SCENES_MAX - 1] = current;
  }
  const ids = new Set<number>();
  const sources = [...items].reverse().flatMap((item) => {
    if (ids.has(item.sceneItemId)) {
      return [];
    }
    ids.add(item.sceneItemId);
    return [
      { sceneItemId: item.sceneItemId, name: cutText(item.sourceName, OBS_NAME_MAX), enabled: item.sceneItemEnabled },
    ];
  });
  const view: ObsScenesView = { current, scenes, sources: sources.slice(0, OBS_SOURCES_MAX) };
  if (names.length > scenes.length) {
    view.moreScenes = names.length - scenes.length;
  }
  if (sources.length > OBS_SOURCES_MAX) {
    view.moreSources = sources.length - OBS_SOURCES_MAX;
  }
  return view;
}

/** One reading of an output's counters, for the bitrate and the recent dropped share. */
interface Sample {
  at: number;
  bytes: number;
  skipped: number;
  total: number;
}

/** Kilobits a second between two readings of one output; null without a usable pair. */
export function bitrateKbps(previous: Sample | null, current: Sample): number | null {
  if (!previous || current.at <= previous.at || current.bytes < previous.bytes) {
    return null;
  }
  // bytes × 8 is bits; bits per millisecond is kilobits per second.
  return Math.round(((current.bytes - previous.bytes) * 8) / (current.at - previous.at));
}

/**
 * The share of frames dropped over the last `windowMs`, in percent, from the oldest reading inside the
 * window (or the one just before it) to the newest; null with fewer than two readings or no frames sent.
 */
export function droppedShare(samples: readonly Sample[], windowMs: number): number | null {
  const newest = samples.at(-1);
  if (!newest || samples.length < 2) {
    return null;
  }
  const from = newest.at - windowMs;
  let base = samples[0]!;
  for (const sample of samples) {
    if (sample.at <= from) {
      base = sample;
    }
  }
  const total = newest.total - base.total;
  if (base === newest || total <= 0) {
    return null;
  }
  return ((newest.skipped - base.skipped) / total) * 100;
}

export interface ObsMonitorDeps {
  connection: Pick<ObsConnection, 'request' | 'onSession' | 'onEvent'>;
  now: () => number;
  setTimer: SetTimer;
  log: (line: string) => void;
  /** Stats, scenes or the browser-source answer changed. */
  onChange: () => void;
  intervalMs?: number;
  pollTimeoutMs?: number;
}

const SCENE_EVENTS: ObsEventType[] = [
  'CurrentProgramSceneChanged',
  'SceneListChanged',
  'SceneItemCreated',
  'SceneItemRemoved',
];

export class ObsMonitor {
  readonly #deps: ObsMonitorDeps;
  readonly #unsubscribe: (() => void)[];
  #stats: ObsStatsView | null = null;
  #scenes: ObsScenesView | null = null;
  #browserSource: boolean | null = null;
  #connected = false;
  /** The stream's readings inside the dropped-frame window (and the one before it). */
  #streamSamples: Sample[] = [];
  #lastRecord: Sample | null = null;
  #pollTimer: Timer | null = null;
  #polling = false;
  /** A stream or recording started or stopped during a poll: read again as soon as it ends. */
  #pollAgain = false;
  /** When the polls asked for at once in the last window began; when the pending poll timer fires. */
  #soonPolls: number[] = [];
  #pollTimerAt: number | null = null;
  #scenesTimer: Timer | null = null;
  #readingScenes = false;
  #scenesAgain = false;
  /** When the last scene read started, for `SCENES_MIN_INTERVAL_MS`; null before the first. */
  #scenesReadAt: number | null = null;
  /** The last request failure logged, so a failing poll is one line, not one every 2 s. */
  #lastFailure: string | null = null;
  #stopped = false;

  constructor(deps: ObsMonitorDeps) {
    this.#deps = deps;
    const { connection } = deps;
    this.#unsubscribe = [
      connection.onSession((link) => (link ? this.#opened() : this.#closed())),
      ...SCENE_EVENTS.map((type) => connection.onEvent(type, () => this.#scenesChanged())),
      connection.onEvent('SceneItemEnableStateChanged', (data) => this.#itemToggled(data)),
      // Started or stopped (not the STARTING and STOPPING on the way): the strip shows it without waiting 2 s.
      connection.onEvent('StreamStateChanged', ({ outputState }) => this.#outputChanged(outputState)),
      connection.onEvent('RecordStateChanged', ({ outputState }) => this.#outputChanged(outputState)),
    ];
  }

  stats(): ObsStatsView | null {
    return this.#stats;
  }

  scenes(): ObsScenesView | null {
    return this.#scenes;
  }

  browserSource(): boolean | null {
    return this.#browserSource;
  }

  /** The scene on program now, as last read or heard; null while unknown. */
  currentScene(): string | null {
    return this.#scenes?.current ?? null;
  }

  /** Reads OBS now rather than at the next tick (an output was started or stopped); a flood is a few polls a second. */
  pollSoon(): void {
    if (!this.#connected || this.#stopped) {
      return;
    }
    if (this.#polling) {
      this.#pollAgain = true;
      return;
    }
    this.#pollWithin();
  }

  /**
   * Polls now, unless `POLL_SOON_MAX` polls were asked for at once in the last `POLL_SOON_WINDOW_MS` (a flood
   * of output events): then when the oldest of them leaves the window, or at the pending tick if sooner.
   */
  #pollWithin(): void {
    const now = this.#deps.now();
    this.#soonPolls = this.#soonPolls.filter((at) => at > now - POLL_SOON_WINDOW_MS);
    const wait = this.#soonPolls.length < POLL_SOON_MAX ? 0 : this.#soonPolls[0]! + POLL_SOON_WINDOW_MS - now;
    if (wait > 0 && this.#pollTimer !== null && this.#pollTimerAt !== null && this.#pollTimerAt <= now + wait) {
      return;
    }
    this.#clearPollTimer();
    if (wait > 0) {
      this.#setPollTimer(wait, true);
      return;
    }
    this.#soonPolls.push(now);
    void this.#poll();
  }

  #setPollTimer(ms: number, soon = false): void {
    this.#pollTimerAt = this.#deps.now() + ms;
    this.#pollTimer = this.#deps.setTimer(() => {
      this.#pollTimer = null;
      this.#pollTimerAt = null;
      if (soon) {
        this.#soonPolls.push(this.#deps.now());
      }
      void this.#poll();
    }, ms);
  }

  /** Reads the scenes again soon (after a change Greenroom made itself). */
  scenesSoon(): void {
    this.#scenesChanged();
  }

  stop(): void {
    this.#stopped = true;
    this.#unsubscribe.forEach((unsubscribe) => unsubscribe());
    this.#closed();
  }

  #opened(): void {
    this.#connected = true;
    this.#streamSamples = [];
    this.#lastRecord = null;
    this.#lastFailure = null;
    void this.#poll();
    void this.#readScenes();
    void this.#readBrowserSource();
  }

  #closed(): void {
    this.#connected = false;
    this.#clearPollTimer();
    if (this.#scenesTimer !== null) {
      this.#scenesTimer?.cancel();
      this.#scenesTimer = null;
    }
    this.#pollAgain = false;
    this.#scenesAgain = false;
    if (this.#scenes !== null) {
      this.#scenes = null;
      this.#deps.onChange();
    }
  }

  #clearPollTimer(): void {
    if (this.#pollTimer !== null) {
      this.#pollTimer?.cancel();
      this.#pollTimer = null;
      this.#pollTimerAt = null;
    }
  }

  async #poll(): Promise<void> {
    this.#polling = true;
    try {
      const timeout = this.#deps.pollTimeoutMs ?? OBS_POLL_TIMEOUT_MS;
      const { connection } = this.#deps;
      const [stats, stream, record] = await Promise.all([
        connection.request('GetStats', [], timeout),
        connection.request('GetStreamStatus', [], timeout),
        connection.request('GetRecordStatus', [], timeout),
      ]);
      if (this.#connected && !this.#stopped) {
        this.#lastFailure = null;
        this.#read(stats, stream, record);
      }
    } catch (error) {
      this.#failed('the stats', error);
    } finally {
      this.#polling = false;
    }
    if (!this.#connected || this.#stopped) {
      return;
    }
    if (this.#pollAgain) {
      this.#pollAgain = false;
      this.#pollWithin();
      return;
    }
    this.#setPollTimer(this.#deps.intervalMs ?? OBS_POLL_INTERVAL_MS);
  }

  /** A failed request: dropped sessions are the connection's to report; OBS refusing is one line. */
  #failed(what: string, error: unknown): void {
    if (isAppError(error) && (error.code === 'ObsNotConnected' || error.code === 'ObsWrongPassword')) {
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    if (message !== this.#lastFailure) {
      this.#lastFailure = message;
      this.#deps.log(`obs: could not read ${what} from OBS: ${message}`);
    }
  }

  #read(stats: Stats, stream: StreamStatus, record: RecordStatus): void {
    const at = this.#deps.now();
    const streamSample: Sample = {
      at,
      bytes: stream.outputBytes,
      skipped: stream.outputSkippedFrames,
      total: stream.outputTotalFrames,
    };
    const previousStream = this.#streamSamples.at(-1) ?? null;
    // A new stream starts its counters at zero: the readings of the one before are not compared with it.
    if (!stream.outputActive || (previousStream && streamSample.total < previousStream.total)) {
      this.#streamSamples = [];
    }
    const lastStream = this.#streamSamples.at(-1) ?? null;
    if (stream.outputActive) {
      this.#streamSamples.push(streamSample);
      // Keep the window, and the one reading just before it (the share's base).
      const from = at - DROPPED_WINDOW_MS;
      while (this.#streamSamples.length > 2 && this.#streamSamples[1]!.at <= from) {
        this.#streamSamples.shift();
      }
    }
    const recordSample: Sample = { at, bytes: record.outputBytes, skipped: 0, total: 0 };
    const recordBitrate =
      record.outputActive && !record.outputPaused ? bitrateKbps(this.#lastRecord, recordSample) : null;
    this.#lastRecord = record.outputActive ? recordSample : null;
    const streamView: ObsOutputView = {
      active: stream.outputActive,
      reconnecting: stream.outputReconnecting,
      paused: false,
      durationMs: stream.outputDuration,
      bytes: stream.outputBytes,
      bitrateKbps: stream.outputActive ? bitrateKbps(lastStream, streamSample) : null,
    };
    const recordView: ObsOutputView = {
      active: record.outputActive,
      reconnecting: false,
      paused: record.outputPaused,
      durationMs: record.outputDuration,
      bytes: record.outputBytes,
      bitrateKbps: recordBitrate,
    };
    this.#stats = {
      at,
      stream: streamView,
      record: recordView,
      droppedFrames: stream.outputSkippedFrames,
      totalFrames: stream.outputTotalFrames,
      droppedPctRecent: stream.outputActive ? droppedShare(this.#streamSamples, DROPPED_WINDOW_MS) : null,
      laggedFrames: stats.renderSkippedFrames,
      renderedFrames: stats.renderTotalFrames,
      fps: stats.activeFps,
      cpuPct: stats.cpuUsage,
      memoryMb: stats.memoryUsage,
      freeDiskMb:
        Number.isFinite(stats.availableDiskSpace) && stats.availableDiskSpace >= 0 ? stats.availableDiskSpace : null,
    };
    this.#deps.onChange();
  }

  #outputChanged(outputState: string): void {
    if (outputState.endsWith('_STARTED') || outputState.endsWith('_STOPPED')) {
      this.pollSoon();
    }
  }

  #scenesChanged(): void {
    if (!this.#connected || this.#stopped) {
      return;
    }
    if (this.#readingScenes) {
      this.#scenesAgain = true;
      return;
    }
    const sinceLast = this.#scenesReadAt === null ? Infinity : this.#deps.now() - this.#scenesReadAt;
    this.#scenesTimer ??= this.#deps.setTimer(
      () => {
        this.#scenesTimer = null;
        void this.#readScenes();
      },
      Math.max(SCENES_COALESCE_MS, SCENES_MIN_INTERVAL_MS - sinceLast),
    );
  }

  #itemToggled(data: { sceneName: string; sceneItemId: number; sceneItemEnabled: boolean }): void {
    const scenes = this.#scenes;
    if (!scenes || scenes.current !== cutText(data.sceneName, OBS_NAME_MAX)) {
      return;
    }
    this.#scenes = {
      ...scenes,
      sources: scenes.sources.map((source) =>
        source.sceneItemId === data.sceneItemId ? { ...source, enabled: data.sceneItemEnabled } : source,
      ),
    };
    this.#deps.onChange();
  }

  async #readScenes(): Promise<void> {
    this.#readingScenes = true;
    this.#scenesReadAt = this.#deps.now();
    try {
      const timeout = this.#deps.pollTimeoutMs ?? OBS_POLL_TIMEOUT_MS;
      const { connection } = this.#deps;
      const list = await connection.request('GetSceneList', [], timeout);
      const current = list.currentProgramSceneName;
      const items = current
        ? (await connection.request('GetSceneItemList', [{ sceneName: current }], timeout)).sceneItems
        : [];
      if (this.#connected && !this.#stopped) {
        this.#scenes = scenesView(list, items);
        this.#deps.onChange();
      }
    } catch (error) {
      this.#failed('the scenes', error);
    } finally {
      this.#readingScenes = false;
    }
    if (this.#scenesAgain) {
      this.#scenesAgain = false;
      this.#scenesChanged();
    }
  }

  async #readBrowserSource(): Promise<void> {
    try {
      const { inputKinds } = await this.#deps.connection.request(
        'GetInputKindList',
        [{ unversioned: true }],
        this.#deps.pollTimeoutMs ?? OBS_POLL_TIMEOUT_MS,
      );
      const has = inputKinds.includes('browser_source');
      if (has !== this.#browserSource) {
        this.#browserSource = has;
        this.#deps.onChange();
      }
    } catch (error) {
      this.#failed('the source kinds', error);
    }
  }
}
