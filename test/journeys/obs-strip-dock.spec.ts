/**
 * Journey: the OBS strip in a 340 px dock while OBS streams (docs/obs.md#stream-health-warnings). A real OBS is
 * pointed, by the test's own obs-websocket-js client, at the sandbox's RTMP ingest with the channel's key,
 * and starts streaming and recording. The panel, 340 px wide as an OBS dock, shows in its header strip
 * Kick's side and OBS's time on air with its bitrate, and the recording; nothing in the page scrolls
 * sideways and the strip stays inside the dock.
 *
 * Saves test-results/journeys/obs-strip-dock.png (docs/screenshots/ with GREENROOM_UPDATE_SCREENSHOTS=1).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
