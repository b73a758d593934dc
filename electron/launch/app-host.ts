/**
 * The running app behind a router and an event source that outlive it, so settings the app is built from
 * (credentials, redirect URL, tunnel, wanted events) apply without restarting Greenroom: on every settings
 * change the configuration is resolved again, and when restart-plan.ts says the app must be rebuilt, the old
 * app is stopped and a new one built and started in this process. Both transports (the panel server and
 * Electron IPC) keep talking to the host, so open panels stay connected; they get `app:restarted` and reload.
 *
 * When the new app cannot start, the previous configuration is started again and the panel says why, with
 * "Restart now" (`app:restart`) to try once more. Changes are applied one at a time, in order; requests that
 * arrive while an app is being swapped wait for the new one rather than reach a stopped one.
 */
import type { ErrorValue, Result } from '../../shared/errors';
import type { EventChannel, EventPayloads } from '../../shared/ipc-contract';
import type { NotAppliedView } from '../../shared/views';
import type { AppEvents } from '../core/app-events';
import type { AppConfig } from '../app/config';
import type { GreenroomApp } from '../app/create-app';
import type { Router } from '../ipc/router';
import { redactText } from '../secrets/redact';
import { describeApplied, planRestart } from './restart-plan';

export interface AppHostDeps {
  /** The configuration as the settings and the secret store say now. */
  resolveConfig(): Promise<AppConfig>;
  /** Builds an app from a configuration (createApp with this launch's adapters); the host starts it. */
  build(config: AppConfig): Promise<GreenroomApp>;
  /** Called on every settings change (the settings store's `onChange`); returns the unsubscribe. */
  onSettingsChange(listener: () => void): () => void;
  log: (line: string) => void;
}

export interface AppHost {
  /** The app serving now: a different object after each rebuild. */
  readonly app: GreenroomApp;
  /** Both transports' router: always the serving app's. */
  readonly router: Router;
  /** The serving app's events (listeners move to each new app), plus `app:restarted`. */
  readonly events: AppEvents;
  /** Why the saved settings are not in effect, or null. */
  notApplied(): NotAppliedView | null;
  /** Starts the first app, then follows settings changes. */
  start(): Promise<void>;
  /** Applies the settings as saved now; `force` rebuilds even when nothing changed ("Restart now"). */
  apply(options?: { force?: boolean }): Promise<void>;
  /** Stops following settings and stops the serving app. */
  stop(): Promise<void>;
}

/**
 * What a stopped app can still answer (its handlers only read and write the settings), so that with nothing
 * running the panel still loads, shows why, and can change the settings or press Restart now.
 */
const ANSWERED_WHILE_DOWN: ReadonlySet<string> = new Set([
  'app:snapshot',
  'app:restart',
  'settings:get',
  'settings:update',
  'settings:set-credentials',
  'health:snapshot',
]);

interface Subscription {
  event: EventChannel;
  listener: (payload: never) => void;
  off: () => void;
}

/** Resolves the configuration and builds the first app (not started yet: see `start()`). */
export async function createAppHost(deps: AppHostDeps): Promise<AppHost> {
  const { log } = deps;
  let current = await deps.build(await deps.resolveConfig());
  let notApplied: NotAppliedView | null = null;
  /** Both the new and the previous configuration failed: nothing serves until a restart works. */
  let down: ErrorValue | null = null;
  /** Set while one app is stopped and the next is starting. Never rejects. */
  let swapping: Promise<void> | null = null;
  let queue: Promise<void> = Promise.resolve();
  let stopped = false;
  let unsubscribe: (() => void) | null = null;
  const subscriptions = new Set<Subscription>();

  const emit = <E extends EventChannel>(event: E, payload: EventPayloads[E]): void => {
    for (const sub of [...subscriptions]) {
      if (sub.event !== event) {
        continue;
      }
      try {
        (sub.listener as (p: EventPayloads[E]) => void)(payload);
      } catch (error) {
        log(`app host: an ${event} listener failed: ${messageOf(error)}`);
      }
    }
  };

  const install = (app: GreenroomApp): void => {
    current = app;
    for (const sub of subscriptions) {
      sub.off();
      sub.off = app.events.on(sub.event, sub.listener as (payload: unknown) => void);
    }
  };

  const startApp = async (config: AppConfig): Promise<GreenroomApp> => {
    const app = await deps.build(config);
    try {
      await app.start();
    } catch (error) {
      await app.stop().catch((stopError: unknown) => log(`app host: stopping a failed app: ${messageOf(stopError)}`));
      throw error;
    }
    return app;
  };

  /** Stops the serving app and starts one on `next`; on failure, the previous configuration again. */
  const swap = async (next: AppConfig, plan: ReturnType<typeof planRestart>): Promise<void> => {
    const previous = current;
    await previous.stop().catch((error: unknown) => log(`app host: stopping the app failed: ${messageOf(error)}`));
    try {
      install(await startApp(next));
      notApplied = null;
      down = null;
      log(`app host: rebuilt the app for ${plan.changes.join(', ') || 'a restart'}`);
      const signedIn = current.snapshot().account.signedIn;
      emit('app:restarted', { message: describeApplied(plan, { mode: next.mode, signedIn }) });
      return;
    } catch (error) {
      log(`app host: the new settings did not start: ${messageOf(error)}`);
      notApplied = {
        reason: `Greenroom could not switch to ${plan.changes.join(', ') || 'the saved settings'}, so it is still running with the previous settings. Check them, or try again with Restart now.`,
        details: messageOf(error),
      };
    }
    try {
      install(await startApp(previous.config));
      down = null;
    } catch (error) {
      log(`app host: the previous settings did not start either: ${messageOf(error)}`);
      notApplied = {
        reason: `Greenroom could not start with ${plan.changes.join(', ') || 'the saved settings'}, nor with the previous settings. Change them here, or try again with Restart now.`,
        details: `${notApplied.details}; then: ${messageOf(error)}`,
      };
      down = {
        code: 'Internal',
        message:
          'Greenroom is stopped: neither the new settings nor the previous ones would start. Change them in Settings, or use Restart now there.',
      };
    }
    emit('app:restarted', { message: notApplied.reason });
  };

  const applyOnce = async (force: boolean): Promise<void> => {
    if (stopped) {
      return;
    }
    let next: AppConfig;
    try {
      next = await deps.resolveConfig();
    } catch (error) {
      // The settings store validates every field, so this is the environment; the app that runs keeps running.
      log(`app host: the settings could not be resolved: ${messageOf(error)}`);
      notApplied = { reason: 'Greenroom could not use the saved settings.', details: messageOf(error) };
      emit('settings:changed', current.snapshot().settings);
      return;
    }
    const plan = planRestart(current.config, next);
    if (plan.changes.length === 0 && !force && down === null) {
      if (notApplied !== null) {
        // The settings are back to what runs: nothing is pending any more.
        notApplied = null;
        emit('settings:changed', current.snapshot().settings);
      }
      return;
    }
    swapping = swap(next, plan);
    try {
      await swapping;
    } finally {
      swapping = null;
    }
  };

  const waitForSwap = async (): Promise<void> => {
    while (swapping) {
      await swapping;
    }
  };

  const router: Router = {
    async invoke(channel: unknown, args: unknown): Promise<Result<unknown>> {
      await waitForSwap();
      if (down !== null && !(typeof channel === 'string' && ANSWERED_WHILE_DOWN.has(channel))) {
        return { ok: false, error: down };
      }
      return current.router.invoke(channel, args);
    },
    send(channel: unknown, args: unknown): void {
      if (swapping) {
        void waitForSwap().then(() => current.router.send(channel, args));
        return;
      }
      current.router.send(channel, args);
    },
  };

  const events: AppEvents = {
    on(event, listener) {
      const sub: Subscription = {
        event,
        listener,
        off: current.events.on(event, listener),
      };
      subscriptions.add(sub);
      return () => {
        sub.off();
        subscriptions.delete(sub);
      };
    },
  };

  const apply = ({ force = false }: { force?: boolean } = {}): Promise<void> => {
    // One at a time, in order; a failed run does not stop the ones queued behind it.
    const run = queue.catch(() => undefined).then(() => applyOnce(force));
    queue = run;
    return run;
  };

  return {
    get app() {
      return current;
    },
    router,
    events,
    notApplied: () => notApplied,
    async start() {
      await current.start();
      unsubscribe = deps.onSettingsChange(() => {
        apply().catch((error: unknown) => log(`app host: applying the settings failed: ${messageOf(error)}`));
      });
    },
    apply,
    async stop() {
      stopped = true;
      unsubscribe?.();
      await queue.catch(() => undefined);
      await current.stop();
    },
  };
}

/** The error's message for the log and the panel's "details", with anything secret-looking redacted. */
function messageOf(error: unknown): string {
  return redactText(error instanceof Error ? error.message : String(error));
}
