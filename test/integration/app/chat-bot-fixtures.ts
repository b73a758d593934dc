/**
 * What the chat-bot.test files share: the app in sandbox mode with the real webhook receiver (the sandbox
 * signs and POSTs every chat message to it, as Kick does), signed in, with the bot's commands read from
 * the settings file as a streamer's older or hand-edited file would hold them (not through Save, which
 * refuses some of them). What the bot posted is read from the sandbox's own chat, as a viewer sees it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll } from 'vitest';
import { type ChatCommand, DEFAULT_CHAT_BOT_SETTINGS } from '../../../shared/chat-bot';
import type { Result } from '../../../shared/errors';
import type { EventPayloads, InvokeResults } from '../../../shared/ipc-contract';
import type { ChatMessageView } from '../../../shared/views';
import { resolveConfig } from '../../../electron/app/config';
import { createApp, type GreenroomApp } from '../../../electron/app/create-app';
import { openSettings } from '../../../electron/app/settings';
import { systemClock } from '../../../electron/core/clock';
import { createAppWebhookPort } from '../../../electron/app/webhook-port';
import { MemorySecretStore } from '../../../electron/secrets/secret-store';
import type { Sandbox } from '../../../sandbox/index';
import type { SandboxChatMessage } from '../../../sandbox/state';
import { triggerEvent } from '../../../sandbox/triggers';
import { BOT_USER_ID, STREAMER_USER_ID, viewerIds } from '../../../sandbox/world';

export { BOT_USER_ID, STREAMER_USER_ID };

/** A command as the file holds it: answers everyone, no cooldown, sent as the bot unless told. */
export const command = (name: string, reply: string, over: Partial<ChatCommand> = {}): ChatCommand => ({
  name,
  aliases: [],
  reply,
  permission: 'everyone',
  cooldownSec: 0,
  userCooldownSec: 0,
  sendAs: 'bot',
  enabled: true,
  ...over,
});

export const fx = {} as { dir: string; app: GreenroomApp; sandbox: Sandbox; viewer: number; botrix: number };

/** Invokes through the router as a transport would. */
export async function invoke<C extends keyof InvokeResults>(channel: C, ...args: unknown[]) {
  return (await fx.app.router.invoke(channel, args)) as Result<InvokeResults[C]>;
}

/** Everything posted in the streamer's channel, oldest first, after the first `since` messages. */
export function posted(since = 0): SandboxChatMessage[] {
  return [...fx.sandbox.ctx.state.chatMessages.values()]
    .filter((m) => m.broadcasterUserId === STREAMER_USER_ID)
    .slice(since);
}

/** Where the channel's chat stands now, for `posted(since)`. */
export const mark = (): number => posted().length;

/** What the app itself posted (as the bot or as the streamer) from `since` on. */
export const appPosts = (since = 0): SandboxChatMessage[] =>
  posted(since).filter((m) => m.senderUserId === BOT_USER_ID || m.senderUserId === STREAMER_USER_ID);

/** Resolves with the first event the app announces to its panels that `match` accepts. */
export function announced(
  match: (event: EventPayloads['kick:event']) => boolean,
): Promise<EventPayloads['kick:event']> {
  return new Promise((resolve) => {
    const off = fx.app.events.on('kick:event', (event) => {
      if (match(event)) {
        off();
        resolve(event);
      }
    });
  });
}

/** Resolves with the first chat message the app announces that `match` accepts (after auto-moderation). */
export async function heard(match: (message: ChatMessageView) => boolean): Promise<ChatMessageView> {
  const event = await announced((e) => e.kind === 'chat' && match(e.message));
  return (event as Extract<EventPayloads['kick:event'], { kind: 'chat' }>).message;
}

/** Announcements of what `say` sent that `settle` has not waited for yet. */
const unheard: Promise<unknown>[] = [];

/**
 * A chatter's message, delivered by the sandbox to the app's receiver as a signed webhook. Deliveries
 * travel in parallel, as Kick's do, so two lines said in a row may reach the app in either order.
 */
export function say(content: string, userId = fx.viewer): void {
  unheard.push(heard((m) => m.content === content && m.sender.userId === userId));
  triggerEvent(fx.sandbox.ctx, 'chat.message.sent', { overrides: { content, sender: { user_id: userId } } });
}

/** Resolves once the sandbox holds a message `match` accepts. */
export async function postedSoon(match: (m: SandboxChatMessage) => boolean, since: number): Promise<void> {
  while (!posted(since).some(match)) {
    await new Promise<void>((resolve) => {
      const off = fx.sandbox.ctx.state.onEvent(() => {
        off();
        resolve();
      });
    });
  }
}

/**
 * A marker the bot answers after everything it queued before: the queue sends in order, so once the marker's
 * answer is posted, any answer to what came before it is posted too. No waiting on a clock.
 */
export async function settle(since: number): Promise<void> {
  // The bot has queued its answer to a line by the time the app announces that line, so the marker is
  // said only once every earlier line is heard: otherwise its delivery could overtake theirs.
  await Promise.all(unheard.splice(0));
  const tag = `m${Math.random().toString(36).slice(2, 8)}`;
  say(`!marker ${tag}`);
  void unheard.pop();
  await postedSoon((m) => m.content === `marker ${tag}`, since);
}

/** The hooks every file of this group runs: the app with `commands` in its settings file, signed in. */
export function useChatBotApp(commands: ChatCommand[]): void {
  beforeAll(async () => {
    fx.dir = mkdtempSync(join(tmpdir(), 'greenroom-chat-bot-'));
    const settings = openSettings(fx.dir, { randomBytes });
    const chatBot = structuredClone(DEFAULT_CHAT_BOT_SETTINGS);
    chatBot.commands = [...commands, command('marker', 'marker {args}')];
    settings.update({ redirectUri: 'http://127.0.0.1:0/callback', chatBot });
    const config = resolveConfig({
      env: {
        GREENROOM_SANDBOX_AUTO_APPROVE: String(STREAMER_USER_ID),
        GREENROOM_SANDBOX_ACTIVITY: 'off',
        GREENROOM_WEBHOOK_PORT: '0',
      },
      settings: settings.values(),
      storedClientSecret: null,
      dataDir: fx.dir,
    });
    fx.app = await createApp(config, {
      clock: systemClock,
      openExternal: async (url) => {
        const authorize = await request(url);
        await authorize.body.text();
        await (await request(authorize.headers.location as string)).body.text();
      },
      secretStore: new MemorySecretStore(),
      webhooks: createAppWebhookPort,
      log: () => undefined,
      dataDir: fx.dir,
      settings,
    });
    fx.sandbox = fx.app.sandbox!;
    fx.viewer = viewerIds(fx.sandbox.ctx.state)[1]!;
    fx.botrix = addBotRix(fx.sandbox);
    await fx.app.start();
    const subscribed = new Promise<void>((resolve) => {
      const off = fx.app.events.on('health:changed', (health) => {
        if (health.subscriptions.length > 0 && health.subscriptions.every((s) => s.state === 'active')) {
          off();
          resolve();
        }
      });
    });
    const signedIn = await invoke('auth:start-login', {});
    if (!signedIn.ok) {
      throw new Error(`sign-in failed: ${signedIn.error.message}`);
    }
    await subscribed;
  }, 30_000);

  afterAll(async () => {
    await fx.app?.stop();
    rmSync(fx.dir, { recursive: true, force: true });
  });
}

/** BotRix, another bot many channels run, chatting in the sandbox's channel. */
function addBotRix(sandbox: Sandbox): number {
  const userId = 100_900;
  const users = sandbox.ctx.state.users;
  const like = users.get(BOT_USER_ID)!;
  users.set(userId, {
    ...like,
    userId,
    username: 'BotRix',
    email: 'botrix@sandbox.greenroom.invalid',
    badges: new Map(),
  });
  return userId;
}
