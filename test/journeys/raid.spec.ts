/**
 * Journey (docs/overlays.md#raids): the built app, signed in against a standalone sandbox that plays Kick's
 * live socket, with the alert box overlay and the panel in Chromium. The sandbox raids the channel
 * (`POST /live-socket/host`: the host twice, as Kick sends it): the alert box plays one raid alert with the
 * viewers, Activity shows one raid entry, and the bot's welcome is in chat once; after a restart the raid is
 * in Activity once, and neither its alert nor its welcome comes again. Screenshots of the alert and the panel
 * go to docs/screenshots/raid-*.png when asked to update them.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CHAT_BOT_SETTINGS } from '../../shared/chat-bot';
import { openSection } from '../helpers/panel-tabs';
import { screenshot, startOverlayWorld, WATCH_ALERTS, type OverlayWorld } from './overlay-fixtures';
import { waitUntilListening } from './live-socket-journey-fixtures';
import { openPanel, value } from './panel';
import { STREAMER_USER_ID } from './sandbox-admin';

const WAIT = { timeout: 30_000 };
const WELCOME = 'Welcome raiders from xqc_sb!';

interface SandboxChat {
  messages: { content: string; type: string }[];
}

describe('journey: an incoming raid', () => {
  let world: OverlayWorld;
  let box: Page;
  let panel: Page;

  const botLines = async (): Promise<string[]> =>
    (await world.sandbox.admin.call<SandboxChat>('GET', `/channels/${STREAMER_USER_ID}/chat?limit=200`)).messages
      .filter((m) => m.type === 'bot')
      .map((m) => m.content);
  const alertsShown = (): Promise<string[]> => box.evaluate<string[]>('window.__alerts');

  /** Connected, and subscribed: a raid sent before its room's subscription would reach no socket. */
  const connected = async () => {
    await vi.waitFor(
      async () => expect((await value(world.panel.api.health.snapshot())).liveSocket?.state).toBe('connected'),
      { ...WAIT, interval: 200 },
    );
    await waitUntilListening(world.sandbox.admin, WAIT.timeout);
  };

  beforeAll(async () => {
    world = await startOverlayWorld();
    const chatBot = structuredClone(DEFAULT_CHAT_BOT_SETTINGS);
    chatBot.replies.raid = { ...chatBot.replies.raid, enabled: true, combineSec: 0 };
    // Set, not left to the default: raids come only from Kick's live chat connection.
    await value(world.panel.api.settings.update({ chatBot, liveSocket: { enabled: true } }));
    await connected();
    const urls = (await value(world.panel.api.overlays.info())).urls;
    const context = await world.browser.newContext({ viewport: { width: 800, height: 450 } });
    box = await context.newPage();
    await box.addInitScript(WATCH_ALERTS);
    await box.goto(urls.alerts!);
    await box.locator('main[data-status="open"]').waitFor(WAIT);
    panel = await openPanel(await world.browser.newContext({ viewport: { width: 1280, height: 800 } }), world.app);
  });

  afterAll(async () => {
    await world?.close();
  });

  it('plays one raid alert with the viewers, shows one feed entry, and welcomes the raiders once', async () => {
    const answer = await world.sandbox.admin.call<{ frames: string[] }>('POST', '/live-socket/host', {
      host_username: 'xqc_sb',
      viewers: 120,
    });
    // Kick's two copies of one host: one raid of them.
    expect(answer.frames).toHaveLength(2);

    const alert = box.locator('[data-alert-id^="raid:"]');
    await alert.getByText('xqc_sb is raiding with 120 viewers!').waitFor(WAIT);
    // For the README: the alert fully in, its entrance animations finished (a looping one never does).
    await alert.evaluate(`(element) => Promise.all(
      element
        .getAnimations({ subtree: true })
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        .map((animation) => animation.finished),
    )`);
    await screenshot(box, 'raid-alert', true);

    await openSection(panel, 'Activity');
    const raids = panel.getByRole('region', { name: 'Activity' }).getByRole('listitem').filter({ hasText: 'raided' });
    await raids.getByText('xqc_sb raided with 120 viewers').waitFor(WAIT);

    await expect.poll(async () => (await botLines()).filter((line) => line === WELCOME).length, WAIT).toBe(1);
    const chat = panel.getByRole('region', { name: 'Chat' });
    await chat.getByText(WELCOME).first().waitFor(WAIT);

    // A viewer's line after the welcome, through the socket and its webhook: once it shows, the welcome's
    // own webhook has had its turn, and still one welcome line, one alert, one feed entry.
    await world.sandbox.admin.chat('o7 raiders', 100101);
    await chat.getByText('o7 raiders').waitFor(WAIT);
    await expect.poll(() => world.sandbox.admin.counts().then((c) => c.pendingDeliveries), WAIT).toBe(0);
    expect(await chat.getByText(WELCOME).count()).toBe(1);
    expect((await botLines()).filter((line) => line === WELCOME)).toHaveLength(1);
    expect((await alertsShown()).filter((id) => id.startsWith('raid:'))).toHaveLength(1);
    expect(await raids.count()).toBe(1);
    await screenshot(panel, 'raid-panel');
  });

  it('after a restart shows the raid once, and neither plays its alert nor welcomes again', async () => {
    // Its alert done first: one cut off by a restart is not played again either way.
    await box.locator('[data-alert-id^="raid:"]').waitFor({ ...WAIT, state: 'detached' });
    await world.restart();
    await connected();
    const raidsInFeed = async () =>
      (await value(world.panel.api.feed.history())).filter((item) => item.kind === 'raid').map((item) => item.text);
    expect(await raidsInFeed()).toEqual(['xqc_sb raided with 120 viewers']);

    // A second raid, as a fence: alerts play and the bot posts in order, so a repeat would come before it.
    await world.sandbox.admin.call('POST', '/live-socket/host', { host_username: 'adinross_sb', viewers: 3 });
    await box.locator('[data-alert-id^="raid:"]').getByText('adinross_sb is raiding with 3 viewers!').waitFor(WAIT);
    await expect
      .poll(async () => (await botLines()).filter((line) => line.startsWith('Welcome raiders')), WAIT)
      .toEqual([WELCOME, 'Welcome raiders from adinross_sb!']);
    expect((await alertsShown()).filter((id) => id.startsWith('raid:'))).toHaveLength(2);
    expect(await raidsInFeed()).toEqual(['xqc_sb raided with 120 viewers', 'adinross_sb raided with 3 viewers']);
  });
});
