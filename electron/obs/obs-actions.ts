/**
 * OBS actions on events ([OBS actions on events](../../docs/obs.md#obs-actions-on-events)): an ad break
 * Greenroom ran switches OBS to a scene and back, a chosen reward shows a source for some seconds, the stream
 * going live or offline switches scene. Plain logic: OBS, the timers and the settings are injected.
 *
 * Nothing on the event path waits for OBS: each action runs beside it, bounded by a timeout, and its outcome
 * is one line in the activity feed. A failure is said once per cause (OBS not connected, a scene that is not
 * there), not once per event, until an action on the same thing works again.
 */
import { isAppError } from '../../shared/errors';
import type { KickEvent } from '../webhooks/types';
import type { ObsActionsSettings, RewardAction } from '../../shared/obs-actions';
import { ObsLinkError, ObsRequestError, type ObsLink } from './obs-link';

/** What the actions need of the OBS connection (electron/app/app-obs.ts gives the live one). */
export interface ObsCaller {
  call: ObsLink['call'];
  /** False while there is no session: an action then fails at once, without a request. */
  connected(): boolean;
}

export interface ActionScheduler {
  setTimer(callback: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export interface ObsActionsDeps {
  obs: ObsCaller;
  actions: () => ObsActionsSettings;
  scheduler: ActionScheduler;
  /** One line in the activity feed, in the streamer's words ("OBS: switched to Ads for the ad break"). */
  report: (line: string) => void;
  log: (line: string) => void;
  /** How long one action may wait for OBS before it counts as failed. */
  timeoutMs?: number;
}

export const ACTION_TIMEOUT_MS = 5000;
/** Redemption ids remembered, so a redemption's later status update never fires its action again. */
const SEEN_REDEMPTIONS_MAX = 10_000;
/** obs-websocket's ResourceNotFound: the scene or source named is not in OBS. */
const NOT_FOUND = 600;

/** Why an action did not happen: `key` says once per cause, `words` finish "could not … — ". */
class ActionFailure extends Error {
  readonly key: string;
  constructor(key: string, words: string) {
    super(words);
    this.key = key;
  }
}

const quoted = (name: string): string => `“${name}”`;

/** Runs the streamer's OBS actions as events come. */
export class ObsActions {
  readonly #deps: ObsActionsDeps;
  readonly #timeoutMs: number;
  readonly #seen = new Set<string>();
  /** Causes already said; cleared for a target when an action on it works. */
  readonly #said = new Map<string, string[]>();
  readonly #running = new Set<Promise<void>>();
  /** The ad break's way back: the scene to return to and the timer. */
  #adBreak: { from: string; to: string; timer: unknown } | null = null;
  /** Sources shown for a reward, by scene and source, with the timer that hides each. */
  readonly #shown = new Map<string, { sceneName: string; sceneItemId: number; source: string; timer: unknown }>();
  #stopped = false;

  constructor(deps: ObsActionsDeps) {
    this.#deps = deps;
    this.#timeoutMs = deps.timeoutMs ?? ACTION_TIMEOUT_MS;
  }

  /**
   * A Kick event: `live` false for the journal's replay at start, which only marks redemptions as seen (a
   * redemption from before the restart is not news, nor is its later status update).
   */
  onEvent(event: KickEvent, live: boolean): void {
    if (event.kind !== 'known') {
      return;
    }
    if (event.type === 'channel.reward.redemption.updated') {
      const firstSight = this.#firstSight(event.payload.id);
      if (live && firstSight && event.payload.status !== 'rejected') {
        this.#redeemed(event.payload.reward.id);
      }
    } else if (event.type === 'livestream.status.updated' && live) {
      const key = event.payload.is_live ? 'goLive' : 'goOffline';
      const action = this.#deps.actions()[key];
      if (action.enabled && action.scene) {
        const scene = action.scene;
        const why = event.payload.is_live ? 'going live' : 'going offline';
        this.#run([scene], `switch to ${quoted(scene)}`, async () => {
          await this.#setScene(scene);
          return `OBS: switched to ${scene} for ${why}`;
        });
      }
    }
  }

  /** Kick accepted an ad break Greenroom ran (Kick sends no event for ad breaks). */
  adBreakStarted(seconds: number): void {
    const action = this.#deps.actions().adBreak;
    if (!action.enabled || !action.scene) {
      return;
    }
    const scene = action.scene;
    this.#run([scene], `switch to ${quoted(scene)} for the ad break`, async () => {
      const running = this.#adBreak;
      const from = running ? running.from : await this.#currentScene();
      if (running) {
        this.#deps.scheduler.clearTimer(running.timer);
        this.#adBreak = null;
      }
      if (from === scene) {
        return `OBS: already on ${scene} for the ad break`;
      }
      await this.#setScene(scene);
      const timer = this.#deps.scheduler.setTimer(() => this.#adBreakEnded(), seconds * 1000);
      this.#adBreak = { from, to: scene, timer };
      return `OBS: switched to ${scene} for the ad break`;
    });
  }

  /** Resolves once every action under way has finished (tests, and stopping). */
  async settled(): Promise<void> {
    while (this.#running.size > 0) {
      await Promise.allSettled([...this.#running]);
    }
  }

  stop(): void {
    this.#stopped = true;
    if (this.#adBreak) {
      this.#deps.scheduler.clearTimer(this.#adBreak.timer);
      this.#adBreak = null;
    }
    for (const shown of this.#shown.values()) {
      this.#deps.scheduler.clearTimer(shown.timer);
    }
    this.#shown.clear();
  }

  #adBreakEnded(): void {
    const back = this.#adBreak;
    this.#adBreak = null;
    if (!back) {
      return;
    }
    this.#run([back.from], `switch back to ${quoted(back.from)} after the ad break`, async () => {
      const now = await this.#currentScene();
      if (now !== back.to) {
        // The streamer moved on during the break: their choice stands.
        return `OBS: stayed on ${now} after the ad break (you switched away from ${back.to})`;
      }
      await this.#setScene(back.from);
      return `OBS: back to ${back.from} after the ad break`;
    });
  }

  /**
   * A second redemption while the source is still shown restarts its time: it hides `seconds` after the
   * latest one ([OBS actions on events](../../docs/obs.md#obs-actions-on-events)).
   */
  #redeemed(rewardId: string): void {
    const action = this.#deps.actions().rewards.find((a) => a.enabled && a.rewardId === rewardId);
    if (!action) {
      return;
    }
    const targets = [action.source, ...(action.scene ? [action.scene] : [])];
    this.#run(targets, `show ${action.source}`, async () => {
      const sceneName = action.scene ?? (await this.#currentScene());
      const key = `${sceneName}\u0000${action.source}`;
      const earlier = this.#shown.get(key);
      const sceneItemId = earlier?.sceneItemId ?? (await this.#sceneItemId(sceneName, action.source));
      await this.#call('SetSceneItemEnabled', { sceneName, sceneItemId, sceneItemEnabled: true });
      if (earlier) {
        this.#deps.scheduler.clearTimer(earlier.timer);
      }
      const timer = this.#deps.scheduler.setTimer(() => this.#hide(key), action.seconds * 1000);
      this.#shown.set(key, { sceneName, sceneItemId, source: action.source, timer });
      return `OBS: showing ${action.source} for ${action.seconds} s for ${rewardName(action)}${earlier ? ' (again)' : ''}`;
    });
  }

  #hide(key: string): void {
    const shown = this.#shown.get(key);
    this.#shown.delete(key);
    if (!shown) {
      return;
    }
    const { sceneName, sceneItemId, source } = shown;
    this.#run([source, sceneName], `hide ${source} again`, async () => {
      await this.#call('SetSceneItemEnabled', { sceneName, sceneItemId, sceneItemEnabled: false });
      return null;
    });
  }

  #firstSight(redemptionId: string): boolean {
    if (this.#seen.has(redemptionId)) {
      return false;
    }
    this.#seen.add(redemptionId);
    if (this.#seen.size > SEEN_REDEMPTIONS_MAX) {
      this.#seen.delete(this.#seen.values().next().value!);
    }
    return true;
  }

  /** Runs one action beside the event path, bounded by the timeout; its outcome goes to the feed. */
  #run(targets: string[], what: string, action: () => Promise<string | null>): void {
    if (this.#stopped) {
      return;
    }
    const run = this.#bounded(action)
      .then((line) => {
        this.#clearSaid(targets);
        if (line) {
          this.#deps.report(line);
        }
      })
      .catch((error: unknown) => this.#failed(targets, what, error))
      .finally(() => this.#running.delete(run));
    this.#running.add(run);
  }

  #bounded<T>(action: () => Promise<T>): Promise<T> {
    if (!this.#deps.obs.connected()) {
      return Promise.reject(new ActionFailure('not-connected', 'OBS is not connected'));
    }
    let timer: unknown;
    const timeout = new Promise<never>((_, reject) => {
      timer = this.#deps.scheduler.setTimer(
        () => reject(new ActionFailure('timeout', `OBS did not answer within ${this.#timeoutMs / 1000} s`)),
        this.#timeoutMs,
      );
    });
    return Promise.race([action(), timeout]).finally(() => this.#deps.scheduler.clearTimer(timer));
  }

  #failed(targets: string[], what: string, error: unknown): void {
    const failure = asFailure(error);
    if (this.#said.has(failure.key)) {
      return;
    }
    this.#said.set(failure.key, targets);
    this.#deps.log(`obs-actions: could not ${what}: ${error instanceof Error ? error.message : String(error)}`);
    this.#deps.report(`OBS: could not ${what} — ${failure.message}`);
  }

  /** An action on these targets worked: causes about OBS itself or about them may be said again. */
  #clearSaid(targets: string[]): void {
    for (const [key, about] of this.#said) {
      if (
        about.length === 0 ||
        key === 'not-connected' ||
        key === 'timeout' ||
        about.some((t) => targets.includes(t))
      ) {
        this.#said.delete(key);
      }
    }
  }

  async #currentScene(): Promise<string> {
    return (await this.#call('GetCurrentProgramScene')).currentProgramSceneName;
  }

  async #setScene(sceneName: string): Promise<void> {
    try {
      await this.#call('SetCurrentProgramScene', { sceneName });
    } catch (error) {
      throw notFound(error, `missing-scene:${sceneName}`, `there is no scene ${quoted(sceneName)} in OBS`);
    }
  }

  async #sceneItemId(sceneName: string, sourceName: string): Promise<number> {
    try {
      return (await this.#call('GetSceneItemId', { sceneName, sourceName })).sceneItemId;
    } catch (error) {
      throw notFound(
        error,
        `missing-source:${sceneName}\u0000${sourceName}`,
        `there is no source ${quoted(sourceName)} in the scene ${quoted(sceneName)}`,
      );
    }
  }

  #call: ObsLink['call'] = (type, ...data) => this.#deps.obs.call(type, ...data);
}

function rewardName(action: RewardAction): string {
  return action.rewardTitle ? quoted(action.rewardTitle) : 'a reward';
}

/** OBS's request status code, from the link's error or the connection's AppError (`details.obsCode`). */
function obsCode(error: unknown): number | null {
  if (error instanceof ObsRequestError) {
    return error.code;
  }
  const code = isAppError(error) && error.code === 'ObsRequestFailed' ? error.details?.obsCode : undefined;
  return typeof code === 'number' ? code : null;
}

function notFound(error: unknown, key: string, words: string): unknown {
  return obsCode(error) === NOT_FOUND ? new ActionFailure(key, words) : error;
}

function asFailure(error: unknown): ActionFailure {
  if (error instanceof ActionFailure) {
    return error;
  }
  if (
    error instanceof ObsLinkError ||
    (isAppError(error) && (error.code === 'ObsNotConnected' || error.code === 'ObsWrongPassword'))
  ) {
    return new ActionFailure('not-connected', 'OBS is not connected');
  }
  const code = obsCode(error);
  if (code !== null) {
    const message = error instanceof Error ? error.message : String(error);
    return new ActionFailure(`refused:${code}:${message}`, `OBS refused it (${message})`);
  }
  return new ActionFailure(`error:${String(error)}`, 'something went wrong; see the details in the log');
}
