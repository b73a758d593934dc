/**
 * What the automod integration tests share: the whole app in sandbox mode with its real webhook port, so a
 * chat line is a signed delivery from the embedded sandbox to the receiver over HTTP (verify, journal,
 * ingest, auto-moderation), and rules are saved with `settings:update` through the router, as a panel
 * saves them.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll } from 'vitest';
import type { AutomodSettings } from '../../../shared/automod';
import type { Result } from '../../../shared/errors';
import type { EventPayloads, InvokeResults } from '../../../shared/ipc-contract';
import type { ChatMessageView, ModAction } from '../../../shared/views';
import { resolveConfig } from '../../../electron/app/config';
import { createApp, type GreenroomApp } from '../../../electron/app/create-app';
import { openSettings } from '../../../electron/app/settings';
import { systemClock } from '../../../electron/core/clock';
import { createAppWebhookPort } from '../../../electron/app/webhook-port';
import { MemorySecretStore } from '../../../electron/secrets/secret-store';
import { triggerEvent } from '../../../sandbox/triggers';
import { FIRST_VIEWER_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';

export interface AutomodApp {
  dir: string;
  app: GreenroomApp;
  logs: string[];
  chat: ChatMessageView[];
  actions: ModAction[];
}

export const fx = {} as AutomodApp;

/** Builds the app on `dir` (settings already there are used), starts it, signs in, waits for subscriptions. */
export async function startAutomodApp(dir: string): Promise<AutomodApp> {
  const settings = openSettings(dir, { randomBytes });
  settings.update({ redirectUri: 'http://127.0.0.1:0/callback' });
  const config = resolveConfig({
    env: {
      GREENROOM_SANDBOX_AUTO_APPROVE: String(STREAMER_USER_ID),
      GREENROOM_SANDBOX_ACTIVITY: 'off',
      GREENROOM_WEBHOOK_PORT: '0',
    },
    settings: settings.values(),
    storedClientSecret: null,
    dataDir: dir,
  });
  const logs: string[] = [];
  const app = await createApp(config, {
    clock: systemClock,
    openExternal: async (url) => {
      const authorize = await request(url);
      await authorize.body.text();
      await (await request(authorize.headers.location as string)).body.text();
    },
    secretStore: new MemorySecretStore(),
    webhooks: createAppWebhookPort,
    log: (line) => logs.push(line),
    dataDir: dir,
    settings,
  });
  const chat: ChatMessageView[] = [];
  const actions: ModAction[] = [];
  app.events.on('kick:event', (event: EventPayloads['kick:event']) => {
    if (event.kind === 'chat') {
      chat.push(event.message);
    }
  });
  app.events.on('mod:action', (action) => actions.push(action));
  await app.start();
  const subscribed = new Promise<void>((resolve) => {
    const off = app.events.on('health:changed', (health) => {
      if (health.subscriptions.length > 0 && health.subscriptions.every((s) => s.state === 'active')) {
        off();
        resolve();
      }
    });
  });
  const signedIn = await app.router.invoke('auth:start-login', [{}]);
  if (!signedIn.ok) {
    throw new Error(`sign-in failed: ${signedIn.error.message}`);
  }
  await subscribed;
  return { dir, app, logs, chat, actions };
}

/** The hooks of a file that shares one app: started before its tests, stopped and removed after. */
export function useAutomodApp(): void {
  beforeAll(async () => {
    Object.assign(fx, await startAutomodApp(mkdtempSync(join(tmpdir(), 'greenroom-automod-'))));
  }, 30_000);
  afterAll(async () => {
    await fx.app?.stop();
    if (fx.dir) {
      rmSync(fx.dir, { recursive: true, force: true });
    }
  });
}

/** Saves auto-moderation's rules as the panel does; the router's answer. */
export async function saveRules(app: GreenroomApp, automod: AutomodSettings): Promise<Result<unknown>> {
  return await app.router.invoke('settings:update', [{ automod }]);
}

let viewer = 0;

/**
 * A viewer's chat line, delivered by the sandbox as Kick would (signed, over HTTP); resolves with the
 * message as the app announced it to the panels, and the mod log entry auto-moderation made for it, if any.
 */
export async function say(
  target: AutomodApp,
  content: string,
): Promise<{ message: ChatMessageView; action: ModAction | undefined }> {
  const app = target.app;
  const userId = FIRST_VIEWER_USER_ID + (viewer++ % 20);
  const [event] = triggerEvent(app.sandbox!.ctx, 'chat.message.sent', {
    overrides: { content, sender: { user_id: userId } },
  });
  const messageId = (event!.payload as { message_id: string }).message_id;
  const message = await new Promise<ChatMessageView>((resolve) => {
    const seen = target.chat.find((m) => m.messageId === messageId);
    if (seen) {
      resolve(seen);
      return;
    }
    const off = app.events.on('kick:event', (e) => {
      if (e.kind === 'chat' && e.message.messageId === messageId) {
        off();
        resolve(e.message);
      }
    });
  });
  // Auto-moderation logs its action right after it judged the line; a removed line always has one.
  const action = message.deleted
    ? await new Promise<ModAction>((resolve) => {
        const logged = target.actions.find((a) => a.messageId === messageId);
        if (logged) {
          resolve(logged);
          return;
        }
        const off = app.events.on('mod:action', (a) => {
          if (a.messageId === messageId) {
            off();
            resolve(a);
          }
        });
      })
    : undefined;
  return { message, action };
}

/** The app's answer to `channel`, unwrapped. */
export async function call<C extends keyof InvokeResults>(
  app: GreenroomApp,
  channel: C,
  ...args: unknown[]
): Promise<InvokeResults[C]> {
  const result = (await app.router.invoke(channel, args)) as Result<InvokeResults[C]>;
  if (!result.ok) {
    throw new Error(`${channel} failed: ${result.error.code}: ${result.error.message}`);
  }
  return result.value;
}
