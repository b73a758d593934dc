/**
 * Journey: the panel by the keyboard alone ([Keyboard shortcuts](../../docs/design-notes.md#keyboard-shortcuts)).
 * The built app on its embedded sandbox, the panel in Chromium, never a click: sign in, open a chatter's user
 * card from chat and time them out, search chat, accept a redemption, enroll in ads and run an ad break once live. At every
 * focus stop on the way the focus must show (`:focus-visible` with a drawn outline).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SETTINGS_FILE_NAME } from '../../electron/app/settings';
import { KICK_EVENT_TYPES } from '../../shared/kick/scopes';
import { type AppRun, killLeftovers, startApp } from './app-process';
import { type FocusStop, focusStop, tabTo } from './keyboard-fixtures';
import { connectPanel, newContext, openPanel, type PanelClient, value } from './panel';
import { embeddedSandbox, type SandboxAdmin, STREAMER_USER_ID } from './sandbox-admin';
import { launchWithScrollbars } from './tabs-fixtures';
import { freePort } from './webhook-recorder';

const WAIT = { timeout: 30_000 };
const VIEWER = 100105;

describe('journey: keyboard only', () => {
  let dataDir: string;
  let browser: Browser;
  let app: AppRun;
  let admin: SandboxAdmin;
  let panel: PanelClient;
  let page: Page;
  const stops: FocusStop[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'greenroom-journey-keyboard-'));
    writeFileSync(
      join(dataDir, `${SETTINGS_FILE_NAME}.json`),
      JSON.stringify({ redirectUri: `http://127.0.0.1:${await freePort()}/callback`, setupGuideDone: true }),
    );
    browser = await launchWithScrollbars();
    app = await startApp({ dataDir });
    admin = await embeddedSandbox(app);
    panel = connectPanel(app);
    page = await openPanel(await newContext(browser, { width: 1280, height: 860 }), app);
  }, 120_000);

  afterAll(async () => {
    panel?.close();
    await browser?.close();
    await app?.stop();
    await killLeftovers();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('signs in, moderates, accepts a redemption and runs an ad break with the focus always shown', async () => {
    // Sign in: the panel's button by Tab and Enter; the printed link opens in the streamer's browser,
    // where Kick's consent is approved with Enter.
    const from = app.stdout.lines.length;
    await tabTo(page, /^Sign in with Kick$/, stops);
    await page.keyboard.press('Enter');
    const link = (await app.stdout.waitFor(/^Open this link to continue: (\S+)$/, { from }))[1]!;
    const kick = await page.context().newPage();
    await kick.goto(link);
    const approve = kick.getByRole('button', { name: 'Approve' });
    const done = kick.getByText('You can close this tab');
    await approve.or(done).first().waitFor(WAIT);
    if (await approve.isVisible()) {
      await approve.press('Enter');
    }
    await done.waitFor(WAIT);
    await kick.close();
    await page.bringToFront();
    await page.getByRole('region', { name: 'Sign in' }).waitFor({ state: 'detached', ...WAIT });
    await vi.waitFor(async () => expect((await admin.counts()).eventSubscriptions).toBe(KICK_EVENT_TYPES.length), WAIT);

    // Moderate from the user card: Alt+C puts the caret in chat; Shift+Tab walks back to the chatter's name.
    await admin.chat('keyboard journey hello', VIEWER);
    const line = page.locator('article.msg', { hasText: 'keyboard journey hello' }).first();
    await line.waitFor(WAIT);
    const username = (await line.locator('button.name').textContent())!.trim();
    await page.keyboard.press('Alt+KeyC');
    await tabTo(page, new RegExp(`^${username}$`), stops, { back: true });
    await page.keyboard.press('Enter');
    const card = page.getByRole('dialog', { name: username });
    await card.waitFor(WAIT);
    await tabTo(page, new RegExp(`^Time out ${username} for`), stops);
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => (await value(panel.api.mod.log())).some((a) => a.kind === 'timeout'), WAIT)
      .toBe(true);
    await page.keyboard.press('Escape');
    await card.waitFor({ state: 'detached', ...WAIT });

    // Search chat: Alt+F from the chat box puts the caret in the search box; Esc closes it, back in chat.
    await page.keyboard.press('Alt+KeyC');
    await page.keyboard.press('Alt+KeyF');
    const search = page.getByRole('searchbox', { name: 'Search chat' });
    const focusedId = () => page.evaluate<string>('document.activeElement?.id ?? ""');
    await expect.poll(focusedId, WAIT).toBe('chat-search');
    stops.push(await focusStop(page));
    await page.keyboard.type('journey hello');
    await page.getByText('1 found').waitFor(WAIT);
    await line.waitFor(WAIT);
    await page.keyboard.press('Escape');
    await search.waitFor({ state: 'detached', ...WAIT });
    expect(await focusedId()).toBe('chat-input');

    // Accept a redemption: Alt+3 opens Redemptions (chat sits beside the sections in a wide window).
    await admin.trigger('channel.reward.redemption.updated');
    await page.keyboard.press('Alt+Digit3');
    const accept = page.getByRole('button', { name: /^Accept .*'s redemption$/ }).first();
    await accept.waitFor(WAIT);
    await tabTo(page, /^Accept .*'s redemption$/, stops);
    await page.keyboard.press('Enter');
    await accept.waitFor({ state: 'detached', ...WAIT });

    // Ads: Alt+5; enroll while offline, then go live and run a break, confirmed from the keyboard.
    await page.keyboard.press('Alt+Digit5');
    // The section draws its buttons once Kick's ad settings arrive; a Tab before that can land on a button that goes.
    await page.getByRole('button', { name: 'Enroll' }).waitFor(WAIT);
    await tabTo(page, /^Enroll$/, stops);
    await page.keyboard.press('Enter');
    await page.getByText('Enrolled Yes').waitFor(WAIT);
    await admin.call('POST', `/channels/${STREAMER_USER_ID}/live`, { is_live: true });
    const run = page.getByRole('button', { name: 'Run ad break' });
    await expect.poll(() => run.isEnabled(), WAIT).toBe(true);
    await tabTo(page, /^Run ad break$/, stops);
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('alertdialog');
    await confirm.waitFor(WAIT);
    // Focus starts on Cancel; the action is the control before it.
    await tabTo(page, /^Start the ad break$/, stops, { back: true, max: 3 });
    await page.keyboard.press('Enter');
    await page.getByRole('timer', { name: 'Ad break time left' }).waitFor(WAIT);

    const hidden = stops.filter((s) => !s.visible);
    console.log(`keyboard journey: ${stops.length} focus stops, ${hidden.length} without a visible focus`);
    expect(hidden).toEqual([]);
  }, 180_000);
});
