/**
 * Journey: Pop out chat in the panel in a browser (docs/panel-in-a-browser.md, "Pop out chat and the
 * companion"). The built app, signed in through a standalone sandbox, its panel in Chromium over the panel
 * server's WebSocket, as in an OBS dock or a browser tab. Pop out chat opens a new window of that browser
 * showing the chat view alone, connected, its address never carrying the token (it comes from the tab's
 * session storage, so none lands in the browser's history), and a viewer's message
 * from the sandbox arrives there live. With pop-ups blocked (`window.open` gives null, as a blocker and an
 * OBS dock do), the panel says the window did not open, with the link, and that link opened by hand is the
 * live chat view too. Before this, the button sent a request only the desktop window answers: nothing opened.
 *
 * Saves test-results/journeys/pop-out-chat*.png (docs/screenshots/ with GREENROOM_UPDATE_SCREENSHOTS=1).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newContext, openPanel } from './panel';
import { screenshot, startOverlayWorld, type OverlayWorld } from './overlay-fixtures';

const WAIT = { timeout: 20_000 };
const VIEWER = 100101;

/** Resolves once `page` shows chat alone (no section tabs) and a viewer's message sent now arrives in it. */
async function showsLiveChat(page: Page, world: OverlayWorld, text: string): Promise<void> {
  const log = page.getByRole('log', { name: 'Chat messages' });
  await log.waitFor(WAIT);
  expect(await page.getByRole('tablist', { name: 'Sections' }).count()).toBe(0);
  const id = await world.sandbox.admin.chat(text, VIEWER);
  await log.locator(`article[data-message-id="${id}"]`).waitFor(WAIT);
}

describe('journey: Pop out chat in a browser', () => {
  let world: OverlayWorld;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    world = await startOverlayWorld();
    context = await newContext(world.browser);
    page = await openPanel(context, world.app);
  });

  afterAll(async () => {
    await world?.close();
  });

  it('opens the chat view in a new window, connected, with live chat from the sandbox', async () => {
    // Every page load from here on: the popped-out window's first address must not carry the token.
    const loads: string[] = [];
    context.on('request', (request) => {
      if (request.resourceType() === 'document') {
        loads.push(request.url());
      }
    });
    const popup = page.waitForEvent('popup', WAIT);
    await page.getByRole('button', { name: 'Pop out chat' }).click();
    const chat = await popup;
    await showsLiveChat(chat, world, 'hello from the popped-out chat');
    const address = new URL(chat.url());
    expect(address.hash).toBe('#/chat');
    // It connected with the token from this tab's session storage: never in its address, nor its history.
    expect(address.searchParams.get('token')).toBeNull();
    expect(loads.length).toBeGreaterThan(0);
    expect(loads.filter((url) => new URL(url).searchParams.has('token'))).toEqual([]);
    expect(await chat.evaluate('history.length')).toBe(1);
    expect(await page.getByRole('alert', { name: /did not open/ }).count()).toBe(0);
    await chat.setViewportSize({ width: 420, height: 720 });
    await screenshot(chat, 'pop-out-chat');
    await chat.close();

    // Once more, now that the panel has its dock URL (whose token the link opened by hand carries): the
    // window it opens still loads without the token.
    loads.length = 0;
    const again = page.waitForEvent('popup', WAIT);
    await page.getByRole('button', { name: 'Pop out chat' }).click();
    const reopened = await again;
    await showsLiveChat(reopened, world, 'hello again from the popped-out chat');
    expect(loads.length).toBeGreaterThan(0);
    expect(loads.filter((url) => new URL(url).searchParams.has('token'))).toEqual([]);
    await reopened.close();
  });

  it('says so with the link when pop-ups are blocked, and the link opened by hand is the chat view', async () => {
    const blocked = await context.newPage();
    await blocked.addInitScript('window.open = () => null;');
    await blocked.goto(world.app.panelUrl);
    await blocked.getByRole('tablist', { name: 'Sections' }).waitFor(WAIT);
    const opened: Page[] = [];
    context.on('page', (p) => opened.push(p));
    await blocked.getByRole('button', { name: 'Pop out chat' }).click();
    const notice = blocked.getByRole('alert', { name: 'The chat window did not open' });
    await notice.waitFor(WAIT);
    expect(await notice.textContent()).toContain('This browser blocks pop-ups');
    expect(opened).toEqual([]);
    const href = await notice.getByRole('link', { name: 'Open the chat window' }).getAttribute('href');
    expect(await notice.locator('code').textContent()).toBe(href);
    await screenshot(blocked, 'pop-out-chat-blocked');

    const byHand = await context.newPage();
    await byHand.goto(href!);
    await showsLiveChat(byHand, world, 'hello from the chat opened by hand');
  });
});
