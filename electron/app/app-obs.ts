/**
 * OBS in the app (docs/obs.md): the connection, the monitor and the stream-health warnings, built from the
 * settings, the SecretStore and a link factory, behind the port the handlers call; and a small API the
 * other OBS parts (the actions on events, "Set up OBS for Kick") build on.
 *
 * The API for those parts ({@link ObsApi}):
 * - `call(type, …data)`: one request to OBS; rejects with AppError `ObsNotConnected` (or `ObsWrongPassword`)
 *   when there is no session, `ObsRequestFailed` with `details.obsCode` when OBS refuses it. Never awaited on
 *   Greenroom's event path: an action fires it and handles its result on its own.
 * - `onEvent(type, listener)`: hears an OBS event from every session, the one open now and those after.
 * - `state()` / `onState(listener)`: the connection state (`connected` or not).
 * - `currentScene()`: the scene on program as last read or heard, null while unknown.
 * - `scenesChanged()`: read the scenes again soon (after a change made through `call`).
 *
 * Nothing here is awaited by chat, alerts, the bot or webhooks: OBS being down never slows them.
 */
import { isIPv6 } from 'node:net';
import { AppError } from '../../shared/errors';
import { fieldDetails } from '../../shared/field-refusal';
import {
  type ObsConnectionSave,
  type ObsConnectionState,
  type ObsSetupResult,
  type ObsView,
  type StreamWarningView,
} from '../../shared/obs';
import type { HealthView } from '../../shared/views';
import type { Clock } from '../core/clock';
import { type SetTimer, unrefTimer } from '../core/scheduler';
import { ObsConnection, type ObsTarget } from '../obs/obs-connection';
import type { ObsEvents, ObsEventType, ObsLinkFactory, ObsRequests, ObsRequestType } from '../obs/obs-link';
import { ObsMonitor } from '../obs/obs-monitor';
import type { ObsPort } from '../obs/obs-port';
import { StreamWarnings } from '../obs/stream-warnings';
import { createViewPush } from '../overlays/view-push';
import { SECRET_KEYS, type SecretStore } from '../secrets/secret-store';
import type { SettingsStore } from './settings';

/** What the actions and "Set up OBS for Kick" use of OBS (documented above). */
export interface ObsApi {
  call<T extends ObsRequestType>(
    type: T,
    ...data: ObsRequests[T]['in'] extends undefined ? [] : [ObsRequests[T]['in']]
  ): Promise<ObsRequests[T]['out']>;
  onEvent<E extends ObsEventType>(type: E, listener: (data: ObsEvents[E]) => void): () => void;
  state(): ObsConnectionState;
  onState(listener: (state: ObsConnectionState) => void): () => void;
  currentScene(): string | null;
  scenesChanged(): void;
}

/** "Set up OBS for Kick" (electron/obs/obs-setup.ts), given the API; absent, the button says OBS is not ready. */
export type ObsSetupForKick = (
  api: ObsApi,
  input: { sceneName: string; overlays: string[] },
) => Promise<ObsSetupResult>;

export interface AppObsDeps {
  settings: SettingsStore;
  secretStore: SecretStore;
  /** A fresh link per session (the real one on obs-websocket-js; a fake in tests). */
  linkFactory: ObsLinkFactory;
  clock: Clock;
  /** Timers for the retries, the polls and the pushes; unref'd Node timers by default. */
  setTimer?: SetTimer;
  random?: () => number;
  log: (line: string) => void;
  /** Kick's side of the warnings: main's live status as Kick confirmed it, or null while unknown (signed out). */
  kickLive: () => { live: boolean } | null;
  /** Hears each change of Kick's live status. */
  onKickLiveChange: (listener: () => void) => () => void;
  /** Health, for how late Kick's events arrive now. */
  health: () => Pick<HealthView, 'lag'>;
  /** `obs:changed`. */
  push: (view: ObsView) => void;
  setupForKick?: ObsSetupForKick;
}

export interface AppObs extends ObsPort {
  /** Reads the saved password and connects when a connection is saved; never awaited by the app's start. */
  start(): void;
  stop(): Promise<void>;
  hasPassword(): boolean;
  api: ObsApi;
}

/**
 * The contract allows `:` in a host for IPv6 addresses; only main can tell an address from a host with a port
 * stuck on (`127.0.0.1:4455`), which would connect nowhere.
 */
function hostProblem(host: string): string | null {
  const bare = host.trim().replace(/^\[(.*)\]$/, '$1');
  if (host.includes(':') && !isIPv6(bare)) {
    return 'host: enter the address alone, such as 127.0.0.1, and the port in its own field';
  }
  if ((host.includes('[') || host.includes(']')) && !isIPv6(bare)) {
    return 'host: brackets go only around an IPv6 address, such as [::1]';
  }
  return null;
}

export function createAppObs(deps: AppObsDeps): AppObs {
  const { settings, secretStore, clock, log } = deps;
  const setTimer = deps.setTimer ?? unrefTimer;
  let password: string | null = null;
  /** Saves made so far: the password read at start must not undo one made meanwhile. */
  let saves = 0;
  let started = false;
  let stopped = false;

  const connection = new ObsConnection({
    linkFactory: deps.linkFactory,
    now: () => clock.now(),
    setTimer,
    random: deps.random ?? Math.random,
    log,
  });
  const warnings = new StreamWarnings(log);
  let shownWarnings: StreamWarningView[] = [];

  const view = (): ObsView => {
    const state = connection.state();
    return {
      connection: state,
      stats: monitor.stats(),
      scenes: state.kind === 'connected' ? monitor.scenes() : null,
      warnings: shownWarnings,
      browserSource: monitor.browserSource(),
    };
  };
  const viewPush = createViewPush({ read: view, push: deps.push, setTimer });

  /** Judges the warnings now; a change in them is pushed with the rest. */
  const judge = (): void => {
    const lag = deps.health().lag;
    shownWarnings = warnings.update({
      now: clock.now(),
      connected: connection.state().kind === 'connected',
      stats: monitor.stats(),
      kick: deps.kickLive(),
      kickDelayMs: lag.state === 'delayed' ? lag.delayMs : null,
    });
  };

  const monitor = new ObsMonitor({
    connection,
    now: () => clock.now(),
    setTimer,
    log,
    onChange: () => {
      judge();
      viewPush.changed();
    },
  });

  const unsubscribe = [
    // A state change goes out at once, whatever the push interval: "OBS not reachable" must not wait.
    connection.onState(() => {
      judge();
      viewPush.flush();
    }),
    deps.onKickLiveChange(() => {
      judge();
      viewPush.changed();
    }),
  ];

  const target = (): ObsTarget | null => {
    const saved = settings.values().obs;
    return saved.enabled ? { host: saved.host, port: saved.port, password } : null;
  };

  const api: ObsApi = {
    call: (type, ...data) => connection.call(type, ...data),
    onEvent: (type, listener) => connection.onEvent(type, listener),
    state: () => connection.state(),
    onState: (listener) => connection.onState(listener),
    currentScene: () => monitor.currentScene(),
    scenesChanged: () => monitor.scenesSoon(),
  };

  return {
    api,
    hasPassword: () => password !== null,
    start() {
      if (started || stopped) {
        return;
      }
      started = true;
      const savesBefore = saves;
      void secretStore.get(SECRET_KEYS.obsPassword).then(
        (saved) => {
          // A save while the store was read has the newer password, and has connected with it already.
          if (saves === savesBefore && !stopped) {
            password = saved;
            connection.configure(target());
          }
        },
        (error: unknown) => {
          // Without the password OBS refuses it, and the state says so; the streamer can save it again.
          log(`obs: could not read the saved OBS password: ${error instanceof Error ? error.message : String(error)}`);
          if (saves === savesBefore && !stopped) {
            connection.configure(target());
          }
        },
      );
    },
    async stop() {
      stopped = true;
      unsubscribe.forEach((off) => off());
      monitor.stop();
      viewPush.stop();
      await connection.stop();
    },
    view,
    async saveConnection(input: ObsConnectionSave) {
      const problem = hostProblem(input.host);
      if (problem) {
        throw new AppError('InvalidArgument', problem, {
          details: fieldDetails([{ field: 'host', reason: problem.replace(/^host: /, '') }]),
        });
      }
      saves++;
      const before = password;
      // The secret first: a store that cannot encrypt leaves the saved connection as it was.
      if (input.password !== undefined && input.password !== before) {
        if (input.password === '') {
          await secretStore.delete(SECRET_KEYS.obsPassword);
        } else {
          await secretStore.set(SECRET_KEYS.obsPassword, input.password);
        }
        password = input.password === '' ? null : input.password;
      }
      try {
        settings.setObs({ enabled: input.enabled, host: input.host, port: input.port });
      } catch (error) {
        // The settings file refused the write: the password goes back to what it was, so both still agree.
        if (password !== before) {
          password = before;
          await (
            before === null
              ? secretStore.delete(SECRET_KEYS.obsPassword)
              : secretStore.set(SECRET_KEYS.obsPassword, before)
          ).catch(() => undefined);
        }
        throw error;
      }
      connection.configure(target());
      return view();
    },
    async setScene(sceneName) {
      await connection.call('SetCurrentProgramScene', { sceneName });
      monitor.scenesSoon();
    },
    async setSourceVisible({ sceneName, sceneItemId, enabled }) {
      await connection.call('SetSceneItemEnabled', { sceneName, sceneItemId, sceneItemEnabled: enabled });
    },
    async output({ output, action }) {
      const type =
        output === 'stream'
          ? action === 'start'
            ? 'StartStream'
            : 'StopStream'
          : action === 'start'
            ? 'StartRecord'
            : 'StopRecord';
      await connection.call(type);
      monitor.pollSoon();
    },
    setupForKick(input) {
      // "Set up OBS for Kick" plugs in through `deps.setupForKick` (electron/obs/obs-setup.ts).
      if (!deps.setupForKick) {
        return Promise.reject(new AppError('NotConfigured', 'Set up OBS for Kick is not available in this build'));
      }
      if (connection.state().kind !== 'connected') {
        return Promise.reject(
          connection.state().kind === 'wrong-password'
            ? new AppError('ObsWrongPassword', 'OBS refused the saved password')
            : new AppError('ObsNotConnected', 'OBS is not connected'),
        );
      }
      return deps.setupForKick(api, input);
    },
  };
}
