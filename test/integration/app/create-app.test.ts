/**
 * The composition root in sandbox mode, end to end: createApp starts the embedded sandbox, the streamer
 * signs in through the sandbox's consent page (played by an HTTP client), and every panel request goes
 * through `router.invoke` exactly as the IPC and WebSocket transports send it. Each step asserts that the
 * sandbox's own state changed, not just that a call returned.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Result } from '../../../shared/errors';
import type { EventChannel, EventPayloads, InvokeResults } from '../../../shared/ipc-contract';
import { resolveConfig } from '../../../electron/app/config';
import { createApp, type GreenroomApp } from '../../../electron/app/create-app';
import { openSettings } from '../../../electron/app/settings';
import { systemClock } from '../../../electron/core/clock';
import { redeemReward } from '../../../sandbox/api/rewards-redeem';
import type { Sandbox } from '../../../sandbox/index';
import { triggerEvent } from '../../../sandbox/triggers';
import { FIRST_VIEWER_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { MemorySecretStore } from '../../../electron/secrets/secret-store';
import { createAppWebhookPort } from '../../../electron/launch/webhook-port';
import { createSandboxWebhookPort, type SandboxWebhookPort } from './sandbox-webhook-port';

/** Plays the streamer's browser on the sandbox's consent page: loads it, approves as `userId`, follows the redirect. */
function consentBrowser(userId: number) {
  const pages: { consent: string; callbackStatus: number }[] = [];
  const loads: Promise<void>[] = [];
  const visit = async (authorizeUrl: string): Promise<void> => {
    const consent = await request(authorizeUrl);
    const page = await consent.body.text();
    const requestId = /name="request_id" value="([^"]+)"/.exec(page)?.[1];
    if (consent.statusCode !== 200 || !requestId) {
      throw new Error(`expected the consent page, got ${consent.statusCode}`);
    }
    const decision = await request(new URL('/oauth/authorize/decision', authorizeUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ request_id: requestId, user_id: String(userId), decision: 'approve' }).toString(),
    });
    await decision.body.text();
    const callback = await request(decision.headers.location as string);
    await callback.body.text();
    pages.push({ consent: page, callbackStatus: callback.statusCode });
  };
  return {
    pages,
    opened: [] as string[],
    open(url: string): Promise<void> {
      this.opened.push(url);
      const load = url.includes('/oauth/authorize') ? visit(url) : Promise.resolve();
      loads.push(load);
      return load;
    },
    settled: () => Promise.all(loads),
  };
}

describe('createApp in sandbox mode', () => {
  let dir: string;
  let app: GreenroomApp;
  let sandbox: Sandbox;
  let port: SandboxWebhookPort | undefined;
  const browser = consentBrowser(STREAMER_USER_ID);
  const logs: string[] = [];
  const received: { [E in EventChannel]: EventPayloads[E][] } = {
    'kick:event': [],
    'chat:deleted': [],
    'mod:action': [],
    'session:changed': [],
    'health:changed': [],
    'settings:changed': [],
    'app:restarted': [],
  };

  /** Invokes through the router as a transport would, and unwraps a success. */
  async function call<C extends keyof InvokeResults>(channel: C, ...args: unknown[]): Promise<InvokeResults[C]> {
    const result = (await app.router.invoke(channel, args)) as Result<InvokeResults[C]>;
    if (!result.ok) {
      throw new Error(`${channel} failed: ${result.error.code}: ${result.error.message}`);
    }
    return result.value;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'greenroom-app-'));
    const settings = openSettings(dir, { randomBytes });
    // Port 0: the loopback listener picks a free port, and sandbox mode registers whatever it picked.
    settings.update({ redirectUri: 'http://127.0.0.1:0/callback' });
    const config = resolveConfig({
      env: { GREENROOM_SANDBOX_ACTIVITY: 'off' },
      settings: settings.values(),
      storedClientSecret: null,
      dataDir: dir,
    });
    app = await createApp(config, {
      clock: systemClock,
      openExternal: (url) => browser.open(url),
      secretStore: new MemorySecretStore(),
      webhooks: (deps) => (port = createSandboxWebhookPort(deps)),
      log: (line) => logs.push(line),
      dataDir: dir,
      settings,
    });
    sandbox = app.sandbox!;
    for (const channel of Object.keys(received) as EventChannel[]) {
      app.events.on(channel, (payload) => (received[channel] as unknown[]).push(payload));
    }
    await app.start();
  });

  afterAll(async () => {
    await app?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts on the embedded sandbox and says so', async () => {
    expect(port?.started).toBe(true);
    const snapshot = await call('app:snapshot');
    expect(snapshot).toMatchObject({
      mode: 'sandbox',
      sandboxNotice: expect.stringContaining('Running on the Greenroom sandbox'),
      broadcasterUserId: null,
      account: { signedIn: false, signingIn: false },
      health: { mode: 'sandbox', secretStore: { backend: 'memory' }, tunnel: { state: 'off' } },
      settings: {
        emoteHost: sandbox.urls.api,
        hasClientSecret: false,
        dataDir: dir,
        sandbox: { adminUrl: sandbox.urls.admin, tokenFile: join(dir, 'sandbox.json') },
      },
      dockUrl: null,
    });
  });

  it('signs in through the consent page', async () => {
    const account = await call('auth:start-login', {});
    await browser.settled();
    expect(browser.pages).toHaveLength(1);
    expect(browser.pages[0]!.consent).toMatch(/sandbox/i);
    expect(browser.pages[0]!.callbackStatus).toBe(200);
    expect(account).toMatchObject({
      signedIn: true,
      accountLabel: 'sandbox_streamer',
      userId: STREAMER_USER_ID,
      signingIn: false,
    });
    expect(account.scopes).toContain('moderation:ban');
    const sessions = received['session:changed'];
    expect(sessions.some((s) => s.signingIn)).toBe(true);
    expect(sessions.at(-1)).toMatchObject({ signedIn: true, accountLabel: 'sandbox_streamer' });
    expect((await call('app:snapshot')).broadcasterUserId).toBe(STREAMER_USER_ID);
  });

  it('sends chat as the streamer and as the bot, and the messages come back as chat events', async () => {
    const sent = await call('chat:send', { content: 'hello from greenroom [emote:37226:KEKW]', as: 'user' });
    expect(sent.is_sent).toBe(true);
    expect(sandbox.ctx.state.chatMessages.get(sent.message_id)).toMatchObject({
      senderUserId: STREAMER_USER_ID,
      type: 'user',
    });
    const bot = await call('chat:send', { content: 'beep', as: 'bot', replyToMessageId: sent.message_id });
    expect(sandbox.ctx.state.chatMessages.get(bot.message_id)).toMatchObject({
      type: 'bot',
      replyToMessageId: sent.message_id,
    });
    const history = await call('chat:history');
    expect(history.map((m) => m.messageId)).toEqual(expect.arrayContaining([sent.message_id, bot.message_id]));
    const chatEvents = received['kick:event'].filter((e) => e.kind === 'chat');
    expect(chatEvents.map((e) => e.kind === 'chat' && e.message.messageId)).toContain(bot.message_id);
    const botView = history.find((m) => m.messageId === bot.message_id)!;
    expect(botView.replyTo).toMatchObject({ messageId: sent.message_id, senderUsername: 'sandbox_streamer' });
  });

  it('times out, bans and unbans a viewer, deletes their message, and keeps the mod log and user card', async () => {
    const viewer = FIRST_VIEWER_USER_ID + 4;
    triggerEvent(sandbox.ctx, 'chat.message.sent', { overrides: { sender: { user_id: viewer } } });
    const message = (await call('chat:history')).findLast((m) => m.sender.userId === viewer);
    expect(message).toBeDefined();

    const timeout = await call('mod:timeout', { userId: viewer, minutes: 10, reason: 'calm down' });
    expect(timeout).toMatchObject({ kind: 'timeout', ok: true, targetUsername: message!.sender.username });
    const ban = sandbox.ctx.state.activeBan(STREAMER_USER_ID, viewer);
    expect(ban?.expiresAtMs).toBeGreaterThan(Date.now() + 9 * 60_000);

    await call('mod:ban', { userId: viewer, reason: 'spam' });
    expect(sandbox.ctx.state.activeBan(STREAMER_USER_ID, viewer)).toMatchObject({ expiresAtMs: null, reason: 'spam' });
    await call('mod:unban', { userId: viewer });
    expect(sandbox.ctx.state.activeBan(STREAMER_USER_ID, viewer)).toBeUndefined();

    // Unbanning someone who is not banned fails at Kick: an error value, and a failed entry in the log.
    const failed = await app.router.invoke('mod:unban', [{ userId: viewer }]);
    expect(failed).toMatchObject({ ok: false, error: { code: 'BadRequest' } });

    await call('chat:delete', { messageId: message!.messageId });
    expect(sandbox.ctx.state.chatMessages.get(message!.messageId)?.deleted).toBe(true);
    expect(received['chat:deleted']).toContainEqual({ messageId: message!.messageId });
    expect((await call('chat:history')).find((m) => m.messageId === message!.messageId)?.deleted).toBe(true);

    const log = await call('mod:log');
    expect(log.map((a) => [a.kind, a.ok])).toEqual([
      ['timeout', true],
      ['ban', true],
      ['unban', true],
      ['unban', false],
      ['delete', true],
    ]);
    expect(log[3]!.error).toMatch(/not banned/);
    expect(received['mod:action']).toEqual(log);
    const card = await call('mod:user-card', { userId: viewer });
    expect(card.recentMessages.map((m) => m.messageId)).toContain(message!.messageId);
    expect(card.actions).toHaveLength(5);
  });

  it('creates, edits, pauses and deletes a reward; rewards made elsewhere are read-only', async () => {
    const created = await call('rewards:create', { title: 'Hydrate', cost: 100, isUserInputRequired: true });
    expect(sandbox.ctx.state.rewards.get(created.id)).toMatchObject({
      title: 'Hydrate',
      createdByClientId: sandbox.ctx.app.clientId,
    });
    sandbox.ctx.state.rewards.set('01ELSEWHERE000000000000000', {
      ...sandbox.ctx.state.rewards.get(created.id)!,
      id: '01ELSEWHERE000000000000000',
      title: 'From another app',
      createdByClientId: 'another-app',
    });
    const listed = await call('rewards:list');
    expect(listed.find((r) => r.id === created.id)?.canManage).toBe(true);
    expect(listed.find((r) => r.id === '01ELSEWHERE000000000000000')?.canManage).toBe(false);

    const updated = await call('rewards:update', {
      id: created.id,
      patch: { title: 'Hydrate now', isPaused: true, cost: 150 },
    });
    expect(updated).toMatchObject({ title: 'Hydrate now', is_paused: true, cost: 150 });
    expect(sandbox.ctx.state.rewards.get(created.id)).toMatchObject({ isPaused: true, cost: 150 });

    const refused = await app.router.invoke('rewards:update', [
      { id: '01ELSEWHERE000000000000000', patch: { cost: 1 } },
    ]);
    expect(refused).toMatchObject({ ok: false, error: { code: 'Forbidden' } });

    await call('rewards:delete', { id: created.id });
    expect(sandbox.ctx.state.rewards.get(created.id)?.deleted).toBe(true);
  });

  it('accepts and rejects redemptions in the queue, reporting a failure, and updates the feed in place', async () => {
    const reward = await call('rewards:create', { title: 'Song request', cost: 10, isUserInputRequired: true });
    const ids = [1, 2, 3].map(
      (i) =>
        redeemReward(sandbox.ctx.state, {
          rewardId: reward.id,
          redeemerUserId: FIRST_VIEWER_USER_ID + i,
          userInput: `song ${i}`,
        }).id,
    );
    const feedIds = (await call('feed:history')).filter((f) => f.kind === 'redemption').map((f) => f.redemption?.id);
    expect(feedIds).toEqual(expect.arrayContaining(ids));

    const queue = await call('redemptions:list', {});
    const group = queue.find((g) => g.reward.id === reward.id)!;
    expect(group.reward.can_manage).toBe(true);
    expect(group.redemptions.map((r) => r.id).sort()).toEqual([...ids].sort());

    expect(await call('redemptions:accept', { ids: [ids[0], ids[1]] })).toEqual([]);
    expect(sandbox.ctx.state.redemptions.get(ids[0]!)?.status).toBe('accepted');
    const failures = await call('redemptions:reject', { ids: [ids[1], ids[2]] });
    expect(failures).toEqual([{ id: ids[1], reason: 'NOT_PENDING' }]);
    expect(sandbox.ctx.state.redemptions.get(ids[2]!)?.status).toBe('rejected');
    expect(sandbox.ctx.state.redemptions.get(ids[1]!)?.status).toBe('accepted');

    const feed = await call('feed:history');
    const statusOf = (id: string) => feed.find((f) => f.redemption?.id === id)?.redemption?.status;
    expect(ids.map(statusOf)).toEqual(['accepted', 'accepted', 'rejected']);
    // One entry per redemption, however many updates it had.
    expect(feed.filter((f) => f.redemption?.id === ids[0])).toHaveLength(1);
    expect(received['kick:event'].filter((e) => e.kind === 'redemption').length).toBeGreaterThanOrEqual(6);
  });

  it('enrolls in ads, runs a break, and a second one while it runs is a Conflict', async () => {
    expect(await call('ads:status')).toMatchObject({ opted_in: false });
    await call('ads:enroll');
    expect(sandbox.ctx.state.adsFor(STREAMER_USER_ID).optedIn).toBe(true);
    triggerEvent(sandbox.ctx, 'livestream.status.updated', { overrides: { is_live: true } });
    const started = await call('ads:run', { seconds: 60 });
    expect(started.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(sandbox.ctx.state.adsFor(STREAMER_USER_ID).breaks).toHaveLength(1);
    const second = await app.router.invoke('ads:run', [{ seconds: 30 }]);
    expect(second).toMatchObject({
      ok: false,
      error: { code: 'Conflict', message: expect.stringMatching(/still running/) },
    });
    expect((await call('ads:status')).ad_breaks).toHaveLength(1);
  });

  it('updates the stream title, category and tags, and searches categories', async () => {
    const found = await call('stream:search-categories', { query: 'Counter-Strike 2' });
    const category = found.find((c) => c.name === 'Counter-Strike 2');
    expect(category).toBeDefined();
    const channel = await call('stream:update', {
      title: 'Ranked grind',
      categoryId: category!.id,
      tags: ['English', 'FPS'],
    });
    expect(channel).toMatchObject({ stream_title: 'Ranked grind', category: { id: category!.id } });
    expect(sandbox.ctx.state.channels.get(STREAMER_USER_ID)).toMatchObject({
      streamTitle: 'Ranked grind',
      categoryId: category!.id,
      customTags: ['English', 'FPS'],
    });
    expect((await call('stream:info'))?.stream.is_live).toBe(true);
  });

  it('shows the KICKs leaderboard', async () => {
    triggerEvent(sandbox.ctx, 'kicks.gifted', { count: 3 });
    const board = await call('kicks:leaderboard', { top: 5 });
    expect(board.lifetime.length).toBeGreaterThan(0);
    expect(board.lifetime[0]).toMatchObject({ rank: 1, gifted_amount: expect.any(Number) });
    expect(received['kick:event'].some((e) => e.kind === 'feed' && e.item.kind === 'kicks')).toBe(true);
  });

  it('reports health and pushes its changes', async () => {
    const health = await call('health:snapshot');
    expect(health).toMatchObject({
      mode: 'sandbox',
      webhookUrl: null,
      secretStore: { backend: 'memory', degraded: false },
    });
    expect(health.counters.accepted).toBeGreaterThan(10);
    expect(health.subscriptions).toHaveLength(10);
    // Pushed at most every 250 ms (electron/app/health-push.ts): the latest counters arrive within that.
    await expect.poll(() => received['health:changed'].at(-1)?.counters.accepted).toBe(health.counters.accepted);
  });

  it('updates settings, announcing them and resizing the chat', async () => {
    const updated = await call('settings:update', { chatScrollback: 100, notifications: { follows: false } });
    expect(updated).toMatchObject({ chatScrollback: 100, notifications: { follows: false, subs: true } });
    expect(received['settings:changed'].at(-1)).toEqual(updated);
    triggerEvent(sandbox.ctx, 'chat.message.sent', { count: 120 });
    expect(await call('chat:history')).toHaveLength(100);
    const follow = received['kick:event'].length;
    triggerEvent(sandbox.ctx, 'channel.followed');
    const event = received['kick:event'][follow];
    expect(event?.kind).toBe('feed');
    expect(event?.kind === 'feed' && app.notificationsFor(event.item)).toBeNull();
    const invalid = await app.router.invoke('settings:update', [{ redirectUri: 'http://example.com/callback' }]);
    expect(invalid).toMatchObject({
      ok: false,
      error: { code: 'InvalidArgument', message: expect.stringMatching(/redirectUri/) },
    });
  });

  it("opens only allow-listed links: Kick's, GitHub's and the sandbox's own", () => {
    const before = browser.opened.length;
    app.router.send('app:open-external', [{ url: `${sandbox.urls.admin}/` }]);
    app.router.send('app:open-external', [{ url: 'https://docs.kick.com/events/webhooks' }]);
    app.router.send('app:open-external', [{ url: 'https://evil.example/phish' }]);
    expect(browser.opened.slice(before)).toEqual([`${sandbox.urls.admin}/`, 'https://docs.kick.com/events/webhooks']);
    expect(logs.join('\n')).toMatch(/refused a link outside the allow-list \(https:\/\/evil\.example\)/);
  });

  it('signs out', async () => {
    const result = await call('auth:sign-out');
    expect(result.revoked).toBe(true);
    expect(received['session:changed'].at(-1)).toMatchObject({ signedIn: false, accountLabel: null, userId: null });
    expect(await app.router.invoke('mod:ban', [{ userId: FIRST_VIEWER_USER_ID }])).toMatchObject({
      ok: false,
      error: { code: 'NotSignedIn' },
    });
  });
});

describe('createApp in sandbox mode with the defaults', () => {
  it('runs simulated channel activity, approves sign-in at once when configured, and stops everything', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'greenroom-app-'));
    try {
      const settings = openSettings(dir, { randomBytes });
      settings.update({ redirectUri: 'http://127.0.0.1:0/callback' });
      const config = resolveConfig({
        env: { GREENROOM_SANDBOX_AUTO_APPROVE: String(STREAMER_USER_ID) },
        settings: settings.values(),
        storedClientSecret: null,
        dataDir: dir,
      });
      // No consent page to click through: the authorize URL redirects straight to the loopback listener.
      const open = async (url: string): Promise<void> => {
        const authorize = await request(url);
        await authorize.body.text();
        const callback = await request(authorize.headers.location as string);
        await callback.body.text();
      };
      let port: SandboxWebhookPort | undefined;
      const app = await createApp(config, {
        clock: systemClock,
        openExternal: open,
        secretStore: new MemorySecretStore(),
        webhooks: (deps) => (port = createSandboxWebhookPort(deps)),
        log: () => undefined,
        dataDir: dir,
        settings,
      });
      await app.start();
      const jobs = app.sandbox!.admin.jobs;
      expect(jobs.list()).toEqual([expect.objectContaining({ name: 'simulated-activity', state: 'running' })]);
      const signedIn = await app.router.invoke('auth:start-login', [{}]);
      expect(signedIn).toMatchObject({ ok: true, value: { signedIn: true, userId: STREAMER_USER_ID } });
      await app.stop();
      expect(jobs.list()).toEqual([expect.objectContaining({ name: 'simulated-activity', state: 'stopped' })]);
      expect(port?.started).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('createApp with the real webhook port, across a restart', () => {
  it('brings chat and the feed back from the journal, without announcing them again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'greenroom-app-restart-'));
    const build = async () => {
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
        clock: systemClock,
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
      const events: EventPayloads['kick:event'][] = [];
      app.events.on('kick:event', (event) => events.push(event));
      return { app, events };
    };
    /** Resolves once `app` has announced an event that `match` accepts. */
    const announced = (
      events: EventPayloads['kick:event'][],
      app: GreenroomApp,
      match: (e: EventPayloads['kick:event']) => boolean,
    ) =>
      new Promise<void>((resolve) => {
        if (events.some(match)) {
          resolve();
          return;
        }
        const off = app.events.on('kick:event', (event) => {
          if (match(event)) {
            off();
            resolve();
          }
        });
      });
    try {
      const first = await build();
      await first.app.start();
      // Signed in, the reconciler subscribes; wait until Kick (the sandbox) has every subscription.
      const subscribed = new Promise<void>((resolve) => {
        const off = first.app.events.on('health:changed', (health) => {
          if (health.subscriptions.length > 0 && health.subscriptions.every((s) => s.state === 'active')) {
            off();
            resolve();
          }
        });
      });
      expect(await first.app.router.invoke('auth:start-login', [{}])).toMatchObject({ ok: true });
      await subscribed;
      const sandbox = first.app.sandbox!;
      const chat = announced(
        first.events,
        first.app,
        (e) => e.kind === 'chat' && e.message.content === 'still here after a restart',
      );
      const follow = announced(first.events, first.app, (e) => e.kind === 'feed' && e.item.kind === 'follow');
      triggerEvent(sandbox.ctx, 'chat.message.sent', { overrides: { content: 'still here after a restart' } });
      triggerEvent(sandbox.ctx, 'channel.followed');
      await Promise.all([chat, follow]);
      await first.app.stop();

      const second = await build();
      await second.app.start();
      const history = (await second.app.router.invoke('chat:history', [])) as Result<InvokeResults['chat:history']>;
      expect(history.ok && history.value.map((m) => m.content)).toEqual(['still here after a restart']);
      const feed = (await second.app.router.invoke('feed:history', [])) as Result<InvokeResults['feed:history']>;
      expect(feed.ok && feed.value.map((f) => f.kind)).toEqual(['follow']);
      expect(second.events).toEqual([]);
      await second.app.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
