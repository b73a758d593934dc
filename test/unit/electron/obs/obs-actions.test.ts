import { describe, expect, it } from 'vitest';
import { LIVE_SETTLE_MS, ObsActions } from '../../../../electron/obs/obs-actions';
import { obsActionsSettingsSchema } from '../../../../shared/obs-actions';
import { actionsSetup, liveStatus, redemption, SETUP } from './obs-actions-fixtures';

describe('OBS actions: the ad break', () => {
  it('switches to the ad scene when Kick accepts the break, and back to the scene before it when it ends', async () => {
    const t = await actionsSetup();
    t.actions.adBreakStarted(30);
    await t.actions.settled();
    expect(await t.program()).toBe('Ads');
    expect(t.feed).toEqual(['OBS: switched to Ads for the ad break']);
    expect(t.timers.delays()).toEqual([30_000]);
    t.timers.fire(30_000);
    await t.actions.settled();
    expect(await t.program()).toBe('Main');
    expect(t.feed.at(-1)).toBe('OBS: back to Main after the ad break');
  });

  it('leaves OBS where the streamer moved it during the break', async () => {
    const t = await actionsSetup();
    t.actions.adBreakStarted(60);
    await t.actions.settled();
    await t.link.call('SetCurrentProgramScene', { sceneName: 'Starting' });
    t.timers.fire(60_000);
    await t.actions.settled();
    expect(await t.program()).toBe('Starting');
    expect(t.feed.at(-1)).toBe('OBS: stayed on Starting after the ad break (you switched away from Ads)');
  });

  it('does nothing while the ad-break action is off', async () => {
    const t = await actionsSetup({ ...SETUP, adBreak: { enabled: false, scene: 'Ads' } });
    t.actions.adBreakStarted(30);
    await t.actions.settled();
    expect(await t.program()).toBe('Main');
    expect(t.feed).toEqual([]);
    expect(t.fake.requests.filter((r) => r.type === 'SetCurrentProgramScene')).toHaveLength(1);
  });
});

describe('OBS actions: a redeemed reward', () => {
  it('shows the source, then hides it after the chosen seconds', async () => {
    const t = await actionsSetup();
    t.actions.onEvent(redemption('red-1', 'rw-confetti'), true);
    await t.actions.settled();
    expect(await t.confettiShown()).toBe(true);
    expect(t.feed).toEqual(['OBS: showing Confetti for 10 s for “Confetti!”']);
    expect(t.timers.delays()).toEqual([10_000]);
    t.timers.fire(10_000);
    await t.actions.settled();
    expect(await t.confettiShown()).toBe(false);
  });

  it('restarts the time on a second redemption while the source shows: it hides N s after the latest', async () => {
    const t = await actionsSetup();
    t.actions.onEvent(redemption('red-1', 'rw-confetti'), true);
    await t.actions.settled();
    t.actions.onEvent(redemption('red-2', 'rw-confetti'), true);
    await t.actions.settled();
    // One hide timer, the second's: the first was replaced. The second joins the showing: no new line.
    expect(t.timers.delays()).toEqual([10_000]);
    expect(t.feed).toEqual(['OBS: showing Confetti for 10 s for “Confetti!”']);
    expect(t.timers.fire(10_000)).toBe(1);
    await t.actions.settled();
    expect(await t.confettiShown()).toBe(false);
  });

  it('shows it in the scene on air when the action names no scene', async () => {
    const t = await actionsSetup({ ...SETUP, rewards: [{ ...SETUP.rewards[0]!, scene: null }] });
    t.actions.onEvent(redemption('red-1', 'rw-confetti'), true);
    await t.actions.settled();
    expect(await t.confettiShown('Main')).toBe(true);
  });

  it('fires once per redemption: its later status update (accepted) is not a second redemption', async () => {
    const t = await actionsSetup();
    t.actions.onEvent(redemption('red-1', 'rw-confetti'), true);
    await t.actions.settled();
    t.timers.fire(10_000);
    await t.actions.settled();
    t.actions.onEvent(redemption('red-1', 'rw-confetti', 'accepted'), true);
    await t.actions.settled();
    expect(await t.confettiShown()).toBe(false);
    expect(t.feed).toHaveLength(1);
  });

  it('ignores other rewards and switched-off actions', async () => {
    const t = await actionsSetup({ ...SETUP, rewards: [{ ...SETUP.rewards[0]!, enabled: false }] });
    t.actions.onEvent(redemption('red-1', 'rw-confetti'), true);
    t.actions.onEvent(redemption('red-2', 'rw-other'), true);
    await t.actions.settled();
    expect(await t.confettiShown()).toBe(false);
    expect(t.feed).toEqual([]);
  });
});

describe('OBS actions: going live and offline', () => {
  it('switches scene when Kick says the stream went live, and again when it went offline', async () => {
    const t = await actionsSetup();
    t.actions.onEvent(liveStatus(true), true);
    await t.actions.settled();
    expect(await t.program()).toBe('Starting');
    t.actions.onEvent(liveStatus(false), true);
    // A change moments after the last waits for the settle time.
    t.timers.fire(LIVE_SETTLE_MS);
    await t.actions.settled();
    expect(await t.program()).toBe('Ending');
    expect(t.feed).toEqual(['OBS: switched to Starting for going live', 'OBS: switched to Ending for going offline']);
  });
});

describe('OBS actions: the journal replay at start', () => {
  it('fires nothing for replayed events, and not for a replayed redemption’s later update either', async () => {
    const t = await actionsSetup();
    t.actions.onEvent(redemption('red-old', 'rw-confetti'), false);
    t.actions.onEvent(liveStatus(true), false);
    await t.actions.settled();
    t.actions.onEvent(redemption('red-old', 'rw-confetti', 'accepted'), true);
    await t.actions.settled();
    expect(await t.program()).toBe('Main');
    expect(await t.confettiShown()).toBe(false);
    expect(t.feed).toEqual([]);
    expect(t.fake.requests.filter((r) => r.type.startsWith('Set'))).toHaveLength(1);
  });
});

describe('OBS actions: failures', () => {
  it('says OBS is not connected once for a run of events, and again after an action worked', async () => {
    const t = await actionsSetup();
    t.setConnected(false);
    for (let i = 0; i < 5; i++) {
      t.actions.onEvent(redemption(`red-${i}`, 'rw-confetti'), true);
      t.actions.adBreakStarted(30);
    }
    await t.actions.settled();
    expect(t.feed).toEqual(['OBS: could not show Confetti — OBS is not connected']);
    expect(t.logs).toHaveLength(1);
    t.setConnected(true);
    t.actions.onEvent(liveStatus(true), true);
    await t.actions.settled();
    t.setConnected(false);
    t.actions.adBreakStarted(30);
    await t.actions.settled();
    expect(t.feed.at(-1)).toBe('OBS: could not switch to “Ads” for the ad break — OBS is not connected');
  });

  it('names a scene that is not in OBS once per scene, and blocks nothing else', async () => {
    const t = await actionsSetup({ ...SETUP, adBreak: { enabled: true, scene: 'Gone' } });
    t.actions.adBreakStarted(30);
    t.actions.adBreakStarted(30);
    t.actions.onEvent(redemption('red-1', 'rw-confetti'), true);
    await t.actions.settled();
    expect(t.feed.filter((l) => l.includes('Gone'))).toEqual([
      'OBS: could not switch to “Gone” for the ad break — there is no scene “Gone” in OBS',
    ]);
    expect(await t.confettiShown()).toBe(true);
  });

  it('counts an OBS that does not answer as failed after the timeout, without waiting for it', async () => {
    const t = await actionsSetup();
    const never = new Promise<never>(() => {});
    const actions = new ObsActions({
      obs: { call: () => never, connected: () => true },
      actions: () => SETUP,
      setTimer: t.timers.setTimer,
      report: (line) => t.feed.push(line),
      log: () => {},
    });
    actions.onEvent(liveStatus(true), true);
    expect(t.timers.delays()).toEqual([LIVE_SETTLE_MS, 5000]);
    t.timers.fire(5000);
    await actions.settled();
    expect(t.feed).toEqual(['OBS: could not switch to “Starting” — OBS did not answer within 5 s']);
  });

  it('says once why a source it showed could not be hidden, and lets the next redemption show it', async () => {
    const t = await actionsSetup();
    t.actions.onEvent(redemption('red-1', 'rw-confetti'), true);
    await t.actions.settled();
    t.fake.failNext('SetSceneItemEnabled', 600, 'No scene items were found');
    t.timers.fire(10_000);
    await t.actions.settled();
    expect(t.feed.at(-1)).toMatch(/^OBS: could not hide Confetti again — OBS refused it/);
    t.actions.onEvent(redemption('red-2', 'rw-confetti'), true);
    await t.actions.settled();
    expect(t.feed.at(-1)).toBe('OBS: showing Confetti for 10 s for “Confetti!”');
  });
});

describe('OBS actions: the settings', () => {
  it('defaults to everything off', () => {
    expect(obsActionsSettingsSchema.parse({})).toEqual({
      adBreak: { enabled: false, scene: '' },
      rewards: [],
      goLive: { enabled: false, scene: '' },
      goOffline: { enabled: false, scene: '' },
      raid: { enabled: false, scene: '' },
    });
  });
});
