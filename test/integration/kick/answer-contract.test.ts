import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Kick } from '../../../electron/kick/create-kick';
import { OPERATIONS } from '../../../electron/kick/operations';
import { WIRE_ASSUMPTIONS } from '../../../electron/kick/wire-assumptions';
import * as schemas from '../../../shared/kick/resource-schemas';
import { redeemReward } from '../../../sandbox/api/rewards-redeem';
import type { Sandbox } from '../../../sandbox/index';
import { FIRST_VIEWER_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { createTestBrowser, kickOnSandbox } from '../../helpers/kick-on-sandbox';
import { startKickProxy, type KickProxy } from '../../helpers/kick-proxy';
import { call, mintUserToken, startSandbox } from '../../helpers/sandbox';

type Operation = keyof typeof OPERATIONS;

/**
 * The schema each operation's `data` is read with, as the client reads it. A new schema or a new operation that
 * answers with data must be added here, or the coverage checks below fail.
 */
const ANSWER_SCHEMAS: Partial<Record<Operation, z.ZodType<unknown, unknown>>> = {
  fetchUser: z.array(schemas.kickUser),
  fetchChannel: z.array(schemas.kickChannel),
  fetchLivestreamsV2: z.array(schemas.kickLivestreamV2),
  fetchUserLivestreams: z.array(schemas.kickLivestreamV2),
  fetchLivestreamStats: schemas.kickLivestreamStats,
  fetchLivestream: z.array(schemas.kickLivestreamV1),
  fetchLivestreams: z.array(schemas.kickLivestreamV1),
  fetchCategories: z.array(schemas.kickCategory),
  sendChatMessage: schemas.kickChatSendResult,
  fetchChannelRewards: z.array(schemas.kickReward),
  createChannelReward: schemas.kickReward,
  updateChannelReward: schemas.kickReward,
  fetchRewardRedemptions: z.array(schemas.kickRedemptionGroup),
  acceptRewardRedemptions: z.array(schemas.kickRedemptionFailure),
  rejectRewardRedemptions: z.array(schemas.kickRedemptionFailure),
  fetchKicksLeaderboard: schemas.kickLeaderboard,
  fetchAdBreakStatus: schemas.kickAdBreakStatus,
  createAdBreak: schemas.kickAdBreakCreated,
  fetchEventsSubscriptions: z.array(schemas.kickEventSubscription),
  subscribeToEvent: z.array(schemas.kickSubscribeResult),
  fetchPublicKey: schemas.kickPublicKey,
};

/** Operations whose answer carries nothing the client reads: success is the status alone. */
const STATUS_ONLY: readonly Operation[] = [
  'updateChannel',
  'deleteChatMessage',
  'banUser',
  'unbanUser',
  'deleteChannelReward',
  'enrollInAds',
  'unsubscribeFromEvent',
];

/** Which operation a request was: its method and its path against each operation's path template. */
function operationOf(method: string, path: string): Operation[] {
  return (Object.keys(OPERATIONS) as Operation[]).filter((name) => {
    const spec = OPERATIONS[name];
    const pattern = new RegExp(`^${spec.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return spec.method === method && spec.host === 'api' && pattern.test(path);
  });
}

describe('Kick answer contract: the sandbox answers fit the schemas the client reads Kick with', () => {
  let sandbox: Sandbox;
  let proxy: KickProxy;
  let kick: Kick;
  const viewer = FIRST_VIEWER_USER_ID + 3;

  beforeAll(async () => {
    sandbox = await startSandbox();
    proxy = await startKickProxy(sandbox.describe().apiUrl);
    const browser = createTestBrowser(sandbox);
    kick = kickOnSandbox(sandbox, { apiUrl: proxy.url, openExternal: browser.open, sleep: () => Promise.resolve() });
    await kick.signIn();
    await browser.settled();
  });
  afterAll(async () => {
    await kick.close();
    await proxy.close();
    await sandbox.close();
  });

  it('every schema is tied to an operation, and every operation either has a schema or is status-only', () => {
    const exported = Object.entries(schemas).filter(([, value]) => value instanceof z.ZodType);
    const used = Object.values(ANSWER_SCHEMAS).flatMap((schema) =>
      schema instanceof z.ZodArray ? [schema, schema.element] : [schema],
    );
    const unused = exported.filter(([, schema]) => !used.includes(schema)).map(([name]) => name);
    expect(unused).toEqual(['kickTokenIntrospection']); // answered by the auth host: checked in its own case below
    const apiOperations = (Object.keys(OPERATIONS) as Operation[]).filter((name) => OPERATIONS[name].host === 'api');
    const unaccounted = apiOperations.filter((name) => !(name in ANSWER_SCHEMAS) && !STATUS_ONLY.includes(name));
    expect(unaccounted).toEqual([]);
  });

  it('every answer the sandbox gives to every operation parses, operation by operation', async () => {
    proxy.answers.length = 0;
    const client = kick.client;
    await client.fetchCurrentUser();
    await client.fetchUser(viewer);
    const own = await client.fetchChannel();
    await client.fetchChannel({ slug: own!.slug });
    await client.updateChannel({ streamTitle: 'Contract run', categoryId: 104, customTags: ['English'] });
    await client.fetchLivestreamsV2({ limit: 3 });
    await client.fetchUserLivestreams([STREAMER_USER_ID]);
    await client.fetchLivestreamStats();
    await client.fetchLivestreams({ limit: 3 });
    await client.fetchLivestream(STREAMER_USER_ID);
    await client.fetchCategories({ query: 'Just' });
    const sent = await client.sendChatMessage({ content: 'contract', type: 'bot' });
    await client.deleteChatMessage(sent.message_id);
    await client.banUser({ broadcasterUserId: STREAMER_USER_ID, userId: viewer, duration: 5 });
    await client.unbanUser({ broadcasterUserId: STREAMER_USER_ID, userId: viewer });
    const reward = await client.createChannelReward({ title: 'Contract', cost: 10 });
    await client.updateChannelReward(reward.id, { cost: 20 });
    await client.fetchChannelRewards();
    const redeemed = [0, 1].map(
      (i) => redeemReward(sandbox.ctx.state, { rewardId: reward.id, redeemerUserId: viewer + i, userInput: 'hi' }).id,
    );
    await client.fetchRewardRedemptions({ rewardId: reward.id });
    await client.acceptRewardRedemptions([redeemed[0]!]);
    await client.rejectRewardRedemptions([redeemed[0]!, redeemed[1]!]);
    await client.deleteChannelReward(reward.id);
    await client.fetchKicksLeaderboard(3);
    await client.enrollInAds();
    await client.fetchAdBreakStatus();
    const channel = sandbox.ctx.state.channels.get(STREAMER_USER_ID)!;
    Object.assign(channel, { isLive: true, startedAtMs: sandbox.ctx.state.now() });
    await client.createAdBreak({ breakDurationSeconds: 30 });
    channel.isLive = false;
    const subscribed = await client.subscribeToEvent({ eventType: 'channel.followed', userId: STREAMER_USER_ID });
    await client.fetchEventsSubscriptions();
    await client.unsubscribeFromEvent(subscribed!.subscription_id!);
    await client.fetchPublicKey();

    const seen = new Set<Operation>();
    const misfits: string[] = [];
    for (const answer of proxy.answers) {
      expect(answer.status, `${answer.method} ${answer.path}`).toBeLessThan(300);
      const candidates = operationOf(answer.method, answer.path);
      expect(candidates.length, `${answer.method} ${answer.path} is no operation`).toBeGreaterThan(0);
      for (const operation of candidates) {
        seen.add(operation);
        const schema = ANSWER_SCHEMAS[operation];
        const parsed = schema?.safeParse((answer.json as { data?: unknown } | undefined)?.data);
        if (parsed && !parsed.success) {
          misfits.push(`${operation}: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`);
        }
      }
    }
    expect(misfits).toEqual([]);
    const apiOperations = (Object.keys(OPERATIONS) as Operation[]).filter((name) => OPERATIONS[name].host === 'api');
    expect(apiOperations.filter((name) => !seen.has(name))).toEqual([]);
  });

  it("the sandbox's token introspection, on id.kick.com's path, fits its schema", async () => {
    const token = mintUserToken(sandbox);
    const res = await call(sandbox.urls.auth, 'POST', WIRE_ASSUMPTIONS.introspect.path, { token });
    expect(res.status).toBe(200);
    expect(schemas.kickTokenIntrospection.safeParse(res.json?.data)).toMatchObject({ success: true });
  });

  it('a field a fake Kick changed gives one line naming the operation and the field, and nothing else', async () => {
    proxy.tamper = (method, path, json) => {
      const data = (json as { data?: { stream?: Record<string, unknown> }[] }).data;
      if (method === 'GET' && path === '/public/v1/channels' && data?.[0]?.stream) {
        data[0].stream.is_live = 'yes';
      }
      return json;
    };
    try {
      const failure = await kick.client.fetchChannel().then(
        () => expect.fail('the changed answer was accepted'),
        (error: unknown) => error as { code: string; message: string },
      );
      expect(failure.code).toBe('UnexpectedAnswer');
      expect(failure.message).toMatch(/^fetchChannel: Kick's answer does not fit at data\[0\]\.stream\.is_live: /);
      expect(failure.message).not.toContain('\n');
    } finally {
      proxy.tamper = undefined;
    }
  });

  it('a field a fake Kick dropped names that field; the next good answer reads again', async () => {
    const reward = await kick.client.createChannelReward({ title: 'Dropped', cost: 10 });
    proxy.tamper = (method, path, json) => {
      if (method === 'GET' && path === '/public/v1/channels/rewards') {
        for (const item of (json as { data: Record<string, unknown>[] }).data) {
          delete item.cost;
        }
      }
      return json;
    };
    await expect(kick.client.fetchChannelRewards()).rejects.toMatchObject({
      code: 'UnexpectedAnswer',
      message: expect.stringMatching(/^fetchChannelRewards: Kick's answer does not fit at data\[0\]\.cost: /),
    });
    proxy.tamper = undefined;
    await expect(kick.client.fetchChannelRewards()).resolves.toContainEqual(expect.objectContaining({ id: reward.id }));
    await kick.client.deleteChannelReward(reward.id);
  });
});
