/**
 * Journey: connecting Greenroom to a real OBS from Settings (docs/obs.md#connecting-to-obs). Debian's OBS runs
 * headless with its own port and password; the streamer types the host, port and password into Settings → OBS
 * in the panel in Chromium and saves. The form and Health then say "Connected to OBS" with OBS's and the
 * websocket's versions. Saved again with a wrong password, both say OBS refused it and where in OBS to copy the
 * right one. The password is never sent back to a panel.
 *
 * Saves test-results/journeys/obs-connect.png and obs-wrong-password.png (docs/screenshots/ with
 * GREENROOM_UPDATE_SCREENSHOTS=1).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSection } from '../helpers/panel-tabs';
import { value } from './panel';
import {
  CONNECTED_LINE,
  OBS_SKIP,
  obsJourneyTitle,
  obsStateLine,
  type ObsWorld,
  partScreenshot,
  startObsWorld,
} from './obs-journey-fixtures';

const WAIT = { timeout: 30_000, interval: 200 };
const WINDOW = { width: 900, height: 1000 };

describe.skipIf(OBS_SKIP !== null)(obsJourneyTitle('journey: connecting to OBS from Settings'), () => {
  let w: ObsWorld;
  let page: Page;
  const form = () => page.getByRole('form', { name: 'OBS' });
  const status = () => form().getByRole('status', { name: 'OBS connection' });

  /** Fills Settings → OBS as the streamer does and saves it. */
  async function saveInSettings(password: string): Promise<void> {
    await openSection(page, 'Settings');
    const f = form();
    await f.scrollIntoViewIfNeeded();
    const enabled = f.getByRole('checkbox', { name: 'Connect to OBS' });
    if (!(await enabled.isChecked())) {
      await enabled.check();
    }
    await f.getByLabel('Host').fill('127.0.0.1');
    await f.getByLabel('Port').fill(String(w.obs.port));
    await f.getByLabel(/^Password/).fill(password);
    await f.getByRole('button', { name: 'Save OBS connection' }).click();
  }

  beforeAll(async () => {
    w = await startObsWorld(WINDOW);
    page = w.page;
  });

  afterAll(async () => {
    await w?.close();
  });

  it('starts as not set up, with only a small "Connect OBS" link in the header', async () => {
    await page.getByRole('button', { name: 'Connect OBS' }).waitFor(WAIT);
    await openSection(page, 'Health');
    await expect.poll(() => obsStateLine(page), WAIT).toBe('OBS is not connected yet.');
  });

  it('connects with the right password and shows OBS’s and the websocket’s versions', async () => {
    await saveInSettings(w.obs.password ?? '');
    await expect.poll(async () => (await status().textContent())?.trim(), WAIT).toMatch(CONNECTED_LINE);
    // The versions are this OBS's own, read back by the test's client.
    const version = await w.client.call('GetVersion');
    expect(await status().textContent()).toContain(
      `OBS ${version.obsVersion}, websocket ${version.obsWebSocketVersion}`,
    );
    expect(await form().getByText('A password is saved; leave empty to keep it.').isVisible()).toBe(true);
    expect(
      await form()
        .getByLabel(/^Password/)
        .inputValue(),
    ).toBe('');
    // The form alone: what the screenshot is about, without the dock URL (its token) below it.
    await partScreenshot(form(), 'obs-connect');
    await openSection(page, 'Health');
    await expect.poll(() => obsStateLine(page), WAIT).toMatch(CONNECTED_LINE);
  });

  it('never sends the password back: not in the settings a panel reads, nor in the OBS view', async () => {
    const secret = w.obs.password!;
    const settings = JSON.stringify(await value(w.world.panel.api.settings.get()));
    const view = JSON.stringify(await value(w.world.panel.api.obs.status()));
    expect(settings).not.toContain(secret);
    expect(view).not.toContain(secret);
    expect(await page.locator('body').innerText()).not.toContain(secret);
  });

  it('a wrong password shows OBS refused it and where to copy the right one', async () => {
    await saveInSettings('not-the-password');
    await expect
      .poll(async () => (await status().textContent())?.replace(/\s+/g, ' ').trim(), WAIT)
      .toBe(
        'OBS refused the password. Copy it from OBS: Tools → WebSocket Server Settings → Show Connect Info, paste it in Settings → OBS and save.',
      );
    await partScreenshot(form(), 'obs-wrong-password');
    await openSection(page, 'Health');
    await expect.poll(() => obsStateLine(page), WAIT).toBe('OBS refused the password.');
    expect(await page.getByTestId('obs-strip').innerText()).toContain('OBS: wrong password');
  });

  it('refuses a port or host out of bounds at its field, naming the limit, and saves nothing', async () => {
    const before = (await value(w.world.panel.api.settings.get())).obs;
    await openSection(page, 'Settings');
    const f = form();
    await f.getByLabel('Port').fill('70000');
    await f.getByLabel('Host').fill('http://127.0.0.1:4455');
    await f.getByLabel(/^Password/).fill('typed and kept');
    const port = await f.getByLabel('Port').getAttribute('aria-describedby');
    expect(await page.locator(`[id="${port}"]`).textContent()).toBe('Must be between 1 and 65535.');
    await f.getByText('Use a name or an IP address, such as 127.0.0.1, without http:// or a port.').waitFor(WAIT);
    expect(await f.getByRole('button', { name: 'Save OBS connection' }).isDisabled()).toBe(true);
    await f.getByLabel('Port').press('Enter');
    expect((await value(w.world.panel.api.settings.get())).obs).toEqual(before);
    expect(await f.getByLabel(/^Password/).inputValue()).toBe('typed and kept');
  });
});
