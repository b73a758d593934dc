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
import type { SetTimer, Timer } from '../core/scheduler';
import type { KickEvent } from '../webhooks/events/types';
import type { ObsActionsSettings, RewardAction } from '../../shared/obs-actions';
import { ObsLinkError, ObsRequestError, type ObsLink } from './obs-link';

/** What the actions need of the OBS connection (electron/app/app-obs.ts gives the live one). */
export interface ObsCaller {
  call: ObsLink['call'];
  /** False while there is no session: an action then fails at once, without a request. */
  connected(): boolean;
  /** Calls back each time the connection reaches connected (to carry out what was owed); returns an unsubscribe. */
  onConnected?(listener: () => void): () => void;
}

export interface ObsActionsDeps {
  obs: ObsCaller;
  actions: () => ObsActionsSettings;
  setTimer: SetTimer;
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
/**
 * After a live/offline switch, how long further status changes wait; the last one then wins, so a flapping
 * status switches scenes at most once per this time ([OBS actions on events](../../docs/obs.md#obs-actions-on-events)).
 */
export const LIVE_SETTLE_MS = 3000;
/** Failures that mean OBS was away: what was owed (a hide, a switch back) is done when it is connected again. */
const OWED_ON = new Set(['not-connected', 'timeout']);

/** Why an action did not happen: `key` says once per cause, `words` finish "could not … — ". */
class ActionFailure extends Error {
  readonly key: string;
  constructor(key: string, words: string) {
    super(words);
    this.key = key;
  }
}

const quoted = (name: string): string => `“${name}”`;

/** A source shown in a scene, as OBS knows it. */
interface ShownItem {
  sceneName: string;
  sceneItemId: number;
  source: string;
}

/** One showing of a reward's source: `item` once OBS has shown it, `timer` its one hide timer. */
interface Showing {
  source: string;
  seconds: number;
  item: ShownItem | null;
  timer: Timer | null;
}

/** Runs the streamer's OBS actions as events come. */
export class ObsActions {
  readonly #deps: ObsActionsDeps;
  readonly #timeoutMs: number;
  readonly #seen = new Set<string>();
  /** Causes already said; cleared for a target when an action on it works. */
  readonly #said = new Map<string, string[]>();
  readonly #running = new Set<Promise<void>>();
  /** The ad break's way back: the scene to return to and the timer. */
  #adBreak: { from: string; to: string; timer: Timer } | null = null;
  /**
   * One showing per scene and source, recorded before the first request so redemptions arriving together
   * join it: each later one only restarts its one hide timer (null while the show is still on its way).
   */
  readonly #shown = new Map<string, Showing>();
  /** Hides that failed while OBS was away, by the same key: done when OBS is connected again. */
  readonly #owedHides = new Map<string, ShownItem>();
  /** An ad break's switch on its way (before OBS answered): breaks started meanwhile join it. */
  #adBreakSwitching: { seconds: number } | null = null;
  /** The ad break's switch back, when it failed while OBS was away. */
  #owedBack: { from: string; to: string } | null = null;
  /** Live status: the last one acted on, the latest heard, and the settle timer after acting. */
  #liveActed: boolean | null = null;
  #liveWanted: boolean | null = null;
  #liveSettle: Timer | null = null;
  readonly #unsubscribe: () => void;
  #stopped = false;

  constructor(deps: ObsActionsDeps) {
    this.#deps = deps;
    this.#timeoutMs = deps.timeoutMs ?? ACTION_TIMEOUT_MS;
    this.#unsubscribe = deps.obs.onConnected?.(() => this.#reconnected()) ?? (() => undefined);
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
      this.#liveWanted = event.payload.is_live;
      if (this.#liveSettle === null) {
        this.#liveChanged();
      }
      // Otherwise a switch was made moments ago: the settle timer acts on the latest status when it ends.
    }
  }

  /** Acts on the latest live status if it differs from the last one acted on, then settles for a while. */
  #liveChanged(): void {
    const isLive = this.#liveWanted;
    if (isLive === null || isLive === this.#liveActed || this.#stopped) {
      return;
    }
    this.#liveActed = isLive;
    this.#liveSettle = this.#deps.setTimer(() => {
      this.#liveSettle = null;
      this.#liveChanged();
    }, LIVE_SETTLE_MS);
    const action = this.#deps.actions()[isLive ? 'goLive' : 'goOffline'];
    if (action.enabled && action.scene) {
      const scene = action.scene;
      const why = isLive ? 'going live' : 'going offline';
      this.#run([scene], `switch to ${quoted(scene)}`, async () => {
        await this.#setScene(scene);
        return `OBS: switched to ${scene} for ${why}`;
      });
    }
  }

  /** An incoming raid (electron/app/app-raids.ts, once per raid): switch to the raid scene, if one is set. */
  raided(username: string): void {
    const action = this.#deps.actions().raid;
    if (this.#stopped || !action.enabled || !action.scene) {
      return;
    }
    const scene = action.scene;
    this.#run([scene], `switch to ${quoted(scene)} for the raid`, async () => {
      await this.#setScene(scene);
      return `OBS: switched to ${scene} for ${username}'s raid`;
    });
  }

  /** Kick accepted an ad break Greenroom ran (Kick sends no event for ad breaks). */
  adBreakStarted(seconds: number): void {
    const action = this.#deps.actions().adBreak;
    if (!action.enabled || !action.scene) {
      return;
    }
    if (this.#adBreakSwitching) {
      // Breaks started together make one switch: the break's length is the latest one's.
      this.#adBreakSwitching.seconds = seconds;
      return;
    }
    const switching = { seconds };
    this.#adBreakSwitching = switching;
    const scene = action.scene;
    const done = () => {
      if (this.#adBreakSwitching === switching) {
        this.#adBreakSwitching = null;
      }
    };
    this.#run(
      [scene],
      `switch to ${quoted(scene)} for the ad break`,
      async () => {
        const running = this.#adBreak;
        // A break whose way back is still owed returns, in the end, to where that one came from.
        const owed = this.#owedBack;
        const from = running ? running.from : owed ? owed.from : await this.#currentScene();
        if (running) {
          running.timer?.cancel();
          this.#adBreak = null;
        }
        if (from === scene) {
          done();
          return `OBS: already on ${scene} for the ad break`;
        }
        await this.#setScene(scene);
        this.#owedBack = null;
        done();
        const timer = this.#deps.setTimer(() => this.#adBreakEnded(), switching.seconds * 1000);
        this.#adBreak = { from, to: scene, timer };
        return `OBS: switched to ${scene} for the ad break`;
      },
      done,
    );
  }

  /** Resolves once every action under way has finished (tests, and stopping). */
  async settled(): Promise<void> {
    while (this.#running.size > 0) {
      await Promise.allSettled([...this.#running]);
    }
  }

  stop(): void {
    this.#stopped = true;
    this.#unsubscribe();
    if (this.#adBreak) {
      this.#adBreak.timer?.cancel();
      this.#adBreak = null;
    }
    for (const shown of this.#shown.values()) {
      shown.timer?.cancel();
    }
    this.#shown.clear();
    this.#owedHides.clear();
    this.#owedBack = null;
    this.#adBreakSwitching = null;
    this.#liveSettle?.cancel();
    this.#liveSettle = null;
  }

  #adBreakEnded(): void {
    const back = this.#adBreak;
    this.#adBreak = null;
    if (back) {
      this.#switchBack({ from: back.from, to: back.to }, false);
    }
  }

  /** Back to the scene before the break, only if OBS is still on the ad scene; owed if OBS is away. */
  #switchBack(back: { from: string; to: string }, late: boolean): void {
    const after = late ? 'after the ad break, now that OBS is back' : 'after the ad break';
    this.#run(
      [back.from],
      `switch back to ${quoted(back.from)} after the ad break`,
      async () => {
        const now = await this.#currentScene();
        if (now !== back.to) {
          // The streamer moved on during the break (or while OBS was away): their choice stands.
          return `OBS: stayed on ${now} ${after} (you switched away from ${back.to})`;
        }
        await this.#setScene(back.from);
        return `OBS: back to ${back.from} ${after}`;
      },
      (failure) => {
        // A new break since then has its own way back.
        if (OWED_ON.has(failure.key) && !this.#adBreak) {
          this.#owedBack = back;
        }
      },
    );
  }

  /** OBS is connected again: carry out the hides and the switch back it missed while it was away. */
  #reconnected(): void {
    if (this.#stopped) {
      return;
    }
    const back = this.#owedBack;
    this.#owedBack = null;
    if (back) {
      this.#switchBack(back, true);
    }
    const owed = [...this.#owedHides];
    this.#owedHides.clear();
    for (const [key, item] of owed) {
      // A redemption since then shows it again, and its own timer hides it.
      if (!this.#shown.has(key)) {
        this.#hideItem(key, item, true);
      }
    }
  }

  /**
   * A redemption while the source is still shown (or on its way) joins that showing: no request, no line,
   * only its one hide timer restarts, so it hides `seconds` after the latest redemption
   * ([OBS actions on events](../../docs/obs.md#obs-actions-on-events)).
   */
  #redeemed(rewardId: string): void {
    const action = this.#deps.actions().rewards.find((a) => a.enabled && a.rewardId === rewardId);
    if (!action || this.#stopped) {
      return;
    }
    // Keyed before any request; an action with no scene shows it in whichever scene is on air.
    const key = `${action.scene ?? ''}\u0000${action.source}`;
    const earlier = this.#shown.get(key);
    if (earlier) {
      earlier.seconds = action.seconds;
      if (earlier.timer !== null) {
        this.#hideIn(key, earlier);
      }
      return;
    }
    const showing: Showing = { source: action.source, seconds: action.seconds, item: null, timer: null };
    this.#shown.set(key, showing);
    const targets = [action.source, ...(action.scene ? [action.scene] : [])];
    this.#run(
      targets,
      `show ${action.source}`,
      async () => {
        const sceneName = action.scene ?? (await this.#currentScene());
        const sceneItemId = await this.#sceneItemId(sceneName, action.source);
        await this.#call('SetSceneItemEnabled', { sceneName, sceneItemId, sceneItemEnabled: true });
        showing.item = { sceneName, sceneItemId, source: action.source };
        this.#owedHides.delete(key);
        if (this.#shown.get(key) === showing && !this.#stopped) {
          this.#hideIn(key, showing);
        }
        return `OBS: showing ${action.source} for ${action.seconds} s for ${rewardName(action)}`;
      },
      () => {
        if (this.#shown.get(key) === showing) {
          this.#shown.delete(key);
        }
      },
    );
  }

  /** (Re)starts the showing's one hide timer. */
  #hideIn(key: string, showing: Showing): void {
    showing.timer?.cancel();
    showing.timer = this.#deps.setTimer(() => {
      if (this.#shown.get(key) === showing) {
        this.#shown.delete(key);
        if (showing.item) {
          this.#hideItem(key, showing.item, false);
        }
      }
    }, showing.seconds * 1000);
  }

  /** Hides a shown source; if OBS is away, the hide is owed until it is connected again. */
  #hideItem(key: string, item: ShownItem, late: boolean): void {
    const { sceneName, sceneItemId, source } = item;
    this.#run(
      [source, sceneName],
      `hide ${source} again`,
      async () => {
        await this.#call('SetSceneItemEnabled', { sceneName, sceneItemId, sceneItemEnabled: false });
        return late ? `OBS: hid ${source}, now that OBS is back` : null;
      },
      (failure) => {
        if (OWED_ON.has(failure.key) && !this.#shown.has(key)) {
          this.#owedHides.set(key, item);
        }
      },
    );
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
  #run(
    targets: string[],
    what: string,
    action: () => Promise<string | null>,
    onFailure?: (failure: ActionFailure) => void,
  ): void {
    if (this.#stopped) {
      return;
    }
    const run = this.#bounded(action)
      .then(
        (line) => {
          this.#clearSaid(targets);
          if (line) {
            this.#deps.report(line);
          }
        },
        (error: unknown) => {
          const failure = asFailure(error);
          onFailure?.(failure);
          this.#failed(targets, what, failure, error);
        },
      )
      .catch((error: unknown) => this.#deps.log(`obs-actions: could not say how it went: ${String(error)}`))
      .finally(() => this.#running.delete(run));
    this.#running.add(run);
  }

  #bounded<T>(action: () => Promise<T>): Promise<T> {
    if (!this.#deps.obs.connected()) {
      return Promise.reject(new ActionFailure('not-connected', 'OBS is not connected'));
    }
    let timer: Timer | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = this.#deps.setTimer(
        () => reject(new ActionFailure('timeout', `OBS did not answer within ${this.#timeoutMs / 1000} s`)),
        this.#timeoutMs,
      );
    });
    return Promise.race([action(), timeout]).finally(() => timer?.cancel());
  }

  #failed(targets: string[], what: string, failure: ActionFailure, error: unknown): void {
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
