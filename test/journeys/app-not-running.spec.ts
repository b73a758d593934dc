/**
 * Journey: Greenroom stops while its panel is open in a dock (docs/design-notes.md, "When Greenroom is not
 * running"). The built app, signed in through a standalone sandbox, goes live; the streamer types a message in
 * the panel in Chromium over the panel WebSocket. The app freezes as Send is clicked (SIGSTOP: the message is
 * on the socket, unanswered) and is then killed (SIGKILL). The panel must say "Greenroom is not running", end
 * the send at once in the app's name with the draft kept, disable Send, and blame nothing on Kick. While it is
 * down the stream ends on Kick. Started again on the same ports and data dir, the panel reconnects by itself:
 * no line from the outage is left, the header says what Kick says now ("Offline"), and a message sends. A
 * viewer's card left open when the app stops again keeps its note's Save off, with the same line; the note typed
 * meanwhile is still there after the next restart, and saves.
 *
 * Saves test-results/journeys/app-not-running.png (docs/screenshots/ with GREENROOM_UPDATE_SCREENSHOTS=1).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp } from './app-process';
import { connectPanel, newContext, openPanel } from './panel';
import { screenshot, startOverlayWorld, type OverlayWorld } from './overlay-fixtures';
import { STREAMER_USER_ID } from './sandbox-admin';

const WAIT = { timeout: 20_000 };
/** The backoff tops out at 15 s; the panel must be back within one more step without anyone reloading it. */
const RECONNECT = { timeout: 40_000 };
const DOCK = { width: 480, height: 760 };
/** Wording that would blame Kick for what the app did (renderer/src/lib/error-text.ts, Kick's codes). */
const BLAMES_KICK = /Kick did not answer|could not reach Kick|Kick had a problem|Kick is limiting|Kick refused/;

interface SandboxChat {
  messages: { content: string }[];
}

describe('journey: the app stops while the panel is open', () => {
  let world: OverlayWorld;
  let page: Page;
  const send = () => page.getByRole('button', { name: /^Send/ });
  const input = () => page.getByLabel('Chat message', { exact: true });
  const banner = () => page.getByRole('alert', { name: 'Connection to Greenroom' });
  const liveStatus = () => page.locator('header.top .live');
  const shownText = () => page.locator('body').innerText();
  const row = (id: string) => page.locator(`article[data-message-id="${id}"]`);
  /** Starts the app again on the same ports and data dir, as the streamer would. */
  const restart = async () => {
    const env = {
      ...world.sandbox.appEnv,
      GREENROOM_WEBHOOK_PORT: '',
      GREENROOM_PANEL_PORT: new URL(world.app.panelUrl).port,
    };
    world.panel.close();
    world.app = await startApp({ dataDir: world.dataDir, env });
    world.panel = connectPanel(world.app);
  };

  beforeAll(async () => {
    world = await startOverlayWorld();
    page = await openPanel(await newContext(world.browser, DOCK), world.app);
  });

  afterAll(async () => {
    // A frozen app would never hear the SIGTERM that close() sends.
    world?.app.child.kill('SIGCONT');
    await world?.close();
  });

  it('shows the channel live in the header while the app runs', async () => {
    await world.sandbox.admin.call('POST', `/channels/${STREAMER_USER_ID}/live`, { is_live: true });
    await liveStatus()
      .getByText(/^● LIVE · [\d,]+$/)
      .waitFor(WAIT);
    await input().fill('are you there?');
    expect(await send().isEnabled()).toBe(true);
  });

  it('says Greenroom is not running, ends the send in its name and disables Send, blaming nothing on Kick', async () => {
    world.app.child.kill('SIGSTOP');
    await send().click();
    await page.getByRole('button', { name: 'Sending…' }).waitFor(WAIT);
    await world.app.kill();

    await banner().getByText('Greenroom is not running — reconnecting').waitFor(WAIT);
    await banner()
      .getByText(/^Last tried at \d\d:\d\d:\d\d/)
      .waitFor(WAIT);
    await page.getByText(/^Not sent: Greenroom stopped/).waitFor(WAIT);
    expect(await input().inputValue()).toBe('are you there?');
    expect(await send().isDisabled()).toBe(true);
    expect(await input().isDisabled()).toBe(true);
    // What the header shows is what was true when the link dropped, and says so.
    expect(await liveStatus().innerText()).toMatch(/^LIVE · [\d,]+ as of \d\d:\d\d$/);
    // The Activity view's controls are off too (a wide window shows it beside chat; a dock behind its tab).
    await page.getByRole('tab', { name: 'Activity' }).click();
    const activity = page.getByRole('tabpanel');
    await activity.getByRole('button').first().waitFor(WAIT);
    expect(await activity.locator('button:enabled, input:enabled').count()).toBe(0);
    await page.getByRole('tab', { name: 'Chat' }).click();
    expect(await shownText()).not.toMatch(BLAMES_KICK);
    await screenshot(page, 'app-not-running');
  });

  it('after the restart, leaves no line from the outage and shows what Kick says now', async () => {
    // The stream ended on Kick while Greenroom was down.
    await world.sandbox.admin.call('POST', `/channels/${STREAMER_USER_ID}/live`, { is_live: false });
    await restart();

    await banner().waitFor({ state: 'detached', ...RECONNECT });
    await liveStatus()
      .getByText(/^Offline$/)
      .waitFor(WAIT);
    expect(await page.getByText(/Not sent|not running/).count()).toBe(0);
    expect(await shownText()).not.toMatch(BLAMES_KICK);

    expect(await send().isEnabled()).toBe(true);
    await send().click();
    await expect.poll(() => input().inputValue(), WAIT).toBe('');
    const chat = await world.sandbox.admin.call<SandboxChat>('GET', `/channels/${STREAMER_USER_ID}/chat`);
    // Sent once, now: the send the outage cut short was never replayed behind the streamer's back.
    expect(chat.messages.filter((m) => m.content === 'are you there?')).toHaveLength(1);
    expect(await shownText()).not.toMatch(BLAMES_KICK);
  });

  it('keeps a card’s note Save off while cut off, with the same line, and saves the note once back', async () => {
    const line = await world.sandbox.admin.chat('first time here', 100105);
    const name = row(line).locator('button.name');
    await name.waitFor(WAIT);
    const username = (await name.textContent())!.trim();
    await name.click();
    const card = page.getByRole('dialog', { name: username });
    const note = card.getByLabel(/Private note/);
    const save = card.getByRole('button', { name: 'Save note' });
    await note.waitFor(WAIT);

    await world.app.kill();
    await banner().waitFor(WAIT);
    await note.fill('ask about the raid');
    await card.getByText('Greenroom is not running — reconnecting.', { exact: true }).waitFor(WAIT);
    expect(await save.isDisabled()).toBe(true);
    expect(await card.getByRole('button', { name: 'Ignore', exact: true }).isDisabled()).toBe(true);

    await restart();
    await banner().waitFor({ state: 'detached', ...RECONNECT });
    await expect.poll(() => save.isEnabled(), WAIT).toBe(true);
    expect(await note.inputValue()).toBe('ask about the raid');
    await save.click();
    await expect.poll(() => save.isDisabled(), WAIT).toBe(true);
    expect(await shownText()).not.toMatch(BLAMES_KICK);
  });
});
