import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kick } from '../../../electron/kick/create-kick';
import { redeemReward } from '../../../sandbox/api/rewards-redeem';
import type { Sandbox } from '../../../sandbox/index';
import { FIRST_VIEWER_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { CountingAgent } from '../../helpers/counting-agent';
import { createTestBrowser, kickOnSandbox } from '../../helpers/kick-on-sandbox';
import { startSandbox } from '../../helpers/sandbox';

/** Every seed operation through the real client against the sandbox over HTTP. */
describe('Kick client: every operation against the sandbox', () => {
  let sandbox: Sandbox;
  let kick: Kick;
  let agent: CountingAgent;
  const viewer = FIRST_VIEWER_USER_ID + 1;

  beforeAll(async () => {
    sandbox = await startSandbox();
    agent = new CountingAgent();
    const browser = createTestBrowser(sandbox);
    kick = kickOnSandbox(sandbox, { openExternal: browser.open, dispatcher: agent, sleep: () => Promise.resolve() });
    await kick.signIn();
    await browser.settled();
  });
  afterAll(async () => {
    await kick.close();
    await agent.close();
    await sandbox.close();
  });

  it('users: by id and the signed-in user; unknown ids are an empty result', async () => {
    await expect(kick.client.fetchCurrentUser()).resolves.toMatchObject({
      user_id: STREAMER_USER_ID,
      name: 'sandbox_streamer',
    });
    await expect(kick.client.fetchUser(viewer)).resolves.toMatchObject({ user_id: viewer, email: '' });
    await expect(kick.client.fetchUser(999_999)).resolves.toBeNull();
  });

  it('channels: by id, by slug, own channel with stream key; update title, category and tags', async () => {
    const own = await kick.client.fetchChannel();
    expect(own).toMatchObject({
      broadcaster_user_id: STREAMER_USER_ID,
      stream: { key: expect.stringMatching(/^sk_/) },
    });
    await expect(kick.client.fetchChannel({ slug: own!.slug })).resolves.toMatchObject({
      broadcaster_user_id: STREAMER_USER_ID,
    });
    await kick.client.updateChannel({
      streamTitle: 'Ranked grind',
      categoryId: 104,
      customTags: ['English', 'Competitive'],
    });
    await expect(kick.client.fetchChannel({ userId: STREAMER_USER_ID })).resolves.toMatchObject({
      stream_title: 'Ranked grind',
      category: { id: 104 },
      stream: { custom_tags: ['English', 'Competitive'] },
    });
  });

  it('livestreams: v2 pages and iterator, per-user, stats, and the deprecated v1', async () => {
    const page = await kick.client.fetchLivestreamsV2({ limit: 5 });
    expect(page.items).toHaveLength(5);
    expect(page.nextCursor).not.toBeNull();
    const all: string[] = [];
    for await (const stream of kick.client.iterateLivestreamsV2({ limit: 5 })) {
      all.push(stream.id);
    }
    const { total_count } = await kick.client.fetchLivestreamStats();
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(total_count);
    const live = await kick.client.fetchUserLivestreams([page.items[0]!.broadcaster_user.id, STREAMER_USER_ID]);
    expect(live.map((s) => s.broadcaster_user.id)).toEqual([page.items[0]!.broadcaster_user.id]);
    await expect(kick.client.fetchLivestream(STREAMER_USER_ID)).resolves.toBeNull();
    const v1 = await kick.client.fetchLivestreams({ limit: 3, sort: 'viewer_count' });
    expect(v1).toHaveLength(3);
    expect(v1[0]!.viewer_count).toBeGreaterThanOrEqual(v1[1]!.viewer_count);
  });

  it('categories: search by name and walk pages', async () => {
    const page = await kick.client.fetchCategories({ query: 'Just' });
    expect(page.items.map((c) => c.name)).toContain('Just Chatting');
    const names: string[] = [];
    for await (const c of kick.client.iterateCategories({ limit: 7 })) {
      names.push(c.name);
    }
    expect(names.length).toBe(sandbox.ctx.state.categories.size);
  });

  it('chat: send as bot and as the streamer, reply, delete', async () => {
    const bot = await kick.client.sendChatMessage({ content: 'Welcome in! [emote:37226:KEKW]', type: 'bot' });
    expect(bot).toMatchObject({ is_sent: true, message_id: expect.any(String) });
    const reply = await kick.client.sendChatMessage({
      content: 'thanks',
      type: 'user',
      broadcasterUserId: STREAMER_USER_ID,
      replyToMessageId: bot.message_id,
    });
    expect(sandbox.ctx.state.chatMessages.get(reply.message_id)).toMatchObject({ replyToMessageId: bot.message_id });
    await kick.client.deleteChatMessage(reply.message_id);
    expect(sandbox.ctx.state.chatMessages.get(reply.message_id)?.deleted).toBe(true);
  });

  it('moderation: timeout, permanent ban with reason, unban', async () => {
    await kick.client.banUser({ broadcasterUserId: STREAMER_USER_ID, userId: viewer, duration: 10 });
    expect(sandbox.ctx.state.activeBan(STREAMER_USER_ID, viewer)?.expiresAtMs).not.toBeNull();
    await kick.client.banUser({ broadcasterUserId: STREAMER_USER_ID, userId: viewer, reason: 'spam' });
    expect(sandbox.ctx.state.activeBan(STREAMER_USER_ID, viewer)).toMatchObject({ expiresAtMs: null, reason: 'spam' });
    await kick.client.unbanUser({ broadcasterUserId: STREAMER_USER_ID, userId: viewer });
    expect(sandbox.ctx.state.activeBan(STREAMER_USER_ID, viewer)).toBeUndefined();
  });

  it('rewards and redemptions: create, update, pause, list, accept and reject with failures, delete', async () => {
    const reward = await kick.client.createChannelReward({
      title: 'Hydrate',
      cost: 100,
      description: 'Drink water',
      backgroundColor: '#123abc',
    });
    expect(reward).toMatchObject({
      title: 'Hydrate',
      cost: 100,
      is_enabled: true,
      is_paused: false,
      background_color: '#123abc',
    });
    await expect(kick.client.updateChannelReward(reward.id, { cost: 150, isPaused: true })).resolves.toMatchObject({
      cost: 150,
      is_paused: true,
    });
    await kick.client.updateChannelReward(reward.id, { isPaused: false });
    expect((await kick.client.fetchChannelRewards()).map((r) => r.id)).toContain(reward.id);
    const ids = Array.from(
      { length: 3 },
      (_, i) => redeemReward(sandbox.ctx.state, { rewardId: reward.id, redeemerUserId: viewer + i, userInput: '' }).id,
    );
    const page = await kick.client.fetchRewardRedemptions({ rewardId: reward.id });
    expect(page.items[0]!.redemptions.map((r) => r.id).sort()).toEqual([...ids].sort());
    await expect(kick.client.acceptRewardRedemptions([ids[0]!])).resolves.toEqual([]);
    await expect(kick.client.rejectRewardRedemptions([ids[0]!, ids[1]!])).resolves.toEqual([
      { id: ids[0], reason: 'NOT_PENDING' },
    ]);
    const pending: string[] = [];
    for await (const group of kick.client.iterateRewardRedemptions({ rewardId: reward.id })) {
      pending.push(...group.redemptions.map((r) => r.id));
    }
    expect(pending).toEqual([ids[2]]);
    await expect(kick.client.fetchRewardRedemptions({ ids: [ids[0]!] })).resolves.toMatchObject({
      items: [{ redemptions: [{ status: 'accepted' }] }],
    });
    await kick.client.deleteChannelReward(reward.id);
    expect((await kick.client.fetchChannelRewards()).map((r) => r.id)).not.toContain(reward.id);
  });

  it('KICKs leaderboard', async () => {
    sandbox.ctx.state.kicksGifts.push({
      broadcasterUserId: STREAMER_USER_ID,
      senderUserId: viewer,
      amount: 500,
      createdAtMs: sandbox.ctx.state.now(),
    });
    const board = await kick.client.fetchKicksLeaderboard(5);
    expect(board.lifetime[0]).toMatchObject({ user_id: viewer, gifted_amount: 500, rank: 1 });
  });

  it('ads: status, enroll while offline, run a break when live, Conflict for a second', async () => {
    await expect(kick.client.fetchAdBreakStatus()).resolves.toMatchObject({ opted_in: false });
    await kick.client.enrollInAds();
    const channel = sandbox.ctx.state.channels.get(STREAMER_USER_ID)!;
    Object.assign(channel, {
      isLive: true,
      startedAtMs: sandbox.ctx.state.now(),
      livestreamId: '00000000-0000-4000-8000-000000000001',
    });
    const created = await kick.client.createAdBreak({ breakDurationSeconds: 30 });
    expect(created).toMatchObject({ id: expect.any(String), remaining_ad_breaks: 2 });
    await expect(kick.client.createAdBreak({ breakDurationSeconds: 30 })).rejects.toMatchObject({
      code: 'Conflict',
      status: 409,
      kickCode: 'AD_BREAK_ACTIVE',
    });
    await expect(kick.client.fetchAdBreakStatus()).resolves.toMatchObject({
      opted_in: true,
      remaining_ad_breaks: 2,
      ad_breaks: [{ id: created.id }],
    });
    channel.isLive = false;
  });

  it('event subscriptions: subscribe, list, unsubscribe', async () => {
    const created = await kick.client.subscribeToEvent({ eventType: 'channel.followed', userId: STREAMER_USER_ID });
    expect(created).toMatchObject({ name: 'channel.followed', version: 1, subscription_id: expect.any(String) });
    const listed = await kick.client.fetchEventsSubscriptions();
    expect(listed.map((s) => s.id)).toContain(created!.subscription_id);
    await kick.client.unsubscribeFromEvent(created!.subscription_id!);
    expect((await kick.client.fetchEventsSubscriptions()).map((s) => s.id)).not.toContain(created!.subscription_id);
  });

  it('introspection of both tokens and the public key', async () => {
    await expect(kick.introspect('user')).resolves.toMatchObject({
      active: true,
      token_type: 'user',
      scope: expect.stringContaining('chat:write'),
    });
    await expect(kick.introspect('app')).resolves.toMatchObject({ active: true, token_type: 'app' });
    await expect(kick.client.fetchPublicKey()).resolves.toBe(sandbox.ctx.keys.publicKeyPem);
  });

  it('error kinds: BadRequest, Forbidden, NotFound and Ratelimited carry Kick status and message', async () => {
    await expect(
      kick.client.sendChatMessage({ content: 'hi', type: 'user', broadcasterUserId: 424242 }),
    ).rejects.toMatchObject({
      code: 'BadRequest',
      status: 400,
      kickMessage: expect.stringContaining('Channel not found'),
    });
    await expect(kick.client.banUser({ broadcasterUserId: 200001, userId: viewer })).rejects.toMatchObject({
      code: 'Forbidden',
      status: 403,
    });
    await expect(kick.client.deleteChatMessage('no-such-message')).rejects.toMatchObject({
      code: 'NotFound',
      status: 404,
    });
    const ads = sandbox.ctx.state.adsFor(STREAMER_USER_ID);
    ads.limitMax = ads.breaks.length;
    sandbox.ctx.clock.advance(60_000);
    const channel = sandbox.ctx.state.channels.get(STREAMER_USER_ID)!;
    channel.isLive = true;
    await expect(kick.client.createAdBreak({ breakDurationSeconds: 10 })).rejects.toMatchObject({
      code: 'Ratelimited',
      status: 429,
    });
    channel.isLive = false;
  });

  it('every validation error leaves without sending a request', async () => {
    const before = agent.requests;
    const attempts = [
      kick.client.sendChatMessage({ content: 'x'.repeat(501) }),
      kick.client.updateChannel({ customTags: Array.from({ length: 11 }, (_, i) => `t${i}`) }),
      kick.client.updateChannel({}),
      kick.client.acceptRewardRedemptions(Array.from({ length: 26 }, (_, i) => `r${i}`)),
      kick.client.rejectRewardRedemptions(['a', 'a']),
      kick.client.fetchRewardRedemptions({ ids: ['a'], rewardId: 'b' }),
      kick.client.createAdBreak({ breakDurationSeconds: 6 }),
      kick.client.banUser({ broadcasterUserId: STREAMER_USER_ID, userId: viewer, duration: 10081 }),
      kick.client.banUser({ broadcasterUserId: STREAMER_USER_ID, userId: viewer, reason: 'r'.repeat(101) }),
      kick.client.createChannelReward({ title: 't'.repeat(51), cost: 1 }),
      kick.client.createChannelReward({ title: 'ok', cost: 0 }),
      kick.client.fetchKicksLeaderboard(101),
      kick.client.fetchUserLivestreams([]),
      kick.client.fetchCategories({ limit: 1001 }),
    ];
    const results = await Promise.allSettled(attempts);
    expect(results.map((r) => (r.status === 'rejected' ? (r.reason as { code: string }).code : 'sent'))).toEqual(
      Array(attempts.length).fill('Validation'),
    );
    expect(agent.requests).toBe(before);
  });
});
