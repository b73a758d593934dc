/**
 * Journey ("highlight and ignore work"): the built app against the standalone sandbox, the panel
 * in Chromium. A fresh install marks no first message (it knows nobody yet), nor does a line that only
 * claims to be a week old; a highlight term added in Settings colours a message
 * that contains it; ignoring a chatter from their user card removes their messages from chat and keeps
 * new ones out until the streamer stops ignoring them; a private note and the chatter's figures show on
 * the card and the note survives a restart (docs/chat-tools.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPanel } from './panel';
import { screenshot, startOverlayWorld, type OverlayWorld } from './overlay-fixtures';
import { openSection } from '../helpers/panel-tabs';

const WAIT = { timeout: 15_000 };

describe('journey: highlights, ignore list, first messages and notes', () => {
  let world: OverlayWorld;
  let page: Page;

  beforeAll(async () => {
    world = await startOverlayWorld();
    const context = await world.browser.newContext({ viewport: { width: 1280, height: 820 } });
    page = await openPanel(context, world.app);
  });

  afterAll(async () => {
    await world?.close();
  });

  const row = (id: string) => page.locator(`article[data-message-id="${id}"]`);
  const nameOf = async (id: string) => (await row(id).locator('button.name').textContent())!.trim();

  it('marks no first message on a fresh install, where Greenroom knows nobody yet', async () => {
    const regular = await world.sandbox.admin.chat('hi again, been here for years', 100103);
    await row(regular).waitFor(WAIT);
    expect(await row(regular).getByText('First message in your chat').count()).toBe(0);
  });

  it('starts no marks for a line that only claims to be a week old: a week must be heard', async () => {
    // A week counts from when Greenroom received each line, not the time a line carries
    // (docs/chat-tools.md#what-first-message-means); the marks after a week truly heard are checked, with a
    // restart, in test/integration/app/first-message.test.ts.
    const [seed] = await world.sandbox.admin.trigger('chat.message.sent', {
      overrides: {
        content: 'a line stamped last week',
        created_at: new Date(Date.now() - 8 * 24 * 60 * 60 * 1000).toISOString(),
        'sender.user_id': 100102,
      },
    });
    await row(seed!.message_id as string).waitFor(WAIT);
    const newcomer = await world.sandbox.admin.chat('hello, first time here', 100104);
    await row(newcomer).waitFor(WAIT);
    expect(await row(newcomer).getByText('First message in your chat').count()).toBe(0);
  });

  it('colours a message with a highlight term added in Settings', async () => {
    await openSection(page, 'Settings');
    const tools = page.locator('.chat-tools');
    // The first-message switch says when its marks start, so a week without them is no surprise.
    await tools.getByText('Marks start once Greenroom has heard your chat for a week').waitFor(WAIT);
    await tools.getByLabel('Term').fill('giveaway');
    await tools.getByLabel('Colour').fill('#ff3366');
    await tools.getByRole('button', { name: 'Add highlight' }).click();
    await tools.getByRole('list', { name: 'Highlight terms' }).getByText('giveaway').waitFor(WAIT);
    // At this width chat stays in view beside the Settings tab.

    const plain = await world.sandbox.admin.chat('what a play', 100105);
    const hit = await world.sandbox.admin.chat('when is the GIVEAWAY?', 100106);
    await row(hit).waitFor(WAIT);
    await row(plain).waitFor(WAIT);
    expect(await row(hit).getAttribute('data-highlight')).toBe('giveaway');
    expect(await row(plain).getAttribute('data-highlight')).toBeNull();
    // The row takes the term's colour: its left bar is exactly #ff3366.
    // (An expression string: the journeys compile without the DOM's types.)
    const shadow = await page.evaluate(
      `getComputedStyle(document.querySelector('article[data-message-id="${hit}"]')).boxShadow`,
    );
    expect(String(shadow)).toContain('rgb(255, 51, 102)');
    await screenshot(page, 'chat-highlight');
  });

  it('ignoring a chatter from their card hides their messages until the streamer stops ignoring them', async () => {
    const before = await world.sandbox.admin.chat('buy cheap followers', 100107);
    await row(before).waitFor(WAIT);
    const name = await nameOf(before);
    await row(before).locator('button.name').click();
    const card = page.getByRole('dialog', { name });
    await card.getByRole('button', { name: 'Ignore', exact: true }).click();
    await row(before).waitFor({ state: 'detached', ...WAIT });
    await card.getByRole('button', { name: 'Close user card' }).click();

    const hidden = await world.sandbox.admin.chat('followers cheap again', 100107);
    const after = await world.sandbox.admin.chat('a message after it', 100105);
    await row(after).waitFor(WAIT);
    expect(await row(hidden).count()).toBe(0);

    await openSection(page, 'Settings');
    const ignored = page.getByRole('list', { name: 'Ignored chatters' });
    await ignored.getByText(name.toLowerCase()).waitFor(WAIT);
    await ignored.scrollIntoViewIfNeeded();
    await screenshot(page, 'chat-ignore-list');
    await page.getByRole('button', { name: `Stop ignoring ${name.toLowerCase()}` }).click();
    await ignored.waitFor({ state: 'detached', ...WAIT });
    // What main kept of theirs comes back into the scrollback, and new lines show again.
    await row(before).waitFor(WAIT);
    await row(hidden).waitFor(WAIT);
    const back = await world.sandbox.admin.chat('am I back?', 100107);
    await row(back).waitFor(WAIT);
  });

  it('completes an @mention from recent chatters, and ↑ brings back what was sent', async () => {
    const input = page.getByRole('textbox', { name: 'Chat message' });
    await input.click();
    await input.pressSequentially('thanks @glitch');
    await page.getByRole('listbox', { name: 'Mention a chatter' }).getByText('@glitchgoblin').waitFor(WAIT);
    await input.press('Tab');
    expect(await input.inputValue()).toBe('thanks @glitchgoblin ');
    await input.pressSequentially('for coming');
    await input.press('Enter');
    await expect.poll(() => input.inputValue(), WAIT).toBe('');
    await input.press('ArrowUp');
    expect(await input.inputValue()).toBe('thanks @glitchgoblin for coming');
    await input.press('ArrowDown');
    expect(await input.inputValue()).toBe('');
  });

  it('shows a follow as a compact row in chat, and not once the streamer turns inline events off', async () => {
    const [payload] = await world.sandbox.admin.trigger('channel.followed');
    const follower = (payload!.follower as { username: string }).username;
    const inline = page.locator('.chat-pane .event-row.follow', { hasText: follower });
    await inline.waitFor(WAIT);
    await page.locator('.chat-tools').getByLabel('Show follows, subs, gifts, KICKs and redemptions in chat').uncheck();
    await inline.waitFor({ state: 'detached', ...WAIT });
  });

  it('keeps a private note on the card, with first seen and message count, across a restart', async () => {
    await world.sandbox.admin.chat('what are the giveaway rules?', 100108);
    const id = await world.sandbox.admin.chat('me again', 100108);
    await row(id).waitFor(WAIT);
    const name = await nameOf(id);
    await row(id).locator('button.name').click();
    const card = page.getByRole('dialog', { name });
    const facts = (dialog: typeof card) => () => dialog.locator('.facts p').first().innerText();
    await expect.poll(facts(card), WAIT).toMatch(/^First seen less than a minute ago · 2 messages$/);
    await card.getByLabel(/Private note/).fill('Asked about the giveaway rules twice');
    await card.getByRole('button', { name: 'Save note' }).click();
    await expect.poll(() => card.getByRole('button', { name: 'Save note' }).isDisabled(), WAIT).toBe(true);

    await world.restart();
    page = await openPanel(page.context(), world.app);
    await row(id).waitFor(WAIT);
    await row(id).locator('button.name').click();
    const again = page.getByRole('dialog', { name });
    await expect
      .poll(() => again.getByLabel(/Private note/).inputValue(), WAIT)
      .toBe('Asked about the giveaway rules twice');
    // The journal brought the chatter's history back: still two messages, first seen unchanged.
    await expect.poll(facts(again), WAIT).toMatch(/^First seen (less than a minute|1 min) ago · 2 messages$/);
  });
});
