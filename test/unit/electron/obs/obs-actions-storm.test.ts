/**
 * OBS actions under hostile timing: redemptions arriving together, OBS away when a source is due to hide or
 * an ad break ends, and a live status that flaps. Each through the actions, against the fake OBS.
 */
import { describe, expect, it } from 'vitest';
import { LIVE_SETTLE_MS } from '../../../../electron/obs/obs-actions';
import { actionsSetup, liveStatus, redemption, SETUP, shows } from './obs-actions-fixtures';

describe('OBS actions: redemptions arriving together', () => {
  it('1,000 redemptions in one burst make one showing: two requests, one Activity line, one hide timer', async () => {
    const t = await actionsSetup();
    const before = t.fake.requests.length;
    for (let i = 0; i < 1000; i++) {
      t.actions.onEvent(redemption(`storm-${i}`, 'rw-confetti'), true);
    }
    await t.actions.settled();
    // GetSceneItemId and SetSceneItemEnabled, once.
    expect(t.fake.requests.length - before).toBe(2);
    expect(t.feed).toEqual(['OBS: showing Confetti for 10 s for “Confetti!”']);
    expect(t.timers.delays()).toEqual([10_000]);
    expect(t.timers.fire(10_000)).toBe(1);
    await t.actions.settled();
    expect(await t.confettiShown()).toBe(false);
    expect(shows(t.fake)).toEqual([true, false]);
  });

  it('two redemptions ms apart leave one hide timer, so no earlier timer hides it before the latest is due', async () => {
    const t = await actionsSetup();
    t.actions.onEvent(redemption('a', 'rw-confetti'), true);
    t.actions.onEvent(redemption('b', 'rw-confetti'), true);
    await t.actions.settled();
    expect(t.timers.delays()).toEqual([10_000]);
    // A redemption once it shows restarts that one timer rather than adding another.
    const [firstTimer] = t.timers.pending.keys();
    t.actions.onEvent(redemption('c', 'rw-confetti'), true);
    await t.actions.settled();
    expect(t.timers.delays()).toEqual([10_000]);
    expect(t.timers.pending.has(firstTimer!)).toBe(false);
    expect(t.feed).toHaveLength(1);
    expect(shows(t.fake)).toEqual([true]);
  });

  it('a burst for a source OBS does not have asks OBS once and says so once', async () => {
    const t = await actionsSetup({ ...SETUP, rewards: [{ ...SETUP.rewards[0]!, source: 'Gone' }] });
    const before = t.fake.requests.length;
    for (let i = 0; i < 500; i++) {
      t.actions.onEvent(redemption(`gone-${i}`, 'rw-confetti'), true);
    }
    await t.actions.settled();
    expect(t.fake.requests.length - before).toBe(1);
    expect(t.feed).toEqual(['OBS: could not show Gone — there is no source “Gone” in the scene “Main”']);
    expect(t.timers.delays()).toEqual([]);
  });

  it('a show that failed is not a showing: the next redemption tries again', async () => {
    const t = await actionsSetup();
    t.fake.failNext('SetSceneItemEnabled', 702, 'busy');
    t.actions.onEvent(redemption('a', 'rw-confetti'), true);
    await t.actions.settled();
    t.actions.onEvent(redemption('b', 'rw-confetti'), true);
    await t.actions.settled();
    expect(await t.confettiShown()).toBe(true);
    expect(t.timers.delays()).toEqual([10_000]);
  });
});

describe('OBS actions: OBS away when a source is due to hide', () => {
  it('hides the source once OBS is back, rather than leaving it on screen', async () => {
    const t = await actionsSetup();
    t.actions.onEvent(redemption('a', 'rw-confetti'), true);
    await t.actions.settled();
    t.setConnected(false);
    t.timers.fire(10_000);
    await t.actions.settled();
    expect(t.feed.at(-1)).toBe('OBS: could not hide Confetti again — OBS is not connected');
    t.setConnected(true);
    await t.actions.settled();
    expect(await t.confettiShown()).toBe(false);
    expect(t.feed.at(-1)).toBe('OBS: hid Confetti, now that OBS is back');
    // Owed once: a second reconnect sends nothing more.
    t.setConnected(true);
    await t.actions.settled();
    expect(shows(t.fake)).toEqual([true, false]);
  });

  it('still owes the hide when OBS drops again before it could be done', async () => {
    const t = await actionsSetup();
    t.actions.onEvent(redemption('a', 'rw-confetti'), true);
    await t.actions.settled();
    t.setConnected(false);
    t.timers.fire(10_000);
    await t.actions.settled();
    // Back for a moment: the listener fires, but the request finds OBS gone again.
    t.fake.kill();
    t.setConnected(true);
    await t.actions.settled();
    await t.restart();
    t.setConnected(true);
    await t.actions.settled();
    expect(await t.confettiShown()).toBe(false);
  });

  it('leaves a source shown again by a newer redemption to that showing’s own timer', async () => {
    const t = await actionsSetup();
    t.actions.onEvent(redemption('a', 'rw-confetti'), true);
    await t.actions.settled();
    t.setConnected(false);
    t.timers.fire(10_000);
    await t.actions.settled();
    t.setConnected(true);
    t.actions.onEvent(redemption('b', 'rw-confetti'), true);
    await t.actions.settled();
    expect(await t.confettiShown()).toBe(true);
    expect(t.timers.delays()).toEqual([10_000]);
  });

  it('forgets what it owed once stopped', async () => {
    const t = await actionsSetup();
    t.actions.onEvent(redemption('a', 'rw-confetti'), true);
    await t.actions.settled();
    t.setConnected(false);
    t.timers.fire(10_000);
    await t.actions.settled();
    expect(t.listening()).toBe(true);
    t.actions.stop();
    expect(t.listening()).toBe(false);
    t.setConnected(true);
    await t.actions.settled();
    expect(shows(t.fake)).toEqual([true]);
  });
});

describe('OBS actions: OBS away when an ad break ends', () => {
  it('switches back once OBS is back, if OBS is still on the ad scene', async () => {
    const t = await actionsSetup();
    t.actions.adBreakStarted(30);
    await t.actions.settled();
    t.setConnected(false);
    t.timers.fire(30_000);
    await t.actions.settled();
    expect(t.feed.at(-1)).toBe('OBS: could not switch back to “Main” after the ad break — OBS is not connected');
    t.setConnected(true);
    await t.actions.settled();
    expect(await t.program()).toBe('Main');
    expect(t.feed.at(-1)).toBe('OBS: back to Main after the ad break, now that OBS is back');
  });

  it('keeps the scene the streamer picked while OBS was away', async () => {
    const t = await actionsSetup();
    t.actions.adBreakStarted(30);
    await t.actions.settled();
    t.setConnected(false);
    t.timers.fire(30_000);
    await t.actions.settled();
    await t.link.call('SetCurrentProgramScene', { sceneName: 'Starting' });
    t.setConnected(true);
    await t.actions.settled();
    expect(await t.program()).toBe('Starting');
    expect(t.feed.at(-1)).toBe(
      'OBS: stayed on Starting after the ad break, now that OBS is back (you switched away from Ads)',
    );
  });

  it('a new break before OBS is back returns, at its end, to the scene before the first break', async () => {
    const t = await actionsSetup();
    t.actions.adBreakStarted(30);
    await t.actions.settled();
    t.setConnected(false);
    t.timers.fire(30_000);
    await t.actions.settled();
    t.setConnected(true);
    t.actions.adBreakStarted(60);
    await t.actions.settled();
    t.timers.fire(60_000);
    await t.actions.settled();
    expect(await t.program()).toBe('Main');
  });
});

describe('OBS actions: ad breaks started together (a double click)', () => {
  it('make one switch and one way back, timed by the latest break', async () => {
    const t = await actionsSetup();
    const before = t.fake.requests.length;
    t.actions.adBreakStarted(30);
    t.actions.adBreakStarted(60);
    await t.actions.settled();
    expect(t.fake.requests.length - before).toBe(2);
    expect(t.feed).toEqual(['OBS: switched to Ads for the ad break']);
    expect(t.timers.delays()).toEqual([60_000]);
    t.timers.fire(60_000);
    await t.actions.settled();
    expect(await t.program()).toBe('Main');
    expect(t.feed.at(-1)).toBe('OBS: back to Main after the ad break');
  });
});

describe('OBS actions: a flapping live status', () => {
  it('switches at once, then at most once per settle time, the last status winning', async () => {
    const t = await actionsSetup();
    for (let i = 0; i < 20; i++) {
      t.actions.onEvent(liveStatus(i % 2 === 0), true);
    }
    await t.actions.settled();
    expect(await t.program()).toBe('Starting');
    expect(t.feed).toEqual(['OBS: switched to Starting for going live']);
    expect(t.timers.fire(LIVE_SETTLE_MS)).toBe(1);
    await t.actions.settled();
    // The last of the twenty said offline.
    expect(await t.program()).toBe('Ending');
    expect(t.feed).toHaveLength(2);
    expect(t.timers.fire(LIVE_SETTLE_MS)).toBe(1);
    await t.actions.settled();
    expect(t.timers.delays()).toEqual([]);
    expect(t.feed).toHaveLength(2);
  });

  it('does nothing for a status that is not a change', async () => {
    const t = await actionsSetup();
    t.actions.onEvent(liveStatus(true), true);
    await t.actions.settled();
    t.timers.fire(LIVE_SETTLE_MS);
    await t.link.call('SetCurrentProgramScene', { sceneName: 'Main' });
    t.actions.onEvent(liveStatus(true), true);
    await t.actions.settled();
    expect(await t.program()).toBe('Main');
    expect(t.feed).toEqual(['OBS: switched to Starting for going live']);
  });

  it('a status that flapped back to where it was switches nothing more', async () => {
    const t = await actionsSetup();
    t.actions.onEvent(liveStatus(true), true);
    t.actions.onEvent(liveStatus(false), true);
    t.actions.onEvent(liveStatus(true), true);
    await t.actions.settled();
    t.timers.fire(LIVE_SETTLE_MS);
    await t.actions.settled();
    expect(t.fake.requests.filter((r) => r.type === 'SetCurrentProgramScene')).toHaveLength(2);
    expect(t.feed).toEqual(['OBS: switched to Starting for going live']);
  });
});
