/**
 * OBS actions on events against Debian's real OBS (docs/obs.md#obs-actions-on-events): the built app on the
 * sandbox, its panel in Chromium at the dock's 340 px, the actions set in the Automation tab with scenes
 * picked from OBS's own list. An ad break run from the Ads tab switches OBS's program scene to "Ads" and back
 * to "Main" once the break is over; a redemption of the chosen reward shows "Confetti" for 3 s. Every
 * outcome is read back from OBS with a test-side obs-websocket client.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSection } from '../helpers/panel-tabs';
import { OBS_SKIP, obsJourneyTitle, partScreenshot, startObsWorld, type ObsWorld } from './obs-journey-fixtures';
import { value } from './panel';
import { STREAMER_USER_ID } from './sandbox-admin';
import { waitUntil } from './wait';

const WAIT = { timeout: 20_000 };
const AD_SECONDS = 7;
const SHOW_SECONDS = 3;

describe.skipIf(OBS_SKIP !== null)(obsJourneyTitle('OBS actions on events, against the real OBS'), () => {
  let w: ObsWorld;
  let page: Page;
  let reward: { id: string; title: string };

  const program = async () => (await w.client.call('GetCurrentProgramScene')).currentProgramSceneName;
  const confettiShown = async () => {
    const { sceneItemId } = await w.client.call('GetSceneItemId', { sceneName: 'Main', sourceName: 'Confetti' });
    return (await w.client.call('GetSceneItemEnabled', { sceneName: 'Main', sceneItemId })).sceneItemEnabled;
  };

  beforeAll(async () => {
    w = await startObsWorld({ width: 340, height: 900 });
    page = w.page;
    for (const sceneName of ['Main', 'Ads']) {
      await w.client.call('CreateScene', { sceneName });
    }
    await w.client.call('CreateInput', {
      sceneName: 'Main',
      inputName: 'Confetti',
      inputKind: 'color_source_v3',
      inputSettings: { color: 0xff00ff00 },
      sceneItemEnabled: false,
    });
    await w.client.call('SetCurrentProgramScene', { sceneName: 'Main' });
    await w.connectApp();
    // A reward made in Greenroom, as a streamer makes one in the Rewards tab.
    reward = await value(w.world.panel.api.rewards.create({ title: 'Confetti time', cost: 50 }));
  }, 180_000);

  afterAll(async () => {
    await w?.close();
  }, 60_000);

  it('sets the actions in the Automation tab, picking scenes from OBS’s list, within the dock’s width', async () => {
    await openSection(page, 'Automation');
    const form = page.getByRole('form', { name: 'OBS actions' });
    await form.getByRole('checkbox', { name: /ad break/ }).check();
    const adScene = form.getByRole('combobox', { name: /^Ad break.*scene$/ });
    await adScene.locator('option', { hasText: /^Ads$/ }).waitFor({ state: 'attached', ...WAIT });
    await adScene.selectOption('Ads');
    await form.getByRole('button', { name: 'Add a reward action' }).click();
    await form.getByRole('combobox', { name: 'Reward' }).selectOption(reward.id);
    await form.getByRole('combobox', { name: 'Show source' }).fill('Confetti');
    await form.getByRole('combobox', { name: 'Scene holding the source' }).selectOption('Main');
    await form.getByRole('spinbutton', { name: /^Seconds/ }).fill(String(SHOW_SECONDS));
    await form.getByRole('button', { name: 'Save OBS actions' }).click();
    await form.getByRole('status').filter({ hasText: 'OBS actions saved.' }).waitFor(WAIT);
    const saved = await value(w.world.panel.api.settings.get());
    expect(saved.obsActions.adBreak).toEqual({ enabled: true, scene: 'Ads' });
    expect(saved.obsActions.rewards).toEqual([
      { enabled: true, rewardId: reward.id, rewardTitle: reward.title, source: 'Confetti', scene: 'Main', seconds: 3 },
    ]);
    // Nothing sticks out of the 340 px dock.
    expect(await form.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await partScreenshot(form, 'obs-actions-editor');
  });

  it('switches OBS to "Ads" when Kick accepts an ad break run from the panel, and back to "Main" after it', async () => {
    // Kick runs ad breaks only for an enrolled channel (enrolled while offline) that is live.
    await value(w.world.panel.api.ads.enroll());
    await w.world.sandbox.admin.call('POST', `/channels/${STREAMER_USER_ID}/live`, { is_live: true });
    await openSection(page, 'Ads');
    const ads = page.getByRole('tabpanel', { name: /^Ads( \d|$)/ });
    const run = ads.getByRole('button', { name: 'Run ad break' });
    await waitUntil('Run ad break enabled', () => run.isEnabled(), Boolean, 20_000);
    await ads.getByLabel('Length (s)').fill(String(AD_SECONDS));
    await run.click();
    await page.getByRole('button', { name: 'Start the ad break' }).click();
    await waitUntil('OBS program scene', program, (scene) => scene === 'Ads', 10_000);
    // Back once the break's length has passed (the app's timer, real time).
    await waitUntil('OBS program scene', program, (scene) => scene === 'Main', (AD_SECONDS + 10) * 1000);
    await openSection(page, 'Activity');
    await page.getByText('OBS: back to Main after the ad break').waitFor(WAIT);
  }, 90_000);

  it('shows "Confetti" when the chosen reward is redeemed, and hides it after the chosen seconds', async () => {
    expect(await confettiShown()).toBe(false);
    await w.world.sandbox.admin.call('POST', `/channels/${STREAMER_USER_ID}/redemptions`, { reward_id: reward.id });
    await waitUntil('Confetti shown', confettiShown, (shown) => shown, 15_000);
    await waitUntil('Confetti hidden', confettiShown, (shown) => !shown, (SHOW_SECONDS + 10) * 1000);
    await page.getByText(`OBS: showing Confetti for ${SHOW_SECONDS} s for “${reward.title}”`).waitFor(WAIT);
  }, 60_000);
});
