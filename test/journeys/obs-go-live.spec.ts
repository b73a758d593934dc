/**
 * Journey: go live end to end on one machine ([set up OBS for Kick](../../docs/obs.md#set-up-obs-for-kick)).
 * The built app in sandbox mode, signed in, connected to Debian's real OBS; in the panel's OBS tab "Set up
 * OBS for Kick", then Start streaming with its confirm. OBS publishes to the sandbox's RTMP ingest, the
 * sandbox channel goes live, and Greenroom shows Live with OBS's bitrate above 0.
 *
 * The stream key, read from the sandbox itself, never appears in any frame of the panel's WebSocket (both
 * ways, from the first), in any line the app printed or any file in its data dir (but the embedded
 * sandbox's own saved world, Kick's side), or in the page at screenshot time (its text, its attribute
 * values, its fields' values).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { OBSWebSocket } from 'obs-websocket-js/json';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ObsProcess, obsSkipReason, startObs } from '../helpers/obs-process';
import { OBS_FIRST_SCENE } from '../helpers/obs-profile/obs-config';
import { openSection } from '../helpers/panel-tabs';
import { SANDBOX_WORLD_FILE } from '../../sandbox/persist-file';
import { type SandboxModeWorld, startSandboxModeWorld } from './obs-sandbox-world';
import { screenshot } from './overlay-fixtures';
import { newContext, openPanel, value } from './panel';

const SKIP = obsSkipReason();
const WAIT = { timeout: 45_000 };

/** Every file under `dir`, as text (a binary file's bytes read as Latin-1, so a key in it still shows). */
function filesUnder(dir: string): { path: string; text: string }[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [{ path, text: readFileSync(path, 'latin1') }];
  });
}

/** What the page holds now: its markup (text and every attribute value) and each field's current value. */
function pageNow(page: Page): Promise<string> {
  return page.evaluate(`(() => {
    const fields = [...document.querySelectorAll('input, textarea, select')].map((el) => el.value);
    return document.documentElement.outerHTML + '\\n' + document.body.innerText + '\\n' + fields.join('\\n');
  })()`);
}

describe.skipIf(SKIP !== null)(
  SKIP === null ? 'journey: go live from the panel' : `journey: go live from the panel skipped: ${SKIP}`,
  () => {
    let obs: ObsProcess;
    let client: OBSWebSocket;
    let world: SandboxModeWorld;
    let page: Page;
    let key: string;
    const frames: string[] = [];

    beforeAll(async () => {
      obs = await startObs();
      client = new OBSWebSocket();
      await client.connect(obs.url, obs.password ?? undefined);
      // The app as a streamer trying it runs it: on its embedded sandbox, no Kick app.
      world = await startSandboxModeWorld();
      // The key from the sandbox's own record of its channel (Kick's side, as kick.com keeps it), never
      // from anything Greenroom shows or says.
      const worldFile = join(world.dataDir, SANDBOX_WORLD_FILE);
      const saved = () =>
        existsSync(worldFile) ? /"streamKey":\s*"([^"]+)"/.exec(readFileSync(worldFile, 'utf8')) : null;
      const deadline = Date.now() + WAIT.timeout;
      while (!saved() && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      key = saved()?.[1] ?? '';
      expect(key.length).toBeGreaterThan(8);
      const context = await newContext(world.browser, { width: 1100, height: 860 });
      context.on('page', (opened) =>
        opened.on('websocket', (socket) => {
          socket.on('framereceived', (frame) => frames.push(String(frame.payload)));
          socket.on('framesent', (frame) => frames.push(String(frame.payload)));
        }),
      );
      page = await openPanel(context, world.app);
      await value(
        world.panel.api.obs.saveConnection({
          enabled: true,
          host: '127.0.0.1',
          port: obs.port,
          password: obs.password ?? '',
        }),
      );
    });

    afterAll(async () => {
      await client?.call('StopStream').catch(() => undefined);
      await client?.disconnect().catch(() => undefined);
      await world?.close();
      await obs?.close();
    });

    it('sets OBS up for Kick from the panel, reading the settings back in main', async () => {
      await openSection(page, 'OBS');
      const setup = page.getByRole('region', { name: 'Set up OBS for Kick' });
      const button = setup.getByRole('button', { name: 'Set up OBS for Kick' });
      await expect.poll(() => button.isEnabled(), WAIT).toBe(true);
      await button.click();
      await setup.getByText('OBS is set to stream to Kick.').waitFor(WAIT);
      // What OBS now holds is the sandbox's ingest and this channel's key.
      const settings = await client.call('GetStreamServiceSettings');
      expect(settings.streamServiceType).toBe('rtmp_custom');
      expect(settings.streamServiceSettings.key).toBe(key);
      expect(settings.streamServiceSettings.server).toMatch(/^rtmp:\/\/127\.0\.0\.1:\d+\//);
      // Debian's OBS has no browser source: the overlays are listed to add by hand, nothing added.
      const { inputKinds } = await client.call('GetInputKindList', { unversioned: true });
      if (!inputKinds.includes('browser_source')) {
        await setup.getByRole('list', { name: 'Overlays to add by hand' }).waitFor(WAIT);
        expect((await client.call('GetSceneItemList', { sceneName: OBS_FIRST_SCENE })).sceneItems).toEqual([]);
      }
    });

    it('starts streaming after the confirm: the sandbox goes live, Greenroom shows Live with a bitrate', async () => {
      await page.getByRole('button', { name: 'Start streaming' }).first().click();
      const dialog = page.getByRole('alertdialog', { name: 'Start streaming in OBS?' });
      await dialog.getByRole('button', { name: 'Start streaming' }).click();
      // The sandbox's own answer: its channel is live because OBS published with the right key.
      await expect.poll(async () => (await value(world.panel.api.stream.info()))?.stream.is_live, WAIT).toBe(true);
      const strip = page.getByTestId('obs-strip');
      await strip.getByText(/Kick ● LIVE/).waitFor(WAIT);
      await strip.getByText(/^[\d,]+ kb\/s$/).waitFor(WAIT);
      const kbps = Number(((await strip.getByText(/^[\d,]+ kb\/s$/).textContent()) ?? '').replace(/[^\d]/g, ''));
      expect(kbps).toBeGreaterThan(0);
      expect((await client.call('GetStreamStatus')).outputActive).toBe(true);

      await screenshot(page, 'obs-go-live');
      const shown = await pageNow(page);
      expect(shown).not.toContain(key);
      // The overlay addresses listed to add by hand are shown without their key too (a dock may be on stream).
      const overlayKey = new URL((await value(world.panel.api.overlays.info())).urls.alerts!).searchParams.get('key')!;
      expect(shown).not.toContain(overlayKey);
    });

    it('refuses, over the panel socket, an overlay that does not exist, naming it, with OBS left as it was', async () => {
      const before = await client.call('GetStreamServiceSettings');
      const answer = await world.panel.api.obs.setupForKick({ sceneName: OBS_FIRST_SCENE, overlays: ['__proto__'] });
      expect(answer.ok ? null : answer.error.code).toBe('Validation');
      expect(answer.ok ? '' : answer.error.message).toContain('__proto__ is not an overlay');
      expect(await client.call('GetStreamServiceSettings')).toEqual(before);
    });

    it('never lets the key out: no panel frame, no line the app printed, no file in its data dir', () => {
      expect(frames.length).toBeGreaterThan(10);
      expect(frames.filter((frame) => frame.includes(key))).toEqual([]);
      const printed = [...world.app.stdout.lines, ...world.app.stderr.lines];
      expect(printed.filter((line) => line.includes(key))).toEqual([]);
      // The embedded sandbox's saved world is the simulated Kick's own store, where Kick holds the key.
      const files = filesUnder(world.app.dataDir).filter(
        (file) => file.path !== join(world.dataDir, SANDBOX_WORLD_FILE),
      );
      expect(files.length).toBeGreaterThan(0);
      expect(files.filter((file) => file.text.includes(key)).map((file) => file.path)).toEqual([]);
    });
  },
);
