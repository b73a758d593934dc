/**
 * Journey (docs/settings.md#kicks-live-chat-connection): the built app, signed in against a standalone
 * sandbox that plays Kick's live socket, with the panel in Chromium. Health says in plain words that the live
 * chat connection is up; the sandbox drops the socket with 4200 and then cuts it, and Health shows it back by
 * itself; switching it off in Settings turns it off in Health, and on again brings it back.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSection } from '../helpers/panel-tabs';
import { startOverlayWorld, type OverlayWorld } from './overlay-fixtures';
import { openPanel, value } from './panel';

const WAIT = { timeout: 20_000 };
const CONNECTED = 'Connected: chat arrives the moment it is typed';

describe("journey: Kick's live chat connection", () => {
  let world: OverlayWorld;
  let panel: Page;

  const state = () => panel.getByTestId('live-socket-state');
  const reconnects = async (): Promise<number> => {
    const text = await panel
      .getByRole('region', { name: "Kick's live chat connection" })
      .locator('details')
      .textContent();
    return Number(/(\d+) reconnects/.exec(text ?? '')?.[1] ?? -1);
  };

  beforeAll(async () => {
    world = await startOverlayWorld();
    panel = await openPanel(await world.browser.newContext({ viewport: { width: 1280, height: 900 } }), world.app);
    // Set, not left to the default (on since the socket-first fixes): the journey does not depend on it.
    await value(world.panel.api.settings.update({ liveSocket: { enabled: true } }));
  });
  afterAll(async () => {
    await world?.close();
  });

  it('shows the connection up in Health, in plain words', async () => {
    await openSection(panel, 'Health');
    await expect.poll(() => state().textContent(), WAIT).toBe(CONNECTED);
    const region = panel.getByRole('region', { name: "Kick's live chat connection" });
    expect(await region.textContent()).toContain('webhooks stay the record');
  });

  it('comes back by itself after 4200 and after a cut connection', async () => {
    for (const [code, count] of [
      [4200, 1],
      ['cut', 2],
    ] as const) {
      await world.sandbox.admin.call('POST', '/live-socket/drop', { code });
      await expect.poll(reconnects, WAIT).toBe(count);
      await expect.poll(() => state().textContent(), WAIT).toBe(CONNECTED);
    }
  });

  it('turns off from Settings and on again, without a restart', async () => {
    await value(world.panel.api.settings.update({ liveSocket: { enabled: false } }));
    await expect.poll(() => state().textContent(), WAIT).toBe('Off');
    await openSection(panel, 'Settings');
    const toggle = panel.getByRole('checkbox', { name: /unofficial; webhooks stay the record/ });
    expect(await toggle.isChecked()).toBe(false);
    await toggle.check();
    await openSection(panel, 'Health');
    await expect.poll(() => state().textContent(), WAIT).toBe(CONNECTED);
  });
});
