/**
 * Journey: a Greenroom overlay inside OBS's program output, read with `GetSourceScreenshot`
 * ([set up OBS for Kick](../../docs/obs.md#set-up-obs-for-kick)). Where OBS has a browser source the alert box
 * is one; Debian's OBS has none, so the alert box opens in a Chromium window on OBS's own X display and an
 * `xshm_input` (screen capture) source shows it in the program scene. A test alert then plays, and the
 * program output's pixels show the alert's colour, which they did not before.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OBSWebSocket } from 'obs-websocket-js/json';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ObsProcess, obsSkipReason, startObs } from '../helpers/obs-process';
import { OBS_FIRST_SCENE } from '../helpers/obs-profile/obs-config';
import { countColour, decodePng } from '../helpers/png-pixels';
import { ROOT } from './app-process';
import { startOverlayWorld, type OverlayWorld } from './overlay-fixtures';
import { value } from './panel';

const SKIP = obsSkipReason();
const WAIT = { timeout: 20_000, interval: 250 };
/** The alert's text colour: nothing else on the captured screen is this magenta. */
const ALERT_COLOUR = '#ff00ff';
const BACKDROP = { r: 38, g: 44, b: 52 };
const BACKDROP_HEX = '#262c34';
/** OBS's canvas and the harness's X screen (test/helpers/obs-profile/obs-config.ts). */
const CANVAS = { width: 1280, height: 720 };

describe.skipIf(SKIP !== null)(
  SKIP === null
    ? 'journey: an overlay in OBS program output'
    : `journey: an overlay in OBS program output skipped: ${SKIP}`,
  () => {
    let obs: ObsProcess;
    let client: OBSWebSocket;
    let world: OverlayWorld;
    let headed: Browser | null = null;

    const program = async () => {
      const shot = await client.call('GetSourceScreenshot', { sourceName: OBS_FIRST_SCENE, imageFormat: 'png' });
      return { png: shot.imageData, pixels: decodePng(shot.imageData) };
    };

    beforeAll(async () => {
      obs = await startObs();
      client = new OBSWebSocket();
      await client.connect(obs.url, obs.password ?? undefined);
      world = await startOverlayWorld();
      await world.updateOverlays((settings) => {
        settings.style.alerts = { ...settings.style.alerts, textColor: ALERT_COLOUR, sizePx: 96 };
        settings.alerts.follow = {
          ...settings.alerts.follow,
          ...{ preset: 'plain', image: null, sound: null, text: 'FOLLOW {user}', durationMs: 30_000 },
        };
      });
    });

    afterAll(async () => {
      await client?.disconnect().catch(() => undefined);
      await headed?.close();
      await world?.close();
      await obs?.close();
    });

    it('shows the alert box, with a test alert playing, in the program scene', async () => {
      const url = (await value(world.panel.api.overlays.info())).urls.alerts!;
      const { inputKinds } = await client.call('GetInputKindList', { unversioned: true });
      if (inputKinds.includes('browser_source')) {
        await client.call('CreateInput', {
          sceneName: OBS_FIRST_SCENE,
          inputName: 'Greenroom Alert box',
          inputKind: 'browser_source',
          inputSettings: { url, ...CANVAS },
        });
      } else {
        // Debian's OBS: the page in a window on OBS's display, full screen (no tabs, no address bar: the
        // URL carries the overlay key), and OBS captures the screen.
        headed = await chromium.launch({
          executablePath: '/usr/bin/chromium',
          headless: false,
          env: { ...process.env, DISPLAY: obs.display },
          args: [
            ...['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--kiosk'],
            `--window-position=0,0`,
            `--window-size=${CANVAS.width},${CANVAS.height}`,
          ],
        });
        const page = await (await headed.newContext({ viewport: null })).newPage();
        const cdp = await page.context().newCDPSession(page);
        const { windowId } = (await cdp.send('Browser.getWindowForTarget')) as { windowId: number };
        await cdp.send('Browser.setWindowBounds', { windowId, bounds: { windowState: 'fullscreen' } });
        // The overlay is transparent: behind it a dark backdrop, as a game would be.
        await cdp.send('Emulation.setDefaultBackgroundColorOverride', { color: { ...BACKDROP, a: 1 } });
        await page.goto(url);
        await client.call('CreateInput', {
          sceneName: OBS_FIRST_SCENE,
          inputName: 'Screen capture',
          inputKind: 'xshm_input',
          inputSettings: { screen: 0, show_cursor: false },
        });
      }
      await expect.poll(async () => (await value(world.panel.api.overlays.info())).open.alerts, WAIT).toBe(1);
      if (headed !== null) {
        // The capture shows the window: the backdrop behind the transparent overlay, the whole screen.
        const backdrop = async () => countColour((await program()).pixels, BACKDROP_HEX, 8);
        await expect.poll(backdrop, WAIT).toBeGreaterThan((CANVAS.width * CANVAS.height) / 2);
      }
      const before = await program();
      expect(before.pixels.width).toBe(CANVAS.width);
      expect(countColour(before.pixels, ALERT_COLOUR)).toBe(0);

      await value(world.panel.api.overlays.testAlert({ kind: 'follow' }));
      let after = before;
      await expect
        .poll(async () => {
          after = await program();
          return countColour(after.pixels, ALERT_COLOUR);
        }, WAIT)
        .toBeGreaterThan(2_000);

      const dir = join(ROOT, 'test-results', 'journeys');
      mkdirSync(dir, { recursive: true });
      const png = Buffer.from(after.png.replace(/^data:image\/png;base64,/, ''), 'base64');
      writeFileSync(join(dir, 'obs-overlay-capture.png'), png);
      if (process.env.GREENROOM_UPDATE_SCREENSHOTS === '1') {
        writeFileSync(join(ROOT, 'docs', 'screenshots', 'obs-overlay-capture.png'), png);
      }
    });
  },
);
