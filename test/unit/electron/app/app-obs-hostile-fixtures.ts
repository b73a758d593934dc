/**
 * The app's OBS part (`createAppObs`) over the real link against the scripted obs-websocket server, for
 * the tests of a hostile or broken OBS: what it sends reaches the panel, the errors and the log only cut
 * and capped (docs/obs.md#obs-wire-facts).
 */
import { randomBytes } from 'node:crypto';
import { afterEach } from 'vitest';
import { type AppObs, createAppObs } from '../../../../electron/app/app-obs';
import { openSettings } from '../../../../electron/app/settings';
import { obsWebSocketLinkFactory } from '../../../../electron/obs/obs-websocket-link';
import { MemorySecretStore } from '../../../../electron/secrets/secret-store';
import type { SetTimer } from '../../../../electron/core/scheduler';
import type { ObsView } from '../../../../shared/obs';
import { tempDir } from '../../../helpers/temp-dir';
import { type ScriptedAnswer, type ScriptedObs, scriptedObs } from '../obs/obs-websocket-link-fixtures';

export const HOSTILE_PASSWORD = 'hostile-obs-password';

const STATS = {
  cpuUsage: 1,
  memoryUsage: 1,
  availableDiskSpace: 1e6,
  activeFps: 30,
  renderSkippedFrames: 0,
  renderTotalFrames: 1,
  outputSkippedFrames: 0,
  outputTotalFrames: 1,
};
const OUTPUT = {
  outputActive: false,
  outputDuration: 0,
  outputBytes: 0,
  outputReconnecting: false,
  outputSkippedFrames: 0,
  outputTotalFrames: 0,
  outputPaused: false,
};

/** What an idle OBS answers to the monitor's reads; the test's handler answers first. */
export function idleObs(answer: (type: string, data: unknown) => ScriptedAnswer | undefined = () => undefined) {
  return (type: string, data: unknown): ScriptedAnswer | undefined => {
    const given = answer(type, data);
    if (given !== undefined) {
      return given;
    }
    switch (type) {
      case 'GetStats':
        return { ok: true, data: STATS };
      case 'GetStreamStatus':
      case 'GetRecordStatus':
        return { ok: true, data: OUTPUT };
      case 'GetSceneList':
        return { ok: true, data: { currentProgramSceneName: null, scenes: [] } };
      case 'GetSceneItemList':
        return { ok: true, data: { sceneItems: [] } };
      case 'GetInputKindList':
        return { ok: true, data: { inputKinds: [] } };
      case 'SetCurrentProgramScene':
        return { ok: true };
      default:
        return undefined;
    }
  };
}

/** Timers that fire when the test moves the clock on. */
export class SteppedScheduler {
  now = 1_000_000;
  readonly #timers = new Map<number, { at: number; callback: () => void }>();
  #next = 1;

  readonly setTimer: SetTimer = (callback, ms) => {
    const id = this.#next++;
    this.#timers.set(id, { at: this.now + ms, callback });
    return { cancel: () => void this.#timers.delete(id) };
  };

  /** Moves the clock on by `ms`, firing each timer due by then in time order. */
  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const due = [...this.#timers].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) {
        break;
      }
      this.#timers.delete(due[0]);
      this.now = Math.max(this.now, due[1].at);
      due[1].callback();
    }
    this.now = until;
  }
}

let running: AppObs | null = null;
afterEach(async () => {
  await running?.stop();
  running = null;
});

export interface HostileApp {
  app: AppObs;
  server: ScriptedObs;
  pushed: ObsView[];
  logs: string[];
}

/** The app connected (saved and connecting) to a scripted OBS answering with `answer`. */
export async function hostileApp(
  answer: (type: string, data: unknown) => ScriptedAnswer | undefined,
  scheduler?: SteppedScheduler,
): Promise<HostileApp> {
  const server = await scriptedObs({ password: HOSTILE_PASSWORD, answer });
  const pushed: ObsView[] = [];
  const logs: string[] = [];
  const app = createAppObs({
    settings: openSettings(tempDir('greenroom-obs-hostile-'), { randomBytes }),
    secretStore: new MemorySecretStore(),
    linkFactory: obsWebSocketLinkFactory({ log: (line) => logs.push(line) }),
    clock: { now: () => (scheduler ? scheduler.now : Date.now()) },
    ...(scheduler ? { setTimer: scheduler.setTimer } : {}),
    random: () => 0,
    log: (line) => logs.push(line),
    kickLive: () => null,
    onKickLiveChange: () => () => undefined,
    health: () => ({ lag: { samples: 0, p50Ms: null, p95Ms: null, state: 'unknown', delayMs: null } }),
    push: (view) => pushed.push(view),
  });
  running = app;
  await app.saveConnection({
    enabled: true,
    host: '127.0.0.1',
    port: Number(new URL(server.url).port),
    password: HOSTILE_PASSWORD,
  });
  return { app, server, pushed, logs };
}
