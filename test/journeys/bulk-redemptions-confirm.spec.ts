/**
 * Journey: bulk accept of redemptions asks first and says how it went (docs/panel-in-a-browser.md,
 * "Confirms and results"). The built app, signed in through a standalone sandbox, its panel in Chromium.
 * Five viewers redeem the same reward. Select all, Accept 5: a dialog asks "Accept 5 redemptions of
 * <reward>?"; Cancel, and Escape, leave all five waiting at Kick (the sandbox) and in the queue. Confirmed,
 * Kick records five accepted and a toast says "5 accepted". Before this, Accept 5 acted at once and said nothing.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newContext, openPanel } from './panel';
import { screenshot, startOverlayWorld, type OverlayWorld } from './overlay-fixtures';
import { STREAMER_USER_ID } from './sandbox-admin';
import { openTab } from './tabs-fixtures';

const WAIT = { timeout: 20_000 };
const VIEWERS = [100101, 100102, 100103, 100104, 100105];

interface SandboxRedemptions {
  redemptions: { id: string; reward_id: string; status: string }[];
}

describe('journey: bulk accept asks first and ends with a toast', () => {
  let world: OverlayWorld;
  let page: Page;
  let rewardTitle: string;

  const statuses = async (): Promise<string[]> => {
    const { redemptions } = await world.sandbox.admin.call<SandboxRedemptions>(
      'GET',
      `/channels/${STREAMER_USER_ID}/redemptions`,
    );
    return redemptions.map((r) => r.status);
  };

  beforeAll(async () => {
    world = await startOverlayWorld();
    const first = await world.sandbox.admin.call<{ reward_id: string }>(
      'POST',
      `/channels/${STREAMER_USER_ID}/redemptions`,
      { user_id: VIEWERS[0], user_input: 'bulk journey 1' },
    );
    for (const [i, viewer] of VIEWERS.slice(1).entries()) {
      await world.sandbox.admin.call('POST', `/channels/${STREAMER_USER_ID}/redemptions`, {
        reward_id: first.reward_id,
        user_id: viewer,
        user_input: `bulk journey ${i + 2}`,
      });
    }
    page = await openPanel(await newContext(world.browser), world.app);
    await openTab(page, 'Redemptions');
    const queue = page.getByRole('tabpanel', { name: /^Redemptions/ });
    // All five are in the queue (the last one's row is there).
    await queue
      .locator('[data-redemption-id]')
      .nth(VIEWERS.length - 1)
      .waitFor(WAIT);
    rewardTitle = (await queue.locator('.group h3').first().textContent())!.trim();
  });

  afterAll(async () => {
    await world?.close();
  });

  it('asks to confirm, naming the count and the reward; Cancel and Escape leave all five waiting', async () => {
    const queue = page.getByRole('tabpanel', { name: /^Redemptions/ });
    await queue.getByRole('checkbox', { name: 'Select all', exact: true }).check();
    await queue.getByRole('button', { name: 'Accept 5' }).click();
    const dialog = page.getByRole('alertdialog', { name: `Accept 5 redemptions of “${rewardTitle}”?` });
    await dialog.waitFor(WAIT);
    await screenshot(page, 'bulk-accept-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached', ...WAIT });

    await queue.getByRole('button', { name: 'Accept 5' }).click();
    await dialog.waitFor(WAIT);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', ...WAIT });

    expect(await statuses()).toEqual(['pending', 'pending', 'pending', 'pending', 'pending']);
    expect(await queue.locator('[data-redemption-id]').count()).toBe(5);
    expect(await page.getByRole('region', { name: 'Results' }).textContent()).toBe('');
  });

  it('accepts all five once confirmed, and a toast says how many', async () => {
    const queue = page.getByRole('tabpanel', { name: /^Redemptions/ });
    await queue.getByRole('button', { name: 'Accept 5' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Accept 5 redemptions' }).click();
    const results = page.getByRole('region', { name: 'Results' });
    await results.getByText('5 accepted').waitFor(WAIT);
    await screenshot(page, 'bulk-accept-result');
    expect(await statuses()).toEqual(['accepted', 'accepted', 'accepted', 'accepted', 'accepted']);
    await queue.getByText('No pending redemptions.').waitFor(WAIT);
  });
});
