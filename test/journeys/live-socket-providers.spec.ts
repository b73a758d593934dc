/**
 * Journey (docs/settings.md#kicks-live-chat-connection): the built app against a standalone sandbox, the panel
 * in Chromium.
 * - Discovery offers only Centrifugo (docs/sandbox.md#live-socket-triggers): the connection takes it, Health
 *   names it, and chat arrives at once while its webhook is still held.
 * - The connection switched off: chat, a follow alert in the alert box and the bot's answer all come on
 *   Kick's webhooks alone.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CHAT_BOT_SETTINGS } from '../../shared/chat-bot';
import { openSection } from '../helpers/panel-tabs';
import { chatRowsEverShown, type LiveWorld, startLiveWorld } from './live-socket-journey-fixtures';
import { WATCH_ALERTS } from './overlay-fixtures';
import { value } from './panel';
import { STREAMER_USER_ID } from './sandbox-admin';

const WAIT = { timeout: 30_000 };
/** Webhooks ten minutes behind: a line on screen before then came by socket. */
const BEHIND_S = 600;

interface SandboxChat {
  messages: { message_id: string; content: string; type: string }[];
}

describe("journey: Kick's live socket on Centrifugo only, then switched off", () => {
  let live: LiveWorld;
  let alertBox: Page;

  const row = (id: string) =>
    live.panel.locator(`[role="log"][aria-label="Chat messages"] article[data-message-id="${id}"]`);
  const alerts = (): Promise<string[]> => alertBox.evaluate<string[]>('window.__alerts');
  const botLines = async (): Promise<string[]> =>
    (await live.world.sandbox.admin.call<SandboxChat>('GET', `/channels/${STREAMER_USER_ID}/chat?limit=200`)).messages
      .filter((m) => m.type === 'bot')
      .map((m) => m.content);

  beforeAll(async () => {
    // Discovery is asked at each connect: told before the connection starts.
    live = await startLiveWorld({ providers: ['centrifugo'], webhook_delay_seconds: BEHIND_S });
    const chatBot = structuredClone(DEFAULT_CHAT_BOT_SETTINGS);
    chatBot.commands = [
      {
        name: 'discord',
        aliases: [],
        reply: 'Our Discord: discord.gg/greenroom ({user})',
        permission: 'everyone',
        cooldownSec: 0,
        userCooldownSec: 0,
        sendAs: 'bot',
        enabled: true,
      },
    ];
    await value(live.world.panel.api.settings.update({ chatBot, liveSocket: { enabled: true } }));
    alertBox = await (await live.world.browser.newContext({ viewport: { width: 800, height: 600 } })).newPage();
    await alertBox.addInitScript(WATCH_ALERTS);
    await alertBox.goto((await value(live.world.panel.api.overlays.info())).urls.alerts!);
    await alertBox.locator('main[data-status="open"]').waitFor(WAIT);
  }, 120_000);
  afterAll(async () => {
    await live?.world.close();
  });

  it('connects on Centrifugo when discovery offers only that, and Health names it', async () => {
    await expect.poll(async () => (await live.health())?.state, WAIT).toBe('connected');
    expect((await live.health())?.provider).toBe('centrifugo');
    await expect.poll(async () => (await live.status()).sessions.map((s) => s.provider), WAIT).toEqual(['centrifugo']);
    await openSection(live.panel, 'Health');
    const region = live.panel.getByRole('region', { name: "Kick's live chat connection" });
    await expect
      .poll(() => live.panel.getByTestId('live-socket-state').textContent(), WAIT)
      .toBe('Connected: chat arrives the moment it is typed');
    await region.getByText('Details').click();
    expect(await region.locator('dt:text-is("Provider") + dd').textContent()).toContain('centrifugo');
  });

  it('shows chat at once on Centrifugo while its webhook is still held', async () => {
    await live.untilListening();
    const id = await live.chat('hello over centrifugo');
    await row(id).waitFor(WAIT);
    expect(await live.heldChat()).toContain(id);
    expect(live.acknowledgedChat()).not.toContain(id);
  });

  it('switched off, chat, a follow alert and the bot all work on webhooks alone', async () => {
    await value(live.world.panel.api.settings.update({ liveSocket: { enabled: false } }));
    await live.world.sandbox.admin.call('POST', '/live-socket/settings', { webhook_delay_seconds: 0 });
    await expect.poll(async () => (await live.health())?.state, WAIT).toBe('off');
    await expect.poll(async () => (await live.status()).sessions, WAIT).toEqual([]);

    const chatId = await live.chat('hello over webhooks', 100102);
    const [follow] = await live.world.sandbox.admin.trigger('channel.followed');
    const follower = (follow!.follower as { username: string }).username;
    const askId = await live.chat('!discord', 100103);

    await row(chatId).waitFor(WAIT);
    await row(askId).waitFor(WAIT);
    await expect.poll(async () => (await alerts()).length, WAIT).toBe(1);
    await expect.poll(botLines, WAIT).toEqual([expect.stringMatching(/^Our Discord: discord\.gg\/greenroom \(\w+\)$/)]);
    // No socket was open: all of it came by webhook, each once.
    expect((await live.status()).sessions).toEqual([]);
    // Polled: a line is shown while its journal write is on its way, so its 200 can pass the recorder after the row.
    await expect.poll(() => live.acknowledgedChat(), WAIT).toEqual(expect.arrayContaining([chatId, askId]));
    const feed = await value(live.world.panel.api.feed.history());
    const follows = feed.filter((item) => item.kind === 'follow');
    expect(follows).toHaveLength(1);
    expect(follows[0]!.text).toContain(follower);
    expect(await alerts()).toEqual([follows[0]!.id]);
    const rows = await chatRowsEverShown(live.panel);
    expect([rows[chatId], rows[askId]]).toEqual([1, 1]);
  });
});
