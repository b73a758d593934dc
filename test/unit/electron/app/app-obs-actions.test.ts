/**
 * The OBS actions as the app wires them (electron/app/app-obs-actions.ts): the saved actions, OBS through the
 * connection's API (app-obs.ts, with its AppError refusals), and each outcome as an 'app' line in the feed
 * that every panel is sent.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppEvents } from '../../../../electron/core/app-events';
import { createAppObs, type AppObs } from '../../../../electron/app/app-obs';
import { createAppObsActions } from '../../../../electron/app/app-obs-actions';
import { openSettings } from '../../../../electron/app/settings';
import { MemorySecretStore } from '../../../../electron/secrets/secret-store';
import { Feed } from '../../../../electron/services/feed';
import type { EventPayloads } from '../../../../shared/ipc-contract';
import { obsActionsSettingsSchema } from '../../../../shared/obs-actions';
import { FakeObs } from '../../../helpers/fake-obs';
import { ManualScheduler } from '../../../helpers/manual-scheduler';
import { tempDir } from '../../../helpers/temp-dir';
import { flush, PASSWORD } from '../obs/obs-connection-fixtures';
import { redemption, Timers } from '../obs/obs-actions-fixtures';

let running: AppObs | null = null;
afterEach(async () => {
  await running?.stop();
  running = null;
});

async function build(connect: boolean) {
  const fake = new FakeObs();
  const studio = fake.link();
  await studio.connect({ url: fake.url, password: PASSWORD });
  for (const sceneName of ['Main', 'Ads']) {
    await studio.call('CreateScene', { sceneName });
  }
  await studio.call('SetCurrentProgramScene', { sceneName: 'Main' });
  const settings = openSettings(tempDir('greenroom-app-obs-actions-'), { randomBytes });
  settings.update({
    obsActions: obsActionsSettingsSchema.parse({
      adBreak: { enabled: true, scene: 'Ads' },
      rewards: [{ rewardId: 'rw-confetti', rewardTitle: 'Confetti!', source: 'Confetti', scene: 'Main', seconds: 10 }],
    }),
  });
  const logs: string[] = [];
  const scheduler = new ManualScheduler();
  const obs = createAppObs({
    settings,
    secretStore: new MemorySecretStore(),
    linkFactory: fake.link,
    clock: { now: () => 0 },
    setTimer: scheduler.setTimer,
    random: () => 0,
    log: (line) => logs.push(line),
    kickLive: () => null,
    onKickLiveChange: () => () => undefined,
    health: () => ({ lag: { samples: 0, p50Ms: null, p95Ms: null, state: 'unknown', delayMs: null } }),
    push: () => undefined,
  });
  running = obs;
  if (connect) {
    await obs.saveConnection({ enabled: true, host: '127.0.0.1', port: 4455, password: PASSWORD });
    await flush();
    await flush();
    expect(obs.view().connection.kind).toBe('connected');
  }
  const feed = new Feed();
  const timers = new Timers();
  const events = createAppEvents(() => undefined);
  const pushed: EventPayloads['kick:event'][] = [];
  events.on('kick:event', (e) => pushed.push(e));
  const actions = createAppObsActions({
    obs: obs.api,
    settings,
    feed,
    events,
    clock: { now: () => 1_000 },
    log: (line) => logs.push(line),
    setTimer: timers.setTimer,
  });
  const program = async () => (await studio.call('GetCurrentProgramScene')).currentProgramSceneName;
  return { fake, studio, feed, pushed, logs, actions, program, obs, scheduler, timers };
}

describe('the OBS actions in the app', () => {
  it('switches through the connection and tells every panel in one Greenroom line of the feed', async () => {
    const t = await build(true);
    t.actions.adBreakStarted(30);
    await t.actions.settled();
    expect(await t.program()).toBe('Ads');
    expect(t.feed.items()).toEqual([
      expect.objectContaining({ kind: 'app', text: 'OBS: switched to Ads for the ad break', userId: null }),
    ]);
    expect(t.pushed).toEqual([{ kind: 'feed', item: t.feed.items()[0] }]);
  });

  it('says OBS is not connected once, however many redemptions come, while OBS is not set up', async () => {
    const t = await build(false);
    for (let i = 0; i < 3; i++) {
      t.actions.onEvent(redemption(`red-${i}`, 'rw-confetti'), true);
    }
    await t.actions.settled();
    expect(t.feed.items().map((item) => item.text)).toEqual(['OBS: could not show Confetti — OBS is not connected']);
    expect(t.fake.requests.filter((r) => r.type === 'SetSceneItemEnabled')).toEqual([]);
  });

  it('names the source OBS does not have, from the connection’s refusal', async () => {
    const t = await build(true);
    t.actions.onEvent(redemption('red-1', 'rw-confetti'), true);
    await t.actions.settled();
    expect(t.feed.items().map((item) => item.text)).toEqual([
      'OBS: could not show Confetti — there is no source “Confetti” in the scene “Main”',
    ]);
  });

  it('hides a source whose time ran out while OBS was down, once the connection is back by itself', async () => {
    const t = await build(true);
    await t.studio.call('CreateInput', {
      sceneName: 'Main',
      inputName: 'Confetti',
      inputKind: 'color_source_v3',
      sceneItemEnabled: false,
    });
    t.actions.onEvent(redemption('red-1', 'rw-confetti'), true);
    await t.actions.settled();
    t.fake.kill();
    expect(t.obs.view().connection.kind).toBe('unreachable');
    t.timers.fire(10_000);
    await t.actions.settled();
    t.fake.start();
    // The connection's own retry, on its backoff.
    t.scheduler.pending.forEach(({ callback, ms }, id) => {
      if (ms === 1000) {
        t.scheduler.pending.delete(id);
        callback();
      }
    });
    await flush();
    await flush();
    expect(t.obs.view().connection.kind).toBe('connected');
    await t.actions.settled();
    const studio = t.fake.link();
    await studio.connect({ url: t.fake.url, password: PASSWORD });
    const { sceneItemId } = await studio.call('GetSceneItemId', { sceneName: 'Main', sourceName: 'Confetti' });
    expect((await studio.call('GetSceneItemEnabled', { sceneName: 'Main', sceneItemId })).sceneItemEnabled).toBe(false);
    expect(t.feed.items().map((item) => item.text)).toEqual([
      'OBS: showing Confetti for 10 s for “Confetti!”',
      'OBS: could not hide Confetti again — OBS is not connected',
      'OBS: hid Confetti, now that OBS is back',
    ]);
  });
});
