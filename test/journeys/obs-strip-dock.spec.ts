/**
 * Journey: the OBS strip in a 340 px dock while OBS streams (docs/obs.md#stream-health-warnings). A real OBS is
 * pointed, by the test's own obs-websocket-js client, at the sandbox's RTMP ingest with the channel's key,
 * and starts streaming and recording. The panel, 340 px wide as an OBS dock, shows in its header strip
 * Kick's side and OBS's time on air with its bitrate, and the recording; nothing in the page scrolls
 * sideways and the strip stays inside the dock. Then the OBS tab in the same dock, by keyboard alone: a scene
 * switch, a source hidden and the recording stopped after its confirm, each read back from OBS.
 *
 * Saves test-results/journeys/obs-strip-dock.png and obs-tab-dock.png (docs/screenshots/ with GREENROOM_UPDATE_SCREENSHOTS=1).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OBS_FIRST_SCENE } from '../helpers/obs-profile/obs-config';
import { openSection } from '../helpers/panel-tabs';
import { screenshot } from './overlay-fixtures';
import { value } from './panel';
import { sidewaysScroll } from './tabs-fixtures';
import { OBS_SKIP, obsJourneyTitle, type ObsWorld, startObsWorld } from './obs-journey-fixtures';

const WAIT = { timeout: 45_000, interval: 250 };
const DOCK = { width: 340, height: 720 };

describe.skipIf(OBS_SKIP !== null)(obsJourneyTitle('journey: the OBS strip in a 340 px dock'), () => {
  let w: ObsWorld;
  let page: Page;
  const strip = () => page.getByTestId('obs-strip');

  beforeAll(async () => {
    w = await startObsWorld(DOCK);
    page = w.page;
    await w.connectApp();
    await strip().waitFor(WAIT);
  });

  afterAll(async () => {
    await w?.client.call('StopStream').catch(() => undefined);
    await w?.client.call('StopRecord').catch(() => undefined);
    await w?.close();
  });

  it('shows OBS streaming to the sandbox’s ingest, with its bitrate, and recording', async () => {
    const { url, key } = await value(w.world.panel.api.stream.key());
    expect(url).toMatch(/^rtmp:\/\/127\.0\.0\.1:\d+\//);
    await w.client.call('SetStreamServiceSettings', {
      streamServiceType: 'rtmp_custom',
      streamServiceSettings: { server: url, key },
    });
    await w.client.call('StartStream');
    await w.client.call('StartRecord');
    await expect
      .poll(async () => (await strip().innerText()).replace(/\s+/g, ' '), WAIT)
      .toMatch(/OBS ● \d+:\d\d \d[\d,]* kb\/s .*REC \d+:\d\d/);
    // For the screenshot, a stream a few seconds old with its bitrate measured over them.
    await expect.poll(async () => strip().innerText(), WAIT).toMatch(/OBS ● (0:0[3-9]|0:[1-5]\d|\d+:\d\d:\d\d)/);
    // The sandbox saw the publish: Kick's side turns live.
    await expect.poll(async () => strip().innerText(), WAIT).toMatch(/Kick ● LIVE/);
  });

  it('fits the dock: the strip inside 340 px, nothing scrolling sideways', async () => {
    const box = await strip().boundingBox();
    expect(box).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(DOCK.width);
    expect(await sidewaysScroll(page)).toEqual([]);
    // Each piece on one line of its own: none wider than the dock.
    const widest = await page.evaluate<number>(
      `Math.max(...[...document.querySelectorAll('[data-testid="obs-strip"] > *')].map((el) => el.getBoundingClientRect().right))`,
    );
    expect(widest).toBeLessThanOrEqual(DOCK.width);
    await screenshot(page, 'obs-strip-dock');
  });

  it('works the OBS tab by keyboard in the dock, each change read back from OBS', async () => {
    await w.client.call('CreateScene', { sceneName: 'Be right back' });
    await w.client.call('CreateInput', {
      sceneName: OBS_FIRST_SCENE,
      inputName: 'Backdrop',
      inputKind: 'color_source_v3',
      inputSettings: { color: 4282664004 },
    });
    await openSection(page, 'OBS');
    const tab = page.getByRole('tabpanel', { name: /^OBS/ });
    const brb = tab.getByRole('list', { name: 'Scene' }).getByRole('button', { name: 'Be right back' });
    await brb.waitFor(WAIT);
    await brb.focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => (await w.client.call('GetCurrentProgramScene')).currentProgramSceneName, WAIT)
      .toBe('Be right back');
    await tab.getByText('On air: Be right back').waitFor(WAIT);
    // The keyboard focus stays on the scene just used, not dropped to the top of the page.
    expect(await brb.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);

    await tab.getByRole('list', { name: 'Scene' }).getByRole('button', { name: OBS_FIRST_SCENE }).focus();
    await page.keyboard.press('Enter');
    const backdrop = tab.getByRole('checkbox', { name: /^Backdrop/ });
    await backdrop.waitFor(WAIT);
    expect(await backdrop.isChecked()).toBe(true);
    await backdrop.focus();
    await page.keyboard.press('Space');
    const { sceneItemId } = await w.client.call('GetSceneItemId', {
      sceneName: OBS_FIRST_SCENE,
      sourceName: 'Backdrop',
    });
    await expect
      .poll(
        async () =>
          (await w.client.call('GetSceneItemEnabled', { sceneName: OBS_FIRST_SCENE, sceneItemId })).sceneItemEnabled,
        WAIT,
      )
      .toBe(false);
    await expect.poll(() => backdrop.isChecked(), WAIT).toBe(false);
    expect(await backdrop.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);

    await tab.getByRole('button', { name: 'Stop recording' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: 'Stop recording in OBS?' });
    await dialog.waitFor(WAIT);
    // Focus starts on Cancel; Tab wraps to the dialog's own Stop recording.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await w.client.call('GetRecordStatus')).outputActive, WAIT).toBe(false);
    await tab.getByRole('button', { name: 'Start recording' }).waitFor(WAIT);
    expect(await sidewaysScroll(page)).toEqual([]);
    await screenshot(page, 'obs-tab-dock');
  });
});
