/**
 * The panel in a 340 px OBS dock, through the panel server in Debian's Chromium against the embedded sandbox:
 * signing in when no browser opened by itself (the link is shown, copied and opened from the dock), the
 * header naming the account and its channel, the chat pane saying why chat cannot arrive yet, and
 * redemptions keeping the viewer's name in a panel opened later and after a reload.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultReward, redeemAsViewer } from '../../sandbox/admin/generate-redemption';
import { triggerEvent } from '../../sandbox/triggers';
import { type E2E, flushDeliveries, startE2E } from './harness';
import { STREAMER_USER_ID } from './sign-in';
import { openSection } from '../helpers/panel-tabs';

const WAIT = { timeout: 15_000, interval: 100 };

describe('in a 340 px OBS dock', () => {
  let e2e: E2E;
  let page: Page;

  beforeAll(async () => {
    e2e = await startE2E({ viewport: { width: 340, height: 700 } });
    page = e2e.page;
    await e2e.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(e2e.launched.panel!.url).origin,
    });
  });
  afterAll(() => e2e?.close());

  it('says why no chat can arrive before sign-in, instead of promising messages', async () => {
    const notice = page.getByRole('status', { name: 'Why chat is not arriving' });
    await notice.waitFor(WAIT);
    expect(await notice.textContent()).toContain('Sign in with Kick');
    expect(await page.getByRole('log', { name: 'Chat messages' }).textContent()).not.toContain('as they arrive');
  });

  it('signs in from the dock with the link it shows, when no browser opened by itself', async () => {
    // The harness's "system browser" opens a tab by itself; it is left unused, as if nothing had opened.
    const autoOpened = e2e.context.waitForEvent('page', WAIT);
    await page.getByRole('button', { name: 'Sign in with Kick' }).click();
    await (await autoOpened).getByRole('button', { name: 'Approve' }).waitFor(WAIT);
    await page.bringToFront();

    const region = page.getByRole('region', { name: 'Sign-in link' });
    await region.waitFor(WAIT);
    const link = (await region.locator('code').textContent()) ?? '';
    expect(link.startsWith(`${e2e.sandbox.urls.auth}/oauth/authorize?`)).toBe(true);
    expect(new URL(link).searchParams.get('code_challenge_method')).toBe('S256');
    await e2e.screenshot('sign-in-dock');

    await region.getByRole('button', { name: 'Copy link' }).click();
    await region.getByText('Copied.').waitFor(WAIT);
    // A string, since this file is typed for Node, which has no clipboard.
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(link);

    const opening = e2e.context.waitForEvent('page', WAIT);
    await region.getByRole('button', { name: 'Open link' }).click();
    const consent = await opening;
    await consent.getByRole('button', { name: 'Approve' }).waitFor(WAIT);
    expect(consent.url()).toBe(link);
    await consent.getByLabel('Sign in as').selectOption(String(STREAMER_USER_ID));
    await consent.getByRole('button', { name: 'Approve' }).click();
    await consent.getByText('You can close this tab').waitFor(WAIT);
    await consent.close();
    await page.bringToFront();

    await region.waitFor({ state: 'detached', ...WAIT });
    await page.getByRole('button', { name: /^Signed in as sandbox_streamer ?, acting on kick\.com\// }).waitFor(WAIT);
  });

  it('gives the message its own line and keeps Send at the right, below it, however long the message', async () => {
    const input = page.getByRole('textbox', { name: 'Chat message' });
    await expect.poll(() => input.isEnabled(), WAIT).toBe(true);
    const boxOf = async (what: string, locator: ReturnType<Page['locator']>) => {
      const found = await locator.boundingBox();
      if (!found) {
        throw new Error(`${what} is not on screen`);
      }
      return found;
    };
    const middle = (box: { y: number; height: number }): number => box.y + box.height / 2;
    const layout = async () => ({
      field: await boxOf('the message input', input),
      sendAs: await boxOf('"Send as"', page.getByRole('group', { name: 'Send as', exact: true })),
      counter: await boxOf('the counter', page.locator('#chat-counter')),
      send: await boxOf('Send', page.getByRole('button', { name: 'Send', exact: true })),
      // The composer never scrolls sideways.
      fits: await page.evaluate<boolean>(
        "(() => { const form = document.querySelector('#chat-input').form; return form.scrollWidth <= form.clientWidth; })()",
      ),
    });

    const empty = await layout();
    // The input spans the composer; "Send as", the counter and Send share the line below, in that order, Send at
    // its right end.
    expect(empty.field.width).toBeGreaterThan(280);
    expect(empty.send.y).toBeGreaterThanOrEqual(empty.field.y + empty.field.height);
    expect(Math.abs(empty.send.x + empty.send.width - (empty.field.x + empty.field.width))).toBeLessThanOrEqual(1);
    for (const item of [empty.sendAs, empty.counter]) {
      expect(Math.abs(middle(item) - middle(empty.send))).toBeLessThanOrEqual(2);
    }
    expect(empty.sendAs.x + empty.sendAs.width).toBeLessThanOrEqual(empty.counter.x);
    expect(empty.counter.x + empty.counter.width).toBeLessThanOrEqual(empty.send.x);
    expect(empty.fits).toBe(true);

    // A long message (the counter in the hundreds) moves nothing.
    await input.fill('a'.repeat(120));
    const typed = await layout();
    expect(typed.field).toEqual(empty.field);
    expect(typed.send).toEqual(empty.send);
    expect(typed.counter).toEqual(empty.counter);
    await input.fill('');

    // Where there is room (a dock dragged wide), the message and its controls share one line.
    await page.setViewportSize({ width: 600, height: 700 });
    try {
      const wide = await layout();
      expect(Math.abs(middle(wide.send) - middle(wide.field))).toBeLessThanOrEqual(2);
      expect(wide.field.width).toBeGreaterThanOrEqual(240);
      expect(wide.fits).toBe(true);
    } finally {
      await page.setViewportSize({ width: 340, height: 700 });
    }
  });

  it("tells the signed-in account what it can and cannot do on someone else's channel", async () => {
    await page.getByRole('button', { name: /^Signed in as sandbox_streamer/ }).click();
    const details = page.getByRole('region', { name: 'Your account and channel' });
    await details.waitFor(WAIT);
    expect(await details.textContent()).toContain("Moderating someone else's channel?");
    await e2e.screenshot('account-details-dock');
    await details.getByRole('button', { name: 'Close' }).click();
    await details.waitFor({ state: 'detached', ...WAIT });
  });

  it('drops the notice once chat can arrive', async () => {
    await expect
      .poll(() => [...e2e.sandbox.ctx.state.subscriptions.values()].map((s) => s.event), WAIT)
      .toContain('chat.message.sent');
    await page.getByRole('status', { name: 'Why chat is not arriving' }).waitFor({ state: 'detached', ...WAIT });
  });

  it("names redeemers in a panel opened later and after a reload, from main (not 'user #id')", async () => {
    const { state } = e2e.sandbox.ctx;
    const reward = createDefaultReward(state, STREAMER_USER_ID, e2e.sandbox.ctx.app.clientId)!;
    const viewer = (name: string) => state.userByName(name)!.userId;
    // One redemption arrives as a webhook while this dock is open...
    triggerEvent(e2e.sandbox.ctx, 'channel.reward.redemption.updated', {
      overrides: { reward: { id: reward.id }, redeemer: { user_id: viewer('nightowl_tv') } },
    });
    await flushDeliveries(e2e.sandbox);
    // ...and one Kick never delivered (before this install, or dropped): only its listing knows it, by id.
    redeemAsViewer(state, {
      broadcasterUserId: STREAMER_USER_ID,
      rewardId: reward.id,
      redeemerUserId: viewer('lunarfox'),
      userInput: '',
    });

    const later = await e2e.context.newPage();
    try {
      await later.goto(e2e.launched.panel!.url);
      const names = async (): Promise<string> => {
        await openSection(later, 'Redemptions');
        const queue = later.locator('#main-panel-redemptions');
        await expect.poll(() => queue.getByRole('listitem').count(), WAIT).toBe(2);
        return (await queue.textContent()) ?? '';
      };
      const opened = await names();
      await later.reload();
      const reloaded = await names();
      for (const text of [opened, reloaded]) {
        expect(text).toContain('nightowl_tv');
        expect(text).toContain('lunarfox');
        expect(text).not.toMatch(/#\d/);
      }
      await e2e.screenshot('redemptions-named-after-reload', later);
    } finally {
      await later.close();
      await page.bringToFront();
    }
  });
});
