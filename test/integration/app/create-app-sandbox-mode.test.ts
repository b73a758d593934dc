/**
 * The composition root in sandbox mode, end to end: createApp starts the embedded sandbox, the streamer
 * signs in through the sandbox's consent page (played by an HTTP client), and every panel request goes
 * through `router.invoke` exactly as the IPC and WebSocket transports send it. Each step asserts that the
 * sandbox's own state changed, not just that a call returned.
 *
 * This file: “createApp in sandbox mode”.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redeemReward } from '../../../sandbox/api/rewards-redeem';
import { triggerEvent } from '../../../sandbox/triggers';
import { FIRST_VIEWER_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { browser, call, fx, logs, received, useSetup } from './create-app-sandbox-mode-fixtures';

useSetup();

describe('createApp in sandbox mode', () => {
  it('starts on the embedded sandbox and says so', async () => {
    expect(fx.port?.started).toBe(true);
    const snapshot = await call('app:snapshot');
    expect(snapshot).toMatchObject({
      mode: 'sandbox',
      sandboxNotice: expect.stringContaining('Running on the Greenroom sandbox'),
      broadcasterUserId: null,
      account: { signedIn: false, signingIn: false },
      health: { mode: 'sandbox', secretStore: { backend: 'memory' }, tunnel: { state: 'off' } },
      settings: {
        emoteHost: fx.sandbox.urls.api,
        hasClientSecret: false,
        dataDir: fx.dir,
        sandbox: { adminUrl: fx.sandbox.urls.admin, tokenFile: join(fx.dir, 'sandbox.json') },
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
    expect(fx.sandbox.ctx.state.chatMessages.get(sent.message_id)).toMatchObject({
      senderUserId: STREAMER_USER_ID,
      type: 'user',
    });
    const bot = await call('chat:send', { content: 'beep', as: 'bot', replyToMessageId: sent.message_id });
    expect(fx.sandbox.ctx.state.chatMessages.get(bot.message_id)).toMatchObject({
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
    triggerEvent(fx.sandbox.ctx, 'chat.message.sent', { overrides: { sender: { user_id: viewer } } });
    const message = (await call('chat:history')).findLast((m) => m.sender.userId === viewer);
    expect(message).toBeDefined();

    const timeout = await call('mod:timeout', { userId: viewer, minutes: 10, reason: 'calm down' });
    expect(timeout).toMatchObject({ kind: 'timeout', ok: true, targetUsername: message!.sender.username });
    const ban = fx.sandbox.ctx.state.activeBan(STREAMER_USER_ID, viewer);
    expect(ban?.expiresAtMs).toBeGreaterThan(Date.now() + 9 * 60_000);

    await call('mod:ban', { userId: viewer, reason: 'spam' });
    expect(fx.sandbox.ctx.state.activeBan(STREAMER_USER_ID, viewer)).toMatchObject({
      expiresAtMs: null,
      reason: 'spam',
    });
    await call('mod:unban', { userId: viewer });
    expect(fx.sandbox.ctx.state.activeBan(STREAMER_USER_ID, viewer)).toBeUndefined();

    // Unbanning someone who is not banned fails at Kick: an error value, and a failed entry in the log.
    const failed = await fx.app.router.invoke('mod:unban', [{ userId: viewer }]);
    expect(failed).toMatchObject({ ok: false, error: { code: 'BadRequest' } });

    await call('chat:delete', { messageId: message!.messageId });
    expect(fx.sandbox.ctx.state.chatMessages.get(message!.messageId)?.deleted).toBe(true);
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
    expect(fx.sandbox.ctx.state.rewards.get(created.id)).toMatchObject({
      title: 'Hydrate',
      createdByClientId: fx.sandbox.ctx.app.clientId,
    });
    fx.sandbox.ctx.state.rewards.set('01ELSEWHERE000000000000000', {
      ...fx.sandbox.ctx.state.rewards.get(created.id)!,
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
    expect(fx.sandbox.ctx.state.rewards.get(created.id)).toMatchObject({ isPaused: true, cost: 150 });

    const refused = await fx.app.router.invoke('rewards:update', [
      { id: '01ELSEWHERE000000000000000', patch: { cost: 1 } },
    ]);
    expect(refused).toMatchObject({ ok: false, error: { code: 'Forbidden' } });

    await call('rewards:delete', { id: created.id });
    expect(fx.sandbox.ctx.state.rewards.get(created.id)?.deleted).toBe(true);
  });

  it('accepts and rejects redemptions in the queue, reporting a failure, and updates the feed in place', async () => {
    const reward = await call('rewards:create', { title: 'Song request', cost: 10, isUserInputRequired: true });
    const ids = [1, 2, 3].map(
      (i) =>
        redeemReward(fx.sandbox.ctx.state, {
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
    expect(fx.sandbox.ctx.state.redemptions.get(ids[0]!)?.status).toBe('accepted');
    const failures = await call('redemptions:reject', { ids: [ids[1], ids[2]] });
    expect(failures).toEqual([{ id: ids[1], reason: 'NOT_PENDING' }]);
    expect(fx.sandbox.ctx.state.redemptions.get(ids[2]!)?.status).toBe('rejected');
    expect(fx.sandbox.ctx.state.redemptions.get(ids[1]!)?.status).toBe('accepted');

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
    expect(fx.sandbox.ctx.state.adsFor(STREAMER_USER_ID).optedIn).toBe(true);
    triggerEvent(fx.sandbox.ctx, 'livestream.status.updated', { overrides: { is_live: true } });
    const started = await call('ads:run', { seconds: 60 });
    expect(started.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(fx.sandbox.ctx.state.adsFor(STREAMER_USER_ID).breaks).toHaveLength(1);
    const second = await fx.app.router.invoke('ads:run', [{ seconds: 30 }]);
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
    expect(fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)).toMatchObject({
      streamTitle: 'Ranked grind',
      categoryId: category!.id,
      customTags: ['English', 'FPS'],
    });
    const info = await call('stream:info');
    expect(info?.stream.is_live).toBe(true);
    // Kick sends the stream key with the channel (this token may read it); no panel ever gets it.
    expect(fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)?.streamKey).toBeTruthy();
    expect(info?.stream).not.toHaveProperty('key');
    expect(channel?.stream).not.toHaveProperty('key');
    // Kick announces the change by webhook; main reads the channel once and pushes it to every panel.
    await expect
      .poll(() => received['stream:changed'].map((c) => c?.stream_title), { timeout: 10_000 })
      .toContain('Ranked grind');
    for (const pushed of received['stream:changed']) {
      expect(pushed?.stream).not.toHaveProperty('key');
    }
  });

  it('shows the KICKs leaderboard', async () => {
    triggerEvent(fx.sandbox.ctx, 'kicks.gifted', { count: 3 });
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
    triggerEvent(fx.sandbox.ctx, 'chat.message.sent', { count: 120 });
    expect(await call('chat:history')).toHaveLength(100);
    const follow = received['kick:event'].length;
    triggerEvent(fx.sandbox.ctx, 'channel.followed');
    const event = received['kick:event'][follow];
    expect(event?.kind).toBe('feed');
    expect(event?.kind === 'feed' && fx.app.notificationsFor(event.item)).toBeNull();
    const invalid = await fx.app.router.invoke('settings:update', [{ redirectUri: 'http://example.com/callback' }]);
    expect(invalid).toMatchObject({
      ok: false,
      error: { code: 'InvalidArgument', message: expect.stringMatching(/redirectUri/) },
    });
  });

  it("opens only allow-listed links: Kick's, GitHub's and the sandbox's own", () => {
    const before = browser.opened.length;
    fx.app.router.send('app:open-external', [{ url: `${fx.sandbox.urls.admin}/` }]);
    fx.app.router.send('app:open-external', [{ url: 'https://docs.kick.com/events/webhooks' }]);
    fx.app.router.send('app:open-external', [{ url: 'https://evil.example/phish' }]);
    expect(browser.opened.slice(before)).toEqual([
      `${fx.sandbox.urls.admin}/`,
      'https://docs.kick.com/events/webhooks',
    ]);
    expect(logs.join('\n')).toMatch(/refused a link outside the allow-list \(https:\/\/evil\.example\)/);
  });

  it('signs out', async () => {
    const result = await call('auth:sign-out');
    expect(result.revoked).toBe(true);
    expect(received['session:changed'].at(-1)).toMatchObject({ signedIn: false, accountLabel: null, userId: null });
    expect(await fx.app.router.invoke('mod:ban', [{ userId: FIRST_VIEWER_USER_ID }])).toMatchObject({
      ok: false,
      error: { code: 'NotSignedIn' },
    });
  });
});
