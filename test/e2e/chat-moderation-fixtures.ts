/**
 * What the chat-moderation.spec files share: their fixtures and helpers.
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { triggerEvent } from '../../sandbox/triggers';
import type { Sandbox } from '../../sandbox/index';

export const WAIT = { timeout: 15_000 };
export const BOT_USER_ID = 100002;
/** Fixed users of the sandbox world (sandbox/world.ts). */
export const USERS = {
  sandbox_mod: 100003,
  pixelpanda: 100100,
  nightowl_tv: 100101,
  kappa_krusader: 100102,
  lunarfox: 100103,
  glitchgoblin: 100104,
  byte_bard: 100105,
  turbo_tortoise: 100106,
  mossy_mage: 100107,
} as const;
export type Username = keyof typeof USERS;

/** Fires a viewer's chat message in the sandbox (stored there, then delivered by webhook); returns its id. */
export function chat(sandbox: Sandbox, username: Username, content: string, replyTo?: string): string {
  const [fired] = triggerEvent(sandbox.ctx, 'chat.message.sent', {
    // A fixed draw: the generator then never turns the line into a reply to a random earlier message.
    rng: () => 0.5,
    overrides: {
      content,
      'sender.user_id': USERS[username],
      ...(replyTo ? { 'replies_to.message_id': replyTo } : {}),
    },
  });
  const id = (fired!.payload as { message_id: string }).message_id;
  expect(sandbox.ctx.state.chatMessages.get(id)?.senderUserId).toBe(USERS[username]);
  return id;
}

export function chatLog(page: Page): Locator {
  return page.getByRole('log', { name: 'Chat messages' });
}

/** The chat line of one message, once it has arrived in the panel. */
export async function row(page: Page, messageId: string): Promise<Locator> {
  const line = chatLog(page).locator(`article[data-message-id="${messageId}"]`);
  await line.waitFor(WAIT);
  return line;
}

/**
 * Shows a line's actions the keyboard way (focus its name), clicks one and moves the pointer off the log
 * again, since hovering the log pauses chat (new lines would wait behind "N new messages").
 */
export async function act(page: Page, line: Locator, username: string, action: string): Promise<void> {
  await line.getByRole('button', { name: username, exact: true }).focus();
  await line.getByRole('button', { name: action, exact: true }).click();
  await page.mouse.move(1, 1);
}

/** Waits until the sandbox has Greenroom's chat subscription, so triggered chat is delivered to it. */
export async function chatSubscribed(sandbox: Sandbox): Promise<void> {
  await expect
    .poll(() => [...sandbox.ctx.state.subscriptions.values()].map((s) => s.event), WAIT)
    .toContain('chat.message.sent');
}

export function sentBy(sandbox: Sandbox, content: string) {
  return [...sandbox.ctx.state.chatMessages.values()].find((m) => m.content === content);
}
