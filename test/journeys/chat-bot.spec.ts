/**
 * Journey (commands, timers and event replies): the built app against a standalone sandbox, the
 * bot's settings saved through the contract as the panel saves them. What the bot posts is read from the
 * sandbox's own chat (messages of type `bot`), as a viewer on Kick would see them.
 * - `!discord` answers once per cooldown, whoever asks.
 * - A timer posts only after its interval and M chat messages, and only while live; with Kick's live chat
 *   connection on and the webhooks behind, the lines the socket brought before the live-status webhook count.
 * - A sub train of 20 gifted-sub events gets one combined thanks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CHAT_BOT_SETTINGS } from '../../shared/chat-bot';
import { openPanel, value } from './panel';
import { screenshot, startOverlayWorld, type OverlayWorld } from './overlay-fixtures';
import { STREAMER_USER_ID } from './sandbox-admin';
import { waitUntil } from './wait';

const WAIT = { timeout: 20_000 };

interface SandboxChat {
  messages: { message_id: string; content: string; type: string }[];
}

describe('journey: the chat bot', () => {
  let world: OverlayWorld;
  const botLines = async (): Promise<string[]> =>
    (await world.sandbox.admin.call<SandboxChat>('GET', `/channels/${STREAMER_USER_ID}/chat?limit=200`)).messages
      .filter((m) => m.type === 'bot')
      .map((m) => m.content);

  beforeAll(async () => {
    world = await startOverlayWorld();
    const chatBot = structuredClone(DEFAULT_CHAT_BOT_SETTINGS);
    chatBot.commands = [
      {
        name: 'discord',
        aliases: ['dc'],
        reply: 'Our Discord: discord.gg/greenroom ({user})',
        permission: 'everyone',
        cooldownSec: 8,
        userCooldownSec: 0,
        sendAs: 'bot',
        enabled: true,
      },
    ];
    chatBot.replies['gifted-subs'] = {
      enabled: true,
      template: 'Thank you {user} for {count} subs!',
      minAmount: 0,
      combineSec: 4,
      rewards: [],
    };
    // Set, not left to the default: chat comes from Kick's live chat connection first, as on a streamer's machine.
    await value(world.panel.api.settings.update({ chatBot, liveSocket: { enabled: true } }));
    await waitUntil(
      "Kick's live chat connection",
      async () => (await value(world.panel.api.health.snapshot())).liveSocket?.state,
      (state) => state === 'connected',
    );
  });

  afterAll(async () => {
    await world?.close();
  });

  it('answers !discord once per cooldown', async () => {
    await world.sandbox.admin.chat('!discord', 100101);
    await world.sandbox.admin.chat('!dc', 100102);
    await world.sandbox.admin.chat('!discord please', 100104);
    // One answer, to whichever of the three Kick delivered first (deliveries run concurrently, so not
    // necessarily in the order sent).
    await expect.poll(async () => (await botLines()).length, WAIT).toBe(1);
    expect((await botLines())[0]).toMatch(/^Our Discord: discord\.gg\/greenroom \(\w+\)$/);
    // Still one while the cooldown runs; a second answer once it is over.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await botLines()).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 6500));
    await world.sandbox.admin.chat('!discord', 100102);
    await expect.poll(async () => (await botLines()).length, WAIT).toBe(2);
  });

  it('thanks a sub train of 20 gifts once, combined', async () => {
    const before = (await botLines()).length;
    await world.sandbox.admin.trigger('channel.subscription.gifts', { count: 20 });
    await expect.poll(async () => (await botLines()).length, WAIT).toBe(before + 1);
    const thanks = (await botLines()).at(-1)!;
    const total = Number(/for (\d+) subs!$/.exec(thanks)?.[1]);
    // Each sandbox gift carries 1–5 subs; 20 events give at least 20 in one message.
    expect(total).toBeGreaterThanOrEqual(20);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    expect((await botLines()).length).toBe(before + 1);
  });

  it('posts a timer only while live, after its interval and M chat messages', async () => {
    const settings = await value(world.panel.api.settings.get());
    settings.chatBot.timers = [{ message: 'Remember to follow!', everySec: 30, minMessages: 3, enabled: true }];
    await value(world.panel.api.settings.update({ chatBot: settings.chatBot }));
    // Kick's webhooks 5 s behind: "the stream went live" comes after the socket brought the first two lines.
    await world.sandbox.admin.call('POST', '/live-socket/settings', { webhook_delay_seconds: 5 });
    try {
      await world.sandbox.admin.call('POST', `/channels/${STREAMER_USER_ID}/live`, {
        is_live: true,
        title: 'Timer test',
      });
      const timerPosts = async () => (await botLines()).filter((line) => line === 'Remember to follow!').length;
      // 35 s live with two chat messages: the interval passed, the messages did not.
      await world.sandbox.admin.chat('first', 100105);
      await world.sandbox.admin.chat('second', 100106);
      await new Promise((resolve) => setTimeout(resolve, 36_000));
      expect(await timerPosts()).toBe(0);
      await world.sandbox.admin.chat('third', 100107);
      await expect.poll(timerPosts, WAIT).toBe(1);
    } finally {
      await world.sandbox.admin.call('POST', '/live-socket/settings', { webhook_delay_seconds: 0 });
    }
  }, 90_000);

  it("shows the bot's answers in the streamer's chat, as viewers see them", async () => {
    const context = await world.browser.newContext({ viewport: { width: 1100, height: 760 } });
    const page = await openPanel(context, world.app);
    await page.locator('article.msg', { hasText: 'Our Discord: discord.gg/greenroom' }).first().waitFor(WAIT);
    await page
      .locator('article.msg', { hasText: /Thank you .* subs!/ })
      .first()
      .waitFor(WAIT);
    await screenshot(page, 'chat-bot-replies');
    await context.close();
  });
});
