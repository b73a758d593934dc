/**
 * The first-message mark through the real app (docs/chat-tools.md#what-first-message-means): the embedded
 * sandbox delivers signed chat webhooks to the real receiver and journal, and the marks are read as the
 * panel reads them (`kick:event` live, `chat:history` after a restart).
 *
 * A fresh install knows nobody, so it marks no one; once the journal holds a week of the channel's chat, a
 * chatter never heard before is marked and a regular is not, and a restart marks the same lines.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../electron/app/config';
import { createApp, type GreenroomApp } from '../../../electron/app/create-app';
import { openSettings } from '../../../electron/app/settings';
import { AdjustableClock, type Clock, systemClock } from '../../../electron/core/clock';
import { createAppWebhookPort } from '../../../electron/app/webhook-port';
import { MemorySecretStore } from '../../../electron/secrets/secret-store';
import { triggerEvent } from '../../../sandbox/triggers';
import { FIRST_VIEWER_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import type { Result } from '../../../shared/errors';
import type { InvokeResults } from '../../../shared/ipc-contract';
import type { ChatMessageView } from '../../../shared/views';

const WAIT = { timeout: 15_000 };
const DAY_MS = 24 * 60 * 60 * 1000;
const REGULAR = FIRST_VIEWER_USER_ID;
const NEWCOMER = FIRST_VIEWER_USER_ID + 1;

let dir: string | undefined;
const running: GreenroomApp[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((app) => app.stop()));
  if (dir) {
    rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  }
});

/** Greenroom on the embedded sandbox with the real receiver and journal in `dir`, signed in and subscribed. */
async function start(clock: Clock = systemClock): Promise<GreenroomApp> {
  dir ??= mkdtempSync(join(tmpdir(), 'greenroom-first-message-'));
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
  const app = await createApp(config, {
    clock,
    openExternal: async (url) => {
      const authorize = await request(url);
      await authorize.body.text();
      await (await request(authorize.headers.location as string)).body.text();
    },
    secretStore: new MemorySecretStore(),
    webhooks: createAppWebhookPort,
    log: () => undefined,
    dataDir: dir,
    settings,
  });
  running.push(app);
  await app.start();
  const subscribed = new Promise<void>((resolve) => {
    const off = app.events.on('health:changed', (health) => {
      if (health.subscriptions.length > 0 && health.subscriptions.every((s) => s.state === 'active')) {
        off();
        resolve();
      }
    });
  });
  expect(await app.router.invoke('auth:start-login', [{}])).toMatchObject({ ok: true });
  await subscribed;
  return app;
}

/** A viewer's chat line, sent by Kick (the sandbox) at `atMs`; resolves with the line as the panel is told it. */
function say(app: GreenroomApp, userId: number, content: string, atMs = Date.now()): Promise<ChatMessageView> {
  const heard = new Promise<ChatMessageView>((resolve) => {
    const off = app.events.on('kick:event', (event) => {
      if (event.kind === 'chat' && event.message.content === content) {
        off();
        resolve(event.message);
      }
    });
  });
  triggerEvent(app.sandbox!.ctx, 'chat.message.sent', {
    overrides: {
      content,
      created_at: new Date(atMs).toISOString(),
      'sender.user_id': userId,
      'sender.username': `viewer_${userId}`,
    },
  });
  return heard;
}

async function history(app: GreenroomApp): Promise<ChatMessageView[]> {
  const result = (await app.router.invoke('chat:history', [])) as Result<InvokeResults['chat:history']>;
  if (!result.ok) {
    throw new Error(result.error.message);
  }
  return result.value;
}

const marked = (lines: ChatMessageView[]) => lines.filter((m) => m.firstMessage === true).map((m) => m.content);

describe('the first-message mark', () => {
  it('marks no one on a fresh install, where Greenroom knows nobody yet', async () => {
    const app = await start();
    const first = await say(app, REGULAR, 'hi, long-time viewer here');
    const second = await say(app, NEWCOMER, 'hello from another regular');
    expect(first.firstMessage).toBeUndefined();
    expect(second.firstMessage).toBeUndefined();
    expect(marked(await history(app))).toEqual([]);
  }, 30_000);

  it('marks a newcomer, not a regular, once a week of chat is heard, and a restart marks the same', async () => {
    // Eight days ago Greenroom (and Kick, on the same clock) heard the regular: the journal keeps that receipt.
    const earlier = await start(new AdjustableClock(systemClock, Date.now() - 8 * DAY_MS));
    await say(earlier, REGULAR, 'last week', Date.now() - 8 * DAY_MS);
    await earlier.stop();
    running.splice(0);

    const app = await start();
    await expect.poll(async () => (await history(app)).length, WAIT).toBe(1);
    const regular = await say(app, REGULAR, 'back again');
    const newcomer = await say(app, NEWCOMER, 'first time here!');
    const again = await say(app, NEWCOMER, 'second line');
    expect([regular.firstMessage, newcomer.firstMessage, again.firstMessage]).toEqual([undefined, true, undefined]);
    await app.stop();
    running.splice(0);

    const restarted = await start();
    await expect.poll(async () => (await history(restarted)).length, WAIT).toBe(4);
    expect(marked(await history(restarted))).toEqual(['first time here!']);
  }, 60_000);

  it('a line that claims an old time does not make a fresh install know the chat, nor after a restart', async () => {
    const app = await start();
    // Kick's zero time, and a plain week-old stamp: both received just now.
    await say(app, REGULAR, 'from the year one', Date.UTC(1, 0, 1));
    await say(app, REGULAR, 'from last week', Date.now() - 8 * DAY_MS);
    expect((await say(app, NEWCOMER, 'hello')).firstMessage).toBeUndefined();
    await app.stop();
    running.splice(0);

    const restarted = await start();
    await expect.poll(async () => (await history(restarted)).length, WAIT).toBe(3);
    expect(marked(await history(restarted))).toEqual([]);
    expect((await say(restarted, NEWCOMER + 1, 'me too')).firstMessage).toBeUndefined();
  }, 60_000);

  it('does not count a week that has not passed yet: six days of chat mark no one', async () => {
    const app = await start();
    await say(app, REGULAR, 'six days ago', Date.now() - 6 * DAY_MS);
    expect((await say(app, NEWCOMER, 'new here')).firstMessage).toBeUndefined();
  }, 30_000);
});
