/**
 * Journey (docs/design-notes.md#other-moderators-bans-from-the-live-socket): the built app against a standalone
 * sandbox playing Kick's live socket, its webhooks held back, the panel in Chromium. The channel's moderator
 * times a viewer out on Kick itself: while the sandbox still holds the ban's webhook, the viewer's card says
 * "Timed out until …" with "on Kick by sandbox_mod" in its history, and so does the Mod log. When the webhook
 * comes, the Activity feed has the ban and the mod log still has it once. The streamer's unban from the card
 * clears it, one entry though the socket tells of it too.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSection } from '../helpers/panel-tabs';
import { startOverlayWorld, type OverlayWorld } from './overlay-fixtures';
import { waitUntilListening } from './live-socket-journey-fixtures';
import { openPanel, value } from './panel';
import { STREAMER_USER_ID } from './sandbox-admin';
import type { HeldDeliveries } from './webhooks-behind-fixtures';

const WAIT = { timeout: 20_000 };
/** Long enough to look at the card while the webhook is held, short enough to then wait for it. */
const DELAY_S = 20;
const ARRIVAL = { timeout: (DELAY_S + 40) * 1000, interval: 500 };
const VIEWER = 100107;
const MODERATOR = 100003;

describe("journey: another moderator's timeout, before Kick's webhook says so", () => {
  let world: OverlayWorld;
  let panel: Page;
  let username = '';

  const card = () => panel.getByRole('dialog', { name: username });
  const heldBans = async () =>
    (await world.sandbox.admin.call<HeldDeliveries>('GET', '/deliveries/pending')).messages.filter(
      (m) => m.event_type === 'moderation.banned',
    ).length;
  const entriesFor = async () =>
    (await value(world.panel.api.mod.log())).filter((a) => a.targetUserId === VIEWER && a.kind !== 'unban');

  beforeAll(async () => {
    world = await startOverlayWorld();
    panel = await openPanel(await world.browser.newContext({ viewport: { width: 1280, height: 900 } }), world.app);
    await value(world.panel.api.settings.update({ liveSocket: { enabled: true } }));
    await openSection(panel, 'Health');
    await panel
      .getByTestId('live-socket-state')
      .filter({ hasText: 'Connected: chat arrives the moment it is typed' })
      .waitFor(WAIT);
    // Subscribed too, not only connected: what the sandbox sends before its subscriptions reaches no socket.
    await waitUntilListening(world.sandbox.admin, WAIT.timeout);
    await world.sandbox.admin.call('POST', '/live-socket/settings', { webhook_delay_seconds: DELAY_S });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('shows the timeout on the card and in the mod log while its webhook is still held', async () => {
    const line = await world.sandbox.admin.chat('is this allowed?', VIEWER);
    const name = panel.locator(`article[data-message-id="${line}"] button.name`);
    await name.waitFor(WAIT);
    username = (await name.textContent())!.trim();
    await name.click();
    await card().waitFor(WAIT);
    expect(await card().getByTestId('user-standing').count()).toBe(0);

    await world.sandbox.admin.trigger('moderation.banned', {
      overrides: {
        banned_user: { user_id: VIEWER },
        moderator: { user_id: MODERATOR },
        metadata: { reason: 'calm down', expires_at: new Date(Date.now() + 10 * 60_000).toISOString() },
      },
    });
    await expect
      .poll(() => card().getByTestId('user-standing').textContent(), WAIT)
      .toMatch(/^Timed out until \d\d:\d\d$/);
    expect(await card().textContent()).toMatch(/timeout 10m — on Kick by sandbox_mod/);
    // Kick's webhook for it is still waiting at the sandbox.
    expect(await heldBans()).toBe(1);
    expect(world.recorder.deliveries.filter((d) => d.type === 'moderation.banned')).toHaveLength(0);

    await card().getByRole('button', { name: 'Close user card' }).click();
    await openSection(panel, 'Mod log');
    const log = panel.getByRole('region', { name: 'Mod log' });
    await log.getByText('on Kick by sandbox_mod').waitFor(WAIT);
    expect(await heldBans()).toBe(1);
  });

  it('adds no second entry when the webhook comes, and the feed has the ban', async () => {
    await expect.poll(heldBans, ARRIVAL).toBe(0);
    await expect
      .poll(() => world.recorder.acknowledged().filter((d) => d.type === 'moderation.banned').length, WAIT)
      .toBe(1);
    await openSection(panel, 'Activity');
    await panel.getByText(/was timed out for 10 min(ute)?s? by sandbox_mod/).waitFor(WAIT);
    expect(await entriesFor()).toHaveLength(1);
    await openSection(panel, 'Mod log');
    const log = panel.getByRole('region', { name: 'Mod log' });
    expect(await log.getByText('on Kick by sandbox_mod').count()).toBe(1);
  });

  it("lifts it from the card: one unban, though Kick's socket tells of it too", async () => {
    await panel.locator('article button.name', { hasText: username }).first().click();
    await card().getByTestId('user-standing').waitFor(WAIT);
    await card().press('u');
    await card()
      .getByTestId('user-standing')
      .waitFor({ state: 'detached', ...WAIT });
    const bans = await world.sandbox.admin.call<{ bans: { user_id: number }[] }>(
      'GET',
      `/channels/${STREAMER_USER_ID}/bans`,
    );
    expect(bans.bans.map((b) => b.user_id)).not.toContain(VIEWER);
    // The socket's UserUnbannedEvent for it went out, and a line after it on the same socket reached chat: the
    // unban's frame has been read, and it is still one unban, Greenroom's own.
    const frames = await world.sandbox.admin.call<{ frames: { event: string }[] }>('GET', '/live-socket/frames');
    expect(frames.frames.some((f) => f.event.endsWith('UserUnbannedEvent'))).toBe(true);
    const after = await world.sandbox.admin.chat('thanks, mods', VIEWER + 1);
    await expect
      .poll(async () => (await value(world.panel.api.chat.history())).some((m) => m.messageId === after), WAIT)
      .toBe(true);
    const unbans = (await value(world.panel.api.mod.log())).filter(
      (a) => a.targetUserId === VIEWER && a.kind === 'unban',
    );
    expect(unbans).toHaveLength(1);
    expect(unbans[0]!.elsewhere).toBeUndefined();
  });
});
