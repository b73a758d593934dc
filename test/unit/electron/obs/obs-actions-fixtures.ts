/**
 * The OBS actions against helper A's in-memory OBS (test/helpers/fake-obs.ts), with timers that fire only
 * when a test says so, and the feed and log lines they wrote.
 */
import type { SetTimer } from '../../../../electron/core/scheduler';
import { ObsActions } from '../../../../electron/obs/obs-actions';
import type { ObsLink } from '../../../../electron/obs/obs-link';
import type { KickEvent } from '../../../../electron/webhooks/events/types';
import { obsActionsSettingsSchema, type ObsActionsSettings } from '../../../../shared/obs-actions';
import { FakeObs } from '../../../helpers/fake-obs';

/** Timers by delay, fired by hand (an action's 5 s timeout and its N s show are told apart by their ms). */
export class Timers {
  readonly pending = new Map<number, { callback: () => void; ms: number }>();
  #next = 1;
  readonly setTimer: SetTimer = (callback, ms) => {
    const id = this.#next++;
    this.pending.set(id, { callback, ms });
    return { cancel: () => void this.pending.delete(id) };
  };
  delays(): number[] {
    return [...this.pending.values()].map((t) => t.ms).sort((a, b) => a - b);
  }
  /** Fires every pending timer of `ms`; returns how many fired. */
  fire(ms: number): number {
    const due = [...this.pending].filter(([, t]) => t.ms === ms);
    due.forEach(([id, t]) => {
      this.pending.delete(id);
      t.callback();
    });
    return due.length;
  }
}

let next = 0;
function event(type: string, payload: Record<string, unknown>): KickEvent {
  next += 1;
  return {
    kind: 'known',
    type,
    version: 1,
    messageId: `m${next}`,
    subscriptionId: 's',
    timestamp: '',
    receivedAtMs: 0,
    payload,
  } as unknown as KickEvent;
}

export const redemption = (id: string, rewardId: string, status = 'pending'): KickEvent =>
  event('channel.reward.redemption.updated', {
    id,
    user_input: '',
    status,
    redeemed_at: '',
    redeemer: { username: 'viewer' },
    broadcaster: { username: 'streamer' },
    reward: { id: rewardId, title: 'Confetti!', cost: 100, description: '' },
  });

export const liveStatus = (isLive: boolean): KickEvent =>
  event('livestream.status.updated', {
    broadcaster: { user_id: 1, username: 'streamer' },
    is_live: isLive,
    title: 't',
    started_at: '',
    ended_at: null,
  });

export const SETUP: ObsActionsSettings = obsActionsSettingsSchema.parse({
  adBreak: { enabled: true, scene: 'Ads' },
  rewards: [{ rewardId: 'rw-confetti', rewardTitle: 'Confetti!', source: 'Confetti', scene: 'Main', seconds: 10 }],
  goLive: { enabled: true, scene: 'Starting' },
  goOffline: { enabled: true, scene: 'Ending' },
});

/** The shown flag of each SetSceneItemEnabled request sent to OBS, in order. */
export const shows = (fake: FakeObs): boolean[] =>
  fake.requests
    .filter((r) => r.type === 'SetSceneItemEnabled')
    .map((r) => (r.data as { sceneItemEnabled: boolean }).sceneItemEnabled);

/** OBS with scenes Main (on air, holding a hidden "Confetti"), Ads, Starting, Ending; the actions wired to it. */
export async function actionsSetup(settings: ObsActionsSettings = SETUP) {
  const fake = new FakeObs({ password: null });
  let link: ObsLink = fake.link();
  await link.connect({ url: fake.url, password: null });
  for (const sceneName of ['Main', 'Ads', 'Starting', 'Ending']) {
    await link.call('CreateScene', { sceneName });
  }
  await link.call('CreateInput', {
    sceneName: 'Main',
    inputName: 'Confetti',
    inputKind: 'color_source_v3',
    sceneItemEnabled: false,
  });
  await link.call('SetCurrentProgramScene', { sceneName: 'Main' });
  let connected = true;
  const timers = new Timers();
  const feed: string[] = [];
  const logs: string[] = [];
  let current = settings;
  const onConnected = new Set<() => void>();
  const actions = new ObsActions({
    obs: {
      call: (type, ...data) => link.call(type, ...data),
      connected: () => connected && fake.running,
      onConnected: (listener) => {
        onConnected.add(listener);
        return () => onConnected.delete(listener);
      },
    },
    actions: () => current,
    setTimer: timers.setTimer,
    report: (line) => feed.push(line),
    log: (line) => logs.push(line),
  });
  const program = async () => (await link.call('GetCurrentProgramScene')).currentProgramSceneName;
  const confettiShown = async (sceneName = 'Main') => {
    const { sceneItemId } = await link.call('GetSceneItemId', { sceneName, sourceName: 'Confetti' });
    return (await link.call('GetSceneItemEnabled', { sceneName, sceneItemId })).sceneItemEnabled;
  };
  return {
    fake,
    get link() {
      return link;
    },
    timers,
    feed,
    logs,
    actions,
    program,
    confettiShown,
    /** OBS away or back; back also tells the actions, as the connection's state change does. */
    /** OBS started again after `fake.kill()`, with a new session (the actions and the test read through it). */
    restart: async () => {
      fake.start();
      link = fake.link();
      await link.connect({ url: fake.url, password: null });
    },
    setConnected: (value: boolean) => {
      connected = value;
      if (value) {
        onConnected.forEach((listener) => listener());
      }
    },
    /** Whether the actions still listen for the connection (they stop listening when stopped). */
    listening: () => onConnected.size > 0,
    setSettings: (value: ObsActionsSettings) => (current = value),
  };
}
