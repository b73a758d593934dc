/**
 * Journey: OBS overlays served by the built app, opened in Chromium as OBS's browser source
 * opens them, against a standalone sandbox.
 * - Alert box: a sub train of 20 gifted-sub events plays 20 alerts in order, one at a time, none dropped;
 *   Greenroom restarted halfway continues with the rest and repeats none (the same page reconnects, as an
 *   OBS source does).
 * - Chat box: a message deleted in the panel leaves the overlay at once; emotes come through Greenroom.
 * - Goal bar: follows move it.
 * - The overlay URL: a wrong key is refused; the key opens no panel page and no contract channel, and an
 *   overlay socket that asks for anything is closed without an answer.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { request } from 'undici';
import type { OverlaysView } from '../../shared/views';
import { backgroundImage, loadedImageWidth } from '../helpers/drawn-images';
import { screenshot, startOverlayWorld, WATCH_ALERTS, type OverlayWorld } from './overlay-fixtures';
import { openPanel, value } from './panel';
import { openSection } from '../helpers/panel-tabs';

const WAIT = { timeout: 30_000 };
const TRAIN = 20;

describe('journey: OBS overlays', () => {
  let world: OverlayWorld;
  let urls: OverlaysView['urls'];

  const openOverlay = async (url: string, size = { width: 800, height: 600 }): Promise<Page> => {
    const context = await world.browser.newContext({ viewport: size });
    const page = await context.newPage();
    await page.addInitScript(WATCH_ALERTS);
    await page.goto(url);
    await page.locator('main[data-status="open"]').waitFor(WAIT);
    return page;
  };

  beforeAll(async () => {
    world = await startOverlayWorld();
    urls = (await value(world.panel.api.overlays.info())).urls;
  });

  afterAll(async () => {
    await world?.close();
  });

  it('refuses a wrong overlay key, and the key opens nothing of the panel', async () => {
    const url = new URL(urls.alerts!);
    const key = url.searchParams.get('key')!;
    expect((await request(`${url.origin}/overlay/alerts?key=wrong`)).statusCode).toBe(403);
    expect((await request(`${url.origin}/?token=${key}`)).statusCode).toBe(403);
    expect((await request(`${url.origin}/overlay/alerts?key=${key}`)).statusCode).toBe(200);

    // The panel socket does not take the overlay key.
    const panelSocket = new WebSocket(`ws://${url.host}/ws`, { origin: url.origin });
    await new Promise((resolve) => panelSocket.once('open', resolve));
    panelSocket.send(JSON.stringify({ type: 'hello', token: key }));
    const panelCode = await new Promise<number>((resolve) => panelSocket.once('close', (code) => resolve(code)));
    expect(panelCode).toBe(4401);

    // An overlay socket receives its feed; a request for settings or a write closes it, unanswered.
    for (const channel of ['settings:get', 'chat:send', 'mod:ban']) {
      const socket = new WebSocket(`ws://${url.host}/overlay/ws?kind=chat&key=${key}`, { origin: url.origin });
      const frames: string[] = [];
      socket.on('message', (data: Buffer) => frames.push(data.toString('utf8')));
      await new Promise((resolve) => socket.once('open', resolve));
      socket.send(JSON.stringify({ type: 'invoke', id: 1, channel, args: [{ content: 'x', userId: 100100 }] }));
      const code = await new Promise<number>((resolve) => socket.once('close', (closeCode) => resolve(closeCode)));
      expect(code).toBe(1008);
      expect(frames.map((f) => (JSON.parse(f) as { type: string }).type)).toEqual(['config', 'chat']);
      expect(frames.join('')).not.toMatch(/clientId|redirectUri|"result"/);
    }
    // What OBS shows for an old URL: one plain line, nothing else loads.
    const refusedPage = await (await world.browser.newContext({ viewport: { width: 800, height: 200 } })).newPage();
    const answer = await refusedPage.goto(`${url.origin}/overlay/alerts?key=wrong`);
    expect(answer?.status()).toBe(403);
    await refusedPage.getByText('this overlay URL is not valid').waitFor(WAIT);
    await screenshot(refusedPage, 'overlay-wrong-key');

    const wrong = new WebSocket(`ws://${url.host}/overlay/ws?kind=chat&key=wrong`, { origin: url.origin });
    const refused = await new Promise((resolve) =>
      wrong.once('unexpected-response', (_, res) => resolve(res.statusCode)),
    );
    expect(refused).toBe(403);
  });

  it('plays a sub train of 20 gifts one at a time, in order; a restart halfway repeats none', async () => {
    await world.updateOverlays((settings) => {
      settings.alerts['gifted-subs'].durationMs = 1000;
    });
    const page = await openOverlay(urls.alerts!);
    await world.sandbox.admin.trigger('channel.subscription.gifts', { count: TRAIN });
    const alerts = (): Promise<string[]> => page.evaluate<string[]>('window.__alerts');
    await expect.poll(async () => (await alerts()).length, WAIT).toBeGreaterThanOrEqual(3);
    // For the README: an alert fully in, past its 300 ms entrance.
    const seen = (await alerts()).length;
    await expect.poll(async () => (await alerts()).length, WAIT).toBeGreaterThan(seen);
    await page.waitForTimeout(350);
    await screenshot(page, 'overlay-alert', true);
    await expect.poll(async () => (await alerts()).length, WAIT).toBeGreaterThanOrEqual(TRAIN / 2);

    await world.restart();
    await expect.poll(async () => (await alerts()).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(TRAIN);
    // A little longer: a repeat would show up now.
    await new Promise((resolve) => setTimeout(resolve, 2500));

    // The order Greenroom received them in: its activity feed, restored from the journal.
    const feed = await value(world.panel.api.feed.history());
    const gifts = feed.filter((item) => item.kind === 'gifted-subs').map((item) => item.id);
    expect(gifts).toHaveLength(TRAIN);
    expect(await alerts()).toEqual(gifts);
    expect(await page.evaluate('window.__mostAtOnce')).toBe(1);
    // Twenty one-second alerts, a restart and the wait for repeats take about 25 s alone; a loaded CI
    // machine doubles that, so the journey's usual minute is too short here.
  }, 150_000);

  it('removes a message deleted in the panel from the chat box at once', async () => {
    await world.updateOverlays((settings) => {
      settings.chat.fadeAfterSec = 0;
    });
    const page = await openOverlay(urls.chat!, { width: 400, height: 600 });
    const ids: string[] = [];
    for (const [line, viewer] of [
      ['hello from the overlay journey [emote:37226:KEKW]', 100100],
      ['this one gets deleted', 100101],
      ['GG everyone', 100102],
    ] as const) {
      ids.push(await world.sandbox.admin.chat(line, viewer));
    }
    for (const id of ids) {
      await page.locator(`[data-message-id="${id}"]`).waitFor(WAIT);
    }
    // The emote comes through Greenroom, not from Kick's CDN: the page loads nothing from outside the machine.
    // It is drawn as the background of a box named like an image (renderer/src/lib/emote-images.ts).
    const emote = page.locator(`[data-message-id="${ids[0]}"]`).getByRole('img', { name: 'KEKW' });
    const url = /^url\("(.*)"\)$/.exec(await backgroundImage(emote))?.[1] ?? '';
    expect(new URL(url).pathname).toBe('/overlay/emotes/37226/fullsize');
    expect(await loadedImageWidth(page, url)).toBeGreaterThan(0);
    await screenshot(page, 'overlay-chat', true);
    await value(world.panel.api.chat.delete({ messageId: ids[1]! }));
    await page.locator(`[data-message-id="${ids[1]}"]`).waitFor({ ...WAIT, state: 'detached' });
    expect(await page.locator('[data-message-id]').count()).toBe(2);
  });

  it('manages overlays from the panel in a 340 px OBS dock', async () => {
    const context = await world.browser.newContext({ viewport: { width: 340, height: 900 }, colorScheme: 'dark' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await openPanel(context, world.app);
    await openSection(page, 'Overlays');
    const section = page.getByRole('region', { name: 'Overlays' });
    await section.getByRole('button', { name: 'Copy URL' }).first().click();
    await section.getByText('Alert box URL copied.').waitFor(WAIT);
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(urls.alerts);
    // Nothing wider than the dock: no sideways scrolling in the panel.
    const overflow = await page.evaluate(
      `[...document.querySelectorAll('.tab-panel')].some((el) => el.scrollWidth > el.clientWidth + 1)`,
    );
    expect(overflow).toBe(false);
    await section.getByRole('img', { name: 'Preview' }).waitFor(WAIT);
    await screenshot(page, 'overlays-dock');
  });

  it('moves the goal bar with follows', async () => {
    await world.updateOverlays((settings) => {
      settings.goal = { metric: 'follows', label: 'Follower goal', target: 10, customValue: 0 };
    });
    const page = await openOverlay(urls.goal!, { width: 600, height: 120 });
    const bar = page.getByRole('progressbar', { name: 'Follower goal' });
    await bar.waitFor(WAIT);
    const before = Number(await bar.getAttribute('aria-valuenow'));
    await world.sandbox.admin.trigger('channel.followed', { count: 3 });
    await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), WAIT).toBe(before + 3);
    await page.waitForTimeout(700);
    await screenshot(page, 'overlay-goal', true);
  });
});
