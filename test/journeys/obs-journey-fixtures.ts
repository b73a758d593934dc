/**
 * The OBS journeys' world (docs/obs.md#testing-against-a-real-obs): Debian's real OBS under Xvfb (A's
 * harness, its own port and password), a test-side obs-websocket-js client to read OBS back and drive its
 * outputs, and the built app on its embedded sandbox, signed in, as a streamer trying it runs it
 * (obs-sandbox-world.ts), with its panel in Chromium at the size a dock or window gives it.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { OBSWebSocket } from 'obs-websocket-js/json';
import type { Locator, Page } from 'playwright-core';
import { ROOT } from './app-process';
import { type ObsProcess, obsSkipReason, startObs } from '../helpers/obs-process';
import { newContext, openPanel, value } from './panel';
import { type SandboxModeWorld, startSandboxModeWorld } from './obs-sandbox-world';

/** Why the OBS journeys are skipped here, or null where OBS can run. */
export const OBS_SKIP = obsSkipReason();

/** The describe title, with the one-line reason where OBS is absent. */
export function obsJourneyTitle(title: string): string {
  return OBS_SKIP === null ? title : `${title} skipped: ${OBS_SKIP}`;
}

export interface ObsWorld {
  obs: ObsProcess;
  /** The test's own client, to read OBS back and start or stop its outputs. */
  client: OBSWebSocket;
  /** The app on its embedded sandbox, as a streamer trying Greenroom runs it. */
  world: SandboxModeWorld;
  page: Page;
  /** Points the app at this OBS through the contract, as the Settings form's Save does. */
  connectApp(password?: string): Promise<void>;
  close(): Promise<void>;
}

export async function startObsWorld(viewport: { width: number; height: number }): Promise<ObsWorld> {
  const obs = await startObs();
  const client = new OBSWebSocket();
  await client.connect(obs.url, obs.password ?? undefined);
  const world = await startSandboxModeWorld();
  const page = await openPanel(await newContext(world.browser, viewport), world.app);
  return {
    obs,
    client,
    world,
    page,
    async connectApp(password = obs.password ?? '') {
      await value(world.panel.api.obs.saveConnection({ enabled: true, host: '127.0.0.1', port: obs.port, password }));
    },
    async close() {
      await client.disconnect().catch(() => undefined);
      await world.close();
      await obs.close();
    },
  };
}

/** Health's OBS card, as the streamer reads it. */
export function healthObs(page: Page) {
  return page.getByRole('region', { name: 'OBS' });
}

/** Its first line: the connection state in the streamer's words. */
export async function obsStateLine(page: Page): Promise<string> {
  const line = healthObs(page).getByTestId('obs-connection');
  return (await line.count()) === 0 ? '' : ((await line.textContent()) ?? '');
}

/** "Connected to OBS — OBS 29.0.2, websocket 5.1.0." with whatever versions this OBS has. */
export const CONNECTED_LINE = /^Connected to OBS — OBS \d+\.\d+\.\d+, websocket \d+\.\d+\.\d+\.$/;

/**
 * Saves a screenshot of one part of the panel (a form, without the dock URL and its token beside it) as a test
 * artefact, and into docs/screenshots/ with GREENROOM_UPDATE_SCREENSHOTS=1, as overlay-fixtures' `screenshot`.
 */
export async function partScreenshot(part: Locator, name: string): Promise<void> {
  const dir = join(ROOT, 'test-results', 'journeys');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await part.screenshot({ path });
  if (process.env.GREENROOM_UPDATE_SCREENSHOTS === '1') {
    copyFileSync(path, join(ROOT, 'docs', 'screenshots', `${name}.png`));
  }
}
