/**
 * What the live-merge tests share: the whole app in sandbox mode with its real webhook receiver and journal,
 * signed in, Kick's live chat connection up, a `!discord` command and a blocked term. The sandbox plays the
 * socket and holds every webhook back by the delay the test sets, so the socket always comes first.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { DEFAULT_CHAT_BOT_SETTINGS } from '../../../shared/chat-bot';
import type { ChatMessageView, LiveSocketHealthView } from '../../../shared/views';
import type { GreenroomApp } from '../../../electron/app/create-app';
import { openSettings } from '../../../electron/app/settings';
import { triggerEvent } from '../../../sandbox/triggers';
import { BOT_USER_ID, FIRST_VIEWER_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { callAdmin } from '../../helpers/sandbox';
import { type AutomodApp, saveRules, startAutomodApp } from './automod-fixtures';
import { evasionRules } from './automod-evasions';

/** Writes the bot's `!discord` into the settings file `dir` starts with. */
export function withDiscordCommand(dir: string): void {
  const settings = openSettings(dir, { randomBytes });
  const chatBot = structuredClone(DEFAULT_CHAT_BOT_SETTINGS);
  chatBot.commands = [
    {
      name: 'discord',
      aliases: [],
      reply: 'join us at discord.example',
      permission: 'everyone',
      cooldownSec: 0,
      userCooldownSec: 0,
      sendAs: 'bot',
      enabled: true,
    },
  ];
  settings.update({ chatBot });
}

/** Starts the app on `dir`, waits for the live connection, blocks "free followers" and holds webhooks `delaySeconds`. */
export async function startLiveApp(dir: string, delaySeconds: number): Promise<AutomodApp> {
  const settings = openSettings(dir, { randomBytes });
  settings.setLiveSocket({ ...settings.values().liveSocket, enabled: true });
  const target = await startAutomodApp(dir);
  const rules = evasionRules();
  rules.blockedTerms.terms = [{ pattern: 'free followers', kind: 'plain' }];
  expect(await saveRules(target.app, rules)).toMatchObject({ ok: true });
  await until(target.app, (view) => view.state === 'connected');
  const res = await callAdmin(target.app.sandbox!, 'POST', '/live-socket/settings', {
    body: { webhook_delay_seconds: delaySeconds },
  });
  expect(res.status, res.text).toBe(200);
  return target;
}

/** Resolves when the live connection's health (with the webhooks' trail) satisfies `check`. */
export function until(app: GreenroomApp, check: (view: LiveSocketHealthView) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const test = () => {
      const view = app.snapshot().health.liveSocket;
      if (view && check(view)) {
        off();
        resolve();
      }
    };
    const off = app.events.on('health:changed', test);
    test();
  });
}

let viewer = 0;

/** A viewer's line, sent through the sandbox's trigger: on the socket at once, its webhook after the delay. */
export function type(app: GreenroomApp, content: string): string {
  const [event] = triggerEvent(app.sandbox!.ctx, 'chat.message.sent', {
    overrides: { content, sender: { user_id: FIRST_VIEWER_USER_ID + (viewer++ % 20) } },
  });
  return (event!.payload as { message_id: string }).message_id;
}

/** Resolves with the line once the app announced it to the panels. */
export function shown(target: AutomodApp, messageId: string): Promise<ChatMessageView> {
  return new Promise((resolve) => {
    const test = () => {
      const seen = target.chat.find((m) => m.messageId === messageId);
      if (seen) {
        off();
        resolve(seen);
      }
    };
    const off = target.app.events.on('kick:event', test);
    test();
  });
}

/** Resolves once the sandbox has delivered every webhook it holds back (each arrival is a health change). */
export async function webhooksDelivered(app: GreenroomApp): Promise<void> {
  const delivery = app.sandbox!.delivery;
  while (delivery.pendingCount() > 0) {
    const changed = new Promise<void>((resolve) => {
      const off = app.events.on('health:changed', () => (off(), resolve()));
    });
    await delivery.flush();
    if (delivery.pendingCount() > 0) {
      await changed;
    }
  }
}

/** What the bot posted in the streamer's channel. */
export function botPosts(app: GreenroomApp): string[] {
  return [...app.sandbox!.ctx.state.chatMessages.values()]
    .filter((m) => m.broadcasterUserId === STREAMER_USER_ID && m.senderUserId === BOT_USER_ID)
    .map((m) => m.content);
}
