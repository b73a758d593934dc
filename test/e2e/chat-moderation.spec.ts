/**
 * Chat and moderation, end to end: the panel served by the panel server in Debian's
 * Chromium, signed in on the sandbox's consent page, with chat delivered by the sandbox's real webhooks.
 * Chat renders emotes (images from the sandbox's emote server), badges and replies; sending as the streamer
 * and as the bot reaches the sandbox; the 500-character counter; delete, timeout, ban (with the confirm and
 * a reason), undo and unban each change the sandbox's state and show in the panel; the user card, its
 * keyboard shortcuts and the mod log; and the full moderation row in a narrow OBS dock.
 *
 * This file: “chat and moderation in the full window”.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundImage, loadedImageWidth } from '../helpers/drawn-images';
import { type E2E, startE2E } from './harness';
import { signIn, STREAMER_USER_ID } from './sign-in';
import { BOT_USER_ID, USERS, WAIT, act, chat, chatLog, chatSubscribed, row, sentBy } from './chat-moderation-fixtures';

describe('chat and moderation in the full window', () => {
  let e2e: E2E;
  let page: Page;

  beforeAll(async () => {
    e2e = await startE2E();
    page = e2e.page;
  });
  afterAll(() => e2e.close());

  it('signs the streamer in on the consent page', async () => {
    await signIn(e2e);
    await chatSubscribed(e2e.sandbox);
  });

  it('renders chat with emotes as images, badges and replies', async () => {
    const { sandbox } = e2e;
    const emoteId = chat(sandbox, 'sandbox_mod', 'gg [emote:37226:KEKW] nice');
    const subId = chat(sandbox, 'lunarfox', 'first time catching the stream live');
    const replyId = chat(sandbox, 'nightowl_tv', 'agreed, that was clean', emoteId);

    // The emote: an image named KEKW, a box drawn from the sandbox's emote server (lib/emote-images.ts), whose
    // image loads (it has pixels) and stays drawn rather than falling back to the name.
    const emoteRow = await row(page, emoteId);
    const emote = emoteRow.getByRole('img', { name: 'KEKW' });
    await emote.waitFor(WAIT);
    const url = `${sandbox.urls.api}/emotes/37226/fullsize`;
    expect(await backgroundImage(emote)).toBe(`url("${url}")`);
    expect(await loadedImageWidth(page, url)).toBe(32);
    const width = (el: unknown): number =>
      (el as { getBoundingClientRect(): { width: number } }).getBoundingClientRect().width;
    expect(await emote.evaluate(width)).toBeGreaterThan(0);
    expect(await emoteRow.locator('.emote-fallback').count()).toBe(0);
    expect(await emoteRow.textContent()).toContain('gg');
    expect(await emoteRow.textContent()).toContain('nice');

    // Badges from the sender's identity: the moderator's and the subscriber's (with their months).
    expect(await emoteRow.getByRole('img', { name: 'Moderator' }).isVisible()).toBe(true);
    const subRow = await row(page, subId);
    expect(await subRow.getByRole('img', { name: 'Subscriber (4)' }).isVisible()).toBe(true);
    expect(await subRow.getByRole('img', { name: 'Moderator' }).count()).toBe(0);

    // The reply quotes its parent (emotes as their names in the quote).
    const replyRow = await row(page, replyId);
    const replyText = (await replyRow.textContent()) ?? '';
    expect(replyText).toContain('replying to @sandbox_mod');
    expect(replyText).toContain('gg KEKW nice');
    expect(replyText).toContain('agreed, that was clean');
    expect(sandbox.ctx.state.chatMessages.get(replyId)?.replyToMessageId).toBe(emoteId);

    await e2e.screenshot('chat-emotes-badges-replies');
  });

  it('sends as the streamer and as the bot, replies, and counts to 500 characters', async () => {
    const { sandbox } = e2e;
    const input = page.getByRole('textbox', { name: 'Chat message' });
    const counter = page.locator('#chat-counter');
    const send = page.getByRole('button', { name: 'Send', exact: true });

    // As the streamer.
    await input.fill('hello chat, streamer here');
    expect(await counter.textContent()).toBe('25/500');
    await send.click();
    await expect.poll(() => sentBy(sandbox, 'hello chat, streamer here')?.type, WAIT).toBe('user');
    expect(sentBy(sandbox, 'hello chat, streamer here')?.senderUserId).toBe(STREAMER_USER_ID);
    await chatLog(page).getByText('hello chat, streamer here').waitFor(WAIT);
    expect(await input.inputValue()).toBe('');

    // As the bot.
    await page.getByRole('radio', { name: 'Bot' }).check();
    await input.fill('beep boop, the bot says hi');
    await send.click();
    await expect.poll(() => sentBy(sandbox, 'beep boop, the bot says hi')?.type, WAIT).toBe('bot');
    expect(sentBy(sandbox, 'beep boop, the bot says hi')?.senderUserId).toBe(BOT_USER_ID);
    await chatLog(page).getByText('beep boop, the bot says hi').waitFor(WAIT);
    await page.getByRole('radio', { name: 'Me' }).check();

    // A reply to a viewer, as the streamer: the sandbox stores the parent, the panel quotes it.
    const parentId = chat(sandbox, 'pixelpanda', 'what game is next?');
    const parentRow = await row(page, parentId);
    await act(page, parentRow, 'pixelpanda', 'Reply to pixelpanda');
    expect(await page.locator('form.chat-input').textContent()).toContain('Replying to @pixelpanda');
    await input.fill('Elden Ring after this one');
    await send.click();
    await expect.poll(() => sentBy(sandbox, 'Elden Ring after this one')?.replyToMessageId, WAIT).toBe(parentId);
    const replyLine = chatLog(page).locator('article').filter({ hasText: 'Elden Ring after this one' });
    await replyLine.waitFor(WAIT);
    expect(await replyLine.textContent()).toContain('replying to @pixelpanda');

    // The live counter: 500 is allowed, 501 is refused before anything is sent.
    await input.fill('a'.repeat(501));
    expect(await counter.textContent()).toBe('501/500');
    expect(await page.getByText('Too long: Kick allows 500 characters.').isVisible()).toBe(true);
    expect(await send.isDisabled()).toBe(true);
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    await e2e.screenshot('chat-send-counter-over-limit');
    await input.fill('😀'.repeat(500));
    expect(await counter.textContent()).toBe('500/500');
    expect(await send.isEnabled()).toBe(true);
    await input.fill('');
    expect(await counter.textContent()).toBe('0/500');
    expect(await send.isDisabled()).toBe(true);
  });

  it('deletes a message: the sandbox marks it deleted and the panel shows it so', async () => {
    const { sandbox } = e2e;
    const id = chat(sandbox, 'kappa_krusader', 'buy cheap followers at spam dot example');
    const line = await row(page, id);
    await act(page, line, 'kappa_krusader', 'Delete message');
    await expect.poll(() => sandbox.ctx.state.chatMessages.get(id)?.deleted, WAIT).toBe(true);
    await line.getByText('(deleted)').waitFor(WAIT);
    await line.getByRole('status').getByText('Deleted').waitFor(WAIT);
    expect(await line.getAttribute('class')).toContain('deleted');
    await e2e.screenshot('moderation-deleted-message');
  });

  it('times a user out with the 10 minute preset', async () => {
    const { sandbox } = e2e;
    const id = chat(sandbox, 'glitchgoblin', 'CAPS LOCK IS CRUISE CONTROL');
    const line = await row(page, id);
    const before = sandbox.ctx.state.now();
    await act(page, line, 'glitchgoblin', 'Time out glitchgoblin for 10m');
    await expect
      .poll(() => sandbox.ctx.state.activeBan(STREAMER_USER_ID, USERS.glitchgoblin)?.expiresAtMs ?? 0, WAIT)
      .toBeGreaterThanOrEqual(before + 10 * 60_000);
    const ban = sandbox.ctx.state.activeBan(STREAMER_USER_ID, USERS.glitchgoblin)!;
    expect(ban.expiresAtMs! - sandbox.ctx.state.now()).toBeLessThanOrEqual(10 * 60_000);
    expect(ban.expiresAtMs! - sandbox.ctx.state.now()).toBeGreaterThan(9 * 60_000);
    await line.getByRole('status').getByText('Timed out 10m').waitFor(WAIT);
  });

  it('bans with a reason after the one confirm, and undo unbans', async () => {
    const { sandbox } = e2e;
    const id = chat(sandbox, 'byte_bard', 'follow my channel for free skins');
    const line = await row(page, id);
    await act(page, line, 'byte_bard', 'Ban byte_bard');

    // Nothing happens before the confirm.
    const dialog = page.getByRole('dialog', { name: 'Ban byte_bard?' });
    await dialog.waitFor(WAIT);
    expect(sandbox.ctx.state.activeBan(STREAMER_USER_ID, USERS.byte_bard)).toBeUndefined();
    await dialog.getByLabel('Reason (optional)').fill('spam links');
    expect(await dialog.textContent()).toContain('10/100');
    await e2e.screenshot('moderation-ban-confirm');
    await dialog.getByRole('button', { name: 'Ban byte_bard', exact: true }).click();

    await expect
      .poll(() => sandbox.ctx.state.activeBan(STREAMER_USER_ID, USERS.byte_bard)?.reason, WAIT)
      .toBe('spam links');
    expect(sandbox.ctx.state.activeBan(STREAMER_USER_ID, USERS.byte_bard)?.expiresAtMs).toBeNull();
    await dialog.waitFor({ state: 'detached', ...WAIT });
    await line.getByRole('status').getByText('Banned').waitFor(WAIT);
    await page.getByText('byte_bard was banned.').waitFor(WAIT);
    await e2e.screenshot('moderation-ban-undo');

    await page.getByRole('button', { name: 'Undo (unban)' }).click();
    await expect.poll(() => sandbox.ctx.state.activeBan(STREAMER_USER_ID, USERS.byte_bard), WAIT).toBeUndefined();
    await page.getByText('byte_bard was banned.').waitFor({ state: 'detached', ...WAIT });
    // The row no longer says the viewer is banned.
    await line
      .getByRole('status')
      .getByText('Banned')
      .waitFor({ state: 'detached', ...WAIT });
  });

  it('opens the user card on a name click, with recent messages, actions and keyboard shortcuts', async () => {
    const { sandbox } = e2e;
    const first = chat(sandbox, 'turbo_tortoise', 'slow and steady wins the race');
    const second = chat(sandbox, 'turbo_tortoise', 'is this stream on a delay?');
    await row(page, first);
    const line = await row(page, second);
    await line.getByRole('button', { name: 'turbo_tortoise', exact: true }).click();
    await page.mouse.move(1, 1);

    const card = page.getByRole('dialog', { name: 'turbo_tortoise' });
    await card.waitFor(WAIT);
    const recent = card.locator('ul.messages');
    await recent.getByText('slow and steady wins the race').waitFor(WAIT);
    await recent.getByText('is this stream on a delay?').waitFor(WAIT);
    expect(await card.getByText('No actions taken on turbo_tortoise.').isVisible()).toBe(true);

    // T: a 10 minute timeout.
    await page.keyboard.press('t');
    await expect
      .poll(() => sandbox.ctx.state.activeBan(STREAMER_USER_ID, USERS.turbo_tortoise)?.expiresAtMs ?? 0, WAIT)
      .toBeGreaterThan(sandbox.ctx.state.now() + 9 * 60_000);
    await card.getByRole('status').getByText('Timed out 10m').waitFor(WAIT);
    const history = card.locator('ul.actions');
    await history.getByText('timeout 10m').waitFor(WAIT);

    // U: unban (lifts the timeout).
    await page.keyboard.press('u');
    await expect.poll(() => sandbox.ctx.state.activeBan(STREAMER_USER_ID, USERS.turbo_tortoise), WAIT).toBeUndefined();
    await history.getByText('unban').waitFor(WAIT);

    // Del: delete the selected message (the one whose name was clicked is selected).
    expect(await card.getByRole('button', { name: /is this stream on a delay/ }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await page.keyboard.press('Delete');
    await expect.poll(() => sandbox.ctx.state.chatMessages.get(second)?.deleted, WAIT).toBe(true);
    await history.getByText('delete').waitFor(WAIT);
    await recent.getByText('(deleted)').waitFor(WAIT);
    expect(sandbox.ctx.state.chatMessages.get(first)?.deleted).toBe(false);
    await line.getByText('(deleted)').waitFor(WAIT);
    await e2e.screenshot('moderation-user-card');

    // Esc closes the card.
    await page.keyboard.press('Escape');
    await card.waitFor({ state: 'detached', ...WAIT });
  });

  it('lists every action in the mod log', async () => {
    await page.getByRole('tab', { name: 'Mod log' }).click();
    const log = page.getByRole('region', { name: 'Mod log' });
    await log.waitFor(WAIT);
    const entries = log.getByRole('listitem');
    const text = async (): Promise<string[]> =>
      (await entries.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    await expect.poll(async () => (await text()).length, WAIT).toBeGreaterThanOrEqual(7);
    const lines = await text();
    const has = (pattern: RegExp): boolean => lines.some((l) => pattern.test(l));
    expect(has(/delete kappa_krusader/)).toBe(true);
    expect(has(/timeout 10m glitchgoblin/)).toBe(true);
    expect(has(/ban byte_bard — spam links/)).toBe(true);
    expect(has(/unban byte_bard/)).toBe(true);
    expect(has(/timeout 10m turbo_tortoise/)).toBe(true);
    expect(has(/unban turbo_tortoise/)).toBe(true);
    expect(has(/delete turbo_tortoise/)).toBe(true);
    expect(lines.some((l) => l.includes('failed'))).toBe(false);
    await e2e.screenshot('moderation-mod-log');

    // A name in the log opens that user's card.
    await log.getByRole('button', { name: 'glitchgoblin' }).first().click();
    const card = page.getByRole('dialog', { name: 'glitchgoblin' });
    await card.getByText('timeout 10m').waitFor(WAIT);
    await page.keyboard.press('Escape');
    await card.waitFor({ state: 'detached', ...WAIT });
  });
});
