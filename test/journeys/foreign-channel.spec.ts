/**
 * Journey (docs/design-notes.md, "Only the signed-in channel's events"): the built app, signed in against a
 * standalone sandbox, with the panel and the alert box open in Chromium. Another developer's app sends its
 * own channel's signed follow and chat to the app's webhook URL (the sandbox's `foreign-channel` scenario:
 * the same signing key, another broadcaster, subscriptions the app never created). The app answers each
 * 200 and acts on none: nothing in the panel's chat or feed, no alert, no bot answer in the streamer's chat,
 * and its log counts them, one line per source. The streamer's own follow and command, sent after, are
 * shown, alerted and answered, so the absence of the others is not a matter of waiting too little.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CHAT_BOT_SETTINGS } from '../../shared/chat-bot';
import { startOverlayWorld, WATCH_ALERTS, type OverlayWorld } from './overlay-fixtures';
import { openPanel, value } from './panel';
import { STREAMER_USER_ID } from './sandbox-admin';
import { waitUntil } from './wait';

const WAIT = { timeout: 20_000 };
/** The other developer's channel (sandbox/admin/foreign-channel.ts). */
const FOREIGN_CHANNEL_USER_ID = 200001;
const NOT_ACTED_ON = /webhooks: warn: webhook not acted on: another channel (\{.*\})$/;

interface SandboxChat {
  messages: { content: string; type: string }[];
}

describe("journey: another channel's signed webhooks", () => {
  let world: OverlayWorld;
  let panel: Page;
  let alertBox: Page;

  const botLines = async (): Promise<string[]> =>
    (await world.sandbox.admin.call<SandboxChat>('GET', `/channels/${STREAMER_USER_ID}/chat?limit=200`)).messages
      .filter((m) => m.type === 'bot')
      .map((m) => m.content);
  const alerts = (): Promise<string[]> => alertBox.evaluate<string[]>('window.__alerts');

  beforeAll(async () => {
    world = await startOverlayWorld();
    // A bot that would give itself away: it answers !discord and thanks every follow at once.
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
    chatBot.replies.follow = { ...chatBot.replies.follow, enabled: true, combineSec: 0 };
    await value(world.panel.api.settings.update({ chatBot }));
    panel = await openPanel(await world.browser.newContext({ viewport: { width: 1280, height: 820 } }), world.app);
    const overlayUrl = (await value(world.panel.api.overlays.info())).urls.alerts!;
    alertBox = await (await world.browser.newContext({ viewport: { width: 800, height: 600 } })).newPage();
    await alertBox.addInitScript(WATCH_ALERTS);
    await alertBox.goto(overlayUrl);
    await alertBox.locator('main[data-status="open"]').waitFor(WAIT);
  });

  afterAll(async () => {
    await world?.close();
  });

  it('neither shows, alerts nor answers them, and its log counts them', async () => {
    const logFrom = world.app.stderr.lines.length;
    const started = await world.sandbox.admin.call<{ fired: number }>('POST', '/scenarios/foreign-channel', {
      immediate: true,
    });
    expect(started.fired).toBe(4);

    // Each one reached the app, signed, and was answered 200, so Kick would not send it again.
    const foreign = (): typeof world.recorder.deliveries =>
      world.recorder.deliveries.filter(
        (d) => (d.payload.broadcaster as { user_id: number }).user_id === FOREIGN_CHANNEL_USER_ID,
      );
    await waitUntil(
      'the other channel’s deliveries answered',
      () => foreign().map((d) => d.status),
      (s) => s.length === 4,
    );
    expect(foreign().map((d) => d.status)).toEqual([200, 200, 200, 200]);
    const foreignChatIds = foreign()
      .filter((d) => d.type === 'chat.message.sent')
      .map((d) => d.payload.message_id as string);
    const foreignFollower = (
      foreign().find((d) => d.type === 'channel.followed')!.payload.follower as { username: string }
    ).username;
    expect(foreignChatIds).toHaveLength(3);

    // Now the streamer's own follow and command: once these show, the other channel's would have.
    const [ownFollow] = await world.sandbox.admin.trigger('channel.followed');
    const ownFollower = (ownFollow!.follower as { username: string }).username;
    const ownChat = await world.sandbox.admin.chat('!discord', 100101);
    await panel.locator(`article[data-message-id="${ownChat}"]`).waitFor(WAIT);
    await expect.poll(async () => (await alerts()).length, WAIT).toBe(1);
    await expect.poll(async () => (await botLines()).length, WAIT).toBe(2);

    // Not shown: not in the panel's chat or feed.
    for (const id of foreignChatIds) {
      expect(await panel.locator(`article[data-message-id="${id}"]`).count()).toBe(0);
    }
    const history = await value(world.panel.api.chat.history());
    const chat = history.map((m) => m.messageId);
    expect(chat).toContain(ownChat);
    // The names the page shows for the streamer's own chat: the other channel's follower may share one of them.
    const ownChatters = history.map((m) => m.sender.username);
    expect(chat.filter((id) => foreignChatIds.includes(id))).toEqual([]);
    const feed = await value(world.panel.api.feed.history());
    expect(feed.map((item) => item.kind)).toEqual(['follow']);
    expect(feed[0]!.text).toContain(ownFollower);
    if (foreignFollower !== ownFollower && !ownChatters.includes(foreignFollower)) {
      expect(await panel.getByText(foreignFollower).count()).toBe(0);
    }
    // Not alerted: the alert box played the streamer's follow only.
    expect(await alerts()).toEqual([feed[0]!.id]);
    // Not answered: the bot answered the streamer's !discord and thanked the streamer's follower, nothing else.
    const lines = await botLines();
    expect(lines).toHaveLength(2);
    expect(lines.filter((line) => line.startsWith('Our Discord:'))).toHaveLength(1);
    expect(lines.filter((line) => line.startsWith('Thanks for the follow'))).toEqual([
      `Thanks for the follow, ${ownFollower}!`,
    ]);

    // Counted: one log line per source (the follow's subscription, the chat's), with the running count.
    const logged = world.app.stderr.lines
      .slice(logFrom)
      .map((line) => NOT_ACTED_ON.exec(line)?.[1])
      .filter((fields): fields is string => fields !== undefined)
      .map((fields) => JSON.parse(fields) as { broadcasterUserId: number; type: string; notActedOn: number });
    expect(logged.map((f) => f.type).sort()).toEqual(['channel.followed', 'chat.message.sent']);
    expect(logged.every((f) => f.broadcasterUserId === FOREIGN_CHANNEL_USER_ID)).toBe(true);
    expect(logged.map((f) => f.notActedOn)[0]).toBe(1);
    expect((await value(world.panel.api.health.snapshot())).counters.foreign).toBe(4);
  });
});
