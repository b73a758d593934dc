/**
 * Reward redemptions ([reference §3.7](../../../docs/kick-wire-reference.md#37-channel-rewards)): viewers redeeming through `redeemReward`, the grouped and paginated
 * listing with its filters and cursor, and accept/reject with their failure reasons and webhook events.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUlid } from '../../../electron/core/ids';
import { REDEMPTIONS_PAGE_SIZE } from '../../../sandbox/api/rewards-redemptions';
import { RedeemError, redeemReward } from '../../../sandbox/api/rewards-redeem';
import { createSigningKeys, type Sandbox } from '../../../sandbox/index';
import type { SandboxEvent } from '../../../sandbox/state';
import { FIRST_OTHER_STREAMER_USER_ID, FIRST_VIEWER_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { KICK_SCOPES } from '../../../shared/kick/scopes';
import { LIMITS } from '../../../shared/limits';
import { call, mintAppToken, mintUserToken, startSandbox, otherAppUserToken } from '../../helpers/sandbox';

const REWARDS = '/public/v1/channels/rewards';
const PATH = '/public/v1/channels/rewards/redemptions';
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const keys = createSigningKeys();

let sandbox: Sandbox;
let api: string;
let token: string;
let events: SandboxEvent[];

beforeEach(async () => {
  sandbox = await startSandbox({ keys });
  api = sandbox.urls.api;
  token = mintUserToken(sandbox);
  events = [];
  sandbox.ctx.state.onEvent((event) => events.push(event));
});

afterEach(async () => {
  await sandbox.close();
});

async function createReward(body: Record<string, unknown> = {}, as = token): Promise<string> {
  const res = await call(api, 'POST', REWARDS, { token: as, body: { title: 'Hydrate', cost: 100, ...body } });
  expect(res.status).toBe(200);
  return res.json.data.id as string;
}

/** A viewer redeems; the clock moves 1 ms first so "oldest first" is the order of these calls. */
function redeem(rewardId: string, viewer = 0, userInput?: string): string {
  sandbox.ctx.clock.advance(1);
  return redeemReward(sandbox.ctx.state, { rewardId, redeemerUserId: FIRST_VIEWER_USER_ID + viewer, userInput }).id;
}

/** A listing's page as the tests read it. */
interface GroupedPage {
  data: { reward: { id: string }; redemptions: { id: string }[] }[];
}

function listIds(body: unknown): string[] {
  return (body as GroupedPage).data.flatMap((group) => group.redemptions.map((r) => r.id));
}

describe('redeemReward', () => {
  it('creates a pending redemption and emits channel.reward.redemption.updated', async () => {
    const rewardId = await createReward({ description: 'Drink' });
    const redemption = redeemReward(sandbox.ctx.state, { rewardId, redeemerUserId: FIRST_VIEWER_USER_ID });
    expect(redemption).toMatchObject({
      rewardId,
      broadcasterUserId: STREAMER_USER_ID,
      status: 'pending',
      userInput: '',
    });
    expect(redemption.id).toMatch(ULID);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'channel.reward.redemption.updated',
      version: 1,
      broadcasterUserId: STREAMER_USER_ID,
    });
    expect(events[0]!.payload).toEqual({
      id: redemption.id,
      user_input: '',
      status: 'pending',
      redeemed_at: expect.stringMatching(RFC3339),
      reward: { id: rewardId, title: 'Hydrate', cost: 100, description: 'Drink' },
      redeemer: expect.objectContaining({ user_id: FIRST_VIEWER_USER_ID, username: 'pixelpanda' }),
      broadcaster: expect.objectContaining({ user_id: STREAMER_USER_ID, username: 'sandbox_streamer' }),
    });
  });

  it('accepts at once when the reward skips the request queue', async () => {
    const rewardId = await createReward({ should_redemptions_skip_request_queue: true });
    const redemption = redeemReward(sandbox.ctx.state, { rewardId, redeemerUserId: FIRST_VIEWER_USER_ID });
    expect(redemption.status).toBe('accepted');
    expect((events[0]!.payload as { status: string }).status).toBe('accepted');
  });

  it('keeps user input when the reward asks for it, and requires it then', async () => {
    const rewardId = await createReward({ is_user_input_required: true });
    const redemption = redeemReward(sandbox.ctx.state, {
      rewardId,
      redeemerUserId: FIRST_VIEWER_USER_ID,
      userInput: 'play Tetris',
    });
    expect(redemption.userInput).toBe('play Tetris');
    for (const userInput of [undefined, '   ']) {
      expect(() =>
        redeemReward(sandbox.ctx.state, { rewardId, redeemerUserId: FIRST_VIEWER_USER_ID, userInput }),
      ).toThrow(expect.objectContaining({ name: 'RedeemError', code: 'USER_INPUT_REQUIRED' }));
    }
  });

  it('refuses disabled, paused, deleted and unknown rewards and unknown redeemers, storing nothing', async () => {
    const disabled = await createReward({ is_enabled: false });
    const paused = await createReward();
    await call(api, 'PATCH', `${REWARDS}/${paused}`, { token, body: { is_paused: true } });
    const deleted = await createReward();
    await call(api, 'DELETE', `${REWARDS}/${deleted}`, { token });
    const cases: [string, number, string][] = [
      [disabled, FIRST_VIEWER_USER_ID, 'REWARD_DISABLED'],
      [paused, FIRST_VIEWER_USER_ID, 'REWARD_PAUSED'],
      [deleted, FIRST_VIEWER_USER_ID, 'REWARD_DELETED'],
      [createUlid(0), FIRST_VIEWER_USER_ID, 'REWARD_NOT_FOUND'],
      [paused, 999_999_999, 'REWARD_PAUSED'],
    ];
    for (const [rewardId, redeemerUserId, code] of cases) {
      let caught: unknown;
      try {
        redeemReward(sandbox.ctx.state, { rewardId, redeemerUserId });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(RedeemError);
      expect((caught as RedeemError).code).toBe(code);
    }
    const enabled = await createReward();
    expect(() => redeemReward(sandbox.ctx.state, { rewardId: enabled, redeemerUserId: 999_999_999 })).toThrow(
      expect.objectContaining({ code: 'REDEEMER_NOT_FOUND' }),
    );
    expect(sandbox.ctx.state.redemptions.size).toBe(0);
    expect(events).toEqual([]);
  });
});

describe('GET /public/v1/channels/rewards/redemptions', () => {
  it('groups pending redemptions by reward with Kick’s exact shape', async () => {
    const water = await createReward({ title: 'Water', description: 'Drink', is_user_input_required: true });
    const song = await createReward({ title: 'Song', cost: 500 });
    const a = redeem(water, 0, 'cold please');
    const b = redeem(song, 1);
    const c = redeem(water, 2, 'sparkling');

    const res = await call(api, 'GET', PATH, { token });
    expect(res.status).toBe(200);
    const at = (id: string) => new Date(sandbox.ctx.state.redemptions.get(id)!.redeemedAtMs).toISOString();
    expect(res.json).toEqual({
      data: [
        {
          reward: { id: water, title: 'Water', description: 'Drink', cost: 100, can_manage: true, is_deleted: false },
          redemptions: [
            {
              id: a,
              redeemed_at: at(a),
              redeemer: { user_id: FIRST_VIEWER_USER_ID },
              status: 'pending',
              user_input: 'cold please',
            },
            {
              id: c,
              redeemed_at: at(c),
              redeemer: { user_id: FIRST_VIEWER_USER_ID + 2 },
              status: 'pending',
              user_input: 'sparkling',
            },
          ],
        },
        {
          reward: { id: song, title: 'Song', description: '', cost: 500, can_manage: true, is_deleted: false },
          redemptions: [
            {
              id: b,
              redeemed_at: at(b),
              redeemer: { user_id: FIRST_VIEWER_USER_ID + 1 },
              status: 'pending',
              user_input: '',
            },
          ],
        },
      ],
      message: 'OK',
      pagination: { next_cursor: '' },
    });
  });

  it('answers an empty page when nothing matches', async () => {
    expect((await call(api, 'GET', PATH, { token })).json).toEqual({
      data: [],
      message: 'OK',
      pagination: { next_cursor: '' },
    });
  });

  it('filters by status and reward_id; with id, every status matches', async () => {
    const r1 = await createReward();
    const r2 = await createReward({ title: 'Other' });
    const pending = redeem(r1);
    const accepted = redeem(r1, 1);
    const rejected = redeem(r2, 2);
    const pending2 = redeem(r2, 3);
    sandbox.ctx.state.redemptions.get(accepted)!.status = 'accepted';
    sandbox.ctx.state.redemptions.get(rejected)!.status = 'rejected';

    const get = async (query: [string, string][]) => listIds((await call(api, 'GET', PATH, { token, query })).json);
    expect(await get([])).toEqual([pending, pending2]);
    expect(await get([['status', 'pending']])).toEqual([pending, pending2]);
    expect(await get([['status', 'accepted']])).toEqual([accepted]);
    expect(await get([['status', 'rejected']])).toEqual([rejected]);
    expect(await get([['reward_id', r2]])).toEqual([pending2]);
    expect(
      await get([
        ['reward_id', r2],
        ['status', 'rejected'],
      ]),
    ).toEqual([rejected]);
    expect(await get([['reward_id', createUlid(0)]])).toEqual([]);
    expect(
      await get([
        ['id', accepted],
        ['id', rejected],
        ['id', createUlid(0)],
      ]),
    ).toEqual([accepted, rejected]);
  });

  it("never shows another channel's redemptions", async () => {
    const other = mintUserToken(sandbox, KICK_SCOPES, FIRST_OTHER_STREAMER_USER_ID);
    const theirs = redeem(await createReward({}, other));
    expect(listIds((await call(api, 'GET', PATH, { token })).json)).toEqual([]);
    expect(listIds((await call(api, 'GET', PATH, { token, query: [['id', theirs]] })).json)).toEqual([]);
    expect(listIds((await call(api, 'GET', PATH, { token: other })).json)).toEqual([theirs]);
  });

  it('marks rewards made by another app (can_manage) and deleted rewards (is_deleted)', async () => {
    const foreign = await createReward({ title: 'Foreign' }, otherAppUserToken(sandbox));
    const doomed = await createReward({ title: 'Doomed' });
    redeem(foreign);
    redeem(doomed, 1);
    await call(api, 'DELETE', `${REWARDS}/${doomed}`, { token });
    const res = await call(api, 'GET', PATH, { token });
    expect((res.json as GroupedPage).data.map((g) => g.reward)).toEqual([
      { id: foreign, title: 'Foreign', description: '', cost: 100, can_manage: false, is_deleted: false },
      { id: doomed, title: 'Doomed', description: '', cost: 100, can_manage: true, is_deleted: true },
    ]);
  });

  it('walks every page with the cursor, oldest first, without repeats even when items change', async () => {
    const r1 = await createReward();
    const r2 = await createReward({ title: 'Second' });
    const total = REDEMPTIONS_PAGE_SIZE * 2 + 10;
    const all = Array.from({ length: total }, (_, i) => redeem(i % 3 === 0 ? r2 : r1, i % 20));
    const position = (id: string) => all.indexOf(id);
    /** A page's ids in time order; within each reward group they must already be in time order. */
    const pageIds = (json: unknown): string[] => {
      for (const group of (json as GroupedPage).data) {
        const order = group.redemptions.map((r) => position(r.id));
        expect(order).toEqual([...order].sort((a, b) => a - b));
      }
      return listIds(json).sort((a, b) => position(a) - position(b));
    };

    const first = await call(api, 'GET', PATH, { token });
    expect(first.json.data).toHaveLength(2);
    expect(pageIds(first.json)).toEqual(all.slice(0, REDEMPTIONS_PAGE_SIZE));
    const cursor1 = first.json.pagination.next_cursor as string;
    expect(cursor1).toMatch(/^[A-Za-z0-9_-]+$/);

    // Accepting an item already seen must not shift the next page.
    const ack = await call(api, 'POST', `${PATH}/accept`, { token, body: { ids: [all[0]] } });
    expect(ack.json.data).toEqual([]);

    const second = await call(api, 'GET', PATH, { token, query: [['cursor', cursor1]] });
    expect(pageIds(second.json)).toEqual(all.slice(REDEMPTIONS_PAGE_SIZE, REDEMPTIONS_PAGE_SIZE * 2));
    const third = await call(api, 'GET', PATH, { token, query: [['cursor', second.json.pagination.next_cursor]] });
    expect(pageIds(third.json)).toEqual(all.slice(REDEMPTIONS_PAGE_SIZE * 2));
    expect(third.json.pagination).toEqual({ next_cursor: '' });
    // A reward whose redemptions span pages shows up on each page it has items on.
    expect((third.json as GroupedPage).data.map((g) => g.reward.id).sort()).toEqual([r1, r2].sort());
  });

  it.each([
    [[['status', 'done']], 'status: must be one of pending, accepted, rejected'],
    [[['reward_id', 'abc']], 'reward_id: must be a ULID'],
    [[['id', 'abc']], 'id: must be a ULID'],
    [[['cursor', 'not a cursor']], 'cursor: not a cursor from a previous page'],
    [[['cursor', Buffer.from('{"x":1}').toString('base64url')]], 'cursor: not a cursor from a previous page'],
    [
      [
        ['id', 'ID'],
        ['status', 'pending'],
      ],
      'id: cannot be combined with status',
    ],
    [
      [
        ['id', 'ID'],
        ['reward_id', 'RID'],
      ],
      'id: cannot be combined with reward_id',
    ],
    [
      [
        ['id', 'ID'],
        ['reward_id', 'RID'],
        ['status', 'accepted'],
      ],
      'id: cannot be combined with reward_id or status',
    ],
  ])('answers 400 to %j', async (query, detail) => {
    const ulid = createUlid(0);
    const q = (query as [string, string][]).map(([k, v]): [string, string] => [
      k,
      v === 'ID' || v === 'RID' ? ulid : v,
    ]);
    const res = await call(api, 'GET', PATH, { token, query: q });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ data: detail, message: 'Bad request' });
  });

  it(`accepts up to ${LIMITS.redemptionIdFilterMax} ids`, async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i): [string, string] => ['id', createUlid(i)]);
    expect((await call(api, 'GET', PATH, { token, query: ids(LIMITS.redemptionIdFilterMax) })).status).toBe(200);
    const over = await call(api, 'GET', PATH, { token, query: ids(LIMITS.redemptionIdFilterMax + 1) });
    expect(over.status).toBe(400);
    expect(over.json.data).toBe('id: at most 50 values');
  });

  it('needs a user token with a rewards scope', async () => {
    expect((await call(api, 'GET', PATH)).status).toBe(401);
    expect((await call(api, 'GET', PATH, { token: mintAppToken(sandbox) })).status).toBe(403);
    expect((await call(api, 'GET', PATH, { token: mintUserToken(sandbox, ['user:read']) })).status).toBe(403);
    expect((await call(api, 'GET', PATH, { token: mintUserToken(sandbox, ['channel:rewards:read']) })).status).toBe(
      200,
    );
  });
});

describe('POST /public/v1/channels/rewards/redemptions/accept and /reject', () => {
  it.each(['accept', 'reject'] as const)('%s: answers [] when all succeed and emits one event each', async (action) => {
    const rewardId = await createReward();
    const ids = [redeem(rewardId), redeem(rewardId, 1)];
    events.length = 0;
    const res = await call(api, 'POST', `${PATH}/${action}`, { token, body: { ids } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: [], message: 'OK' });
    const status = action === 'accept' ? 'accepted' : 'rejected';
    expect(
      events.map((e) => [
        e.type,
        (e.payload as { id: string; status: string }).id,
        (e.payload as { status: string }).status,
      ]),
    ).toEqual(ids.map((id) => ['channel.reward.redemption.updated', id, status]));
    const listed = await call(api, 'GET', PATH, { token, query: [['status', status]] });
    expect(listIds(listed.json)).toEqual(ids);
    expect(listIds((await call(api, 'GET', PATH, { token })).json)).toEqual([]);
  });

  it('reports NOT_FOUND, NOT_OWNED, NOT_PENDING and UNKNOWN per id, in request order, and processes the rest', async () => {
    const mine = await createReward();
    const foreign = await createReward({ title: 'Foreign' }, otherAppUserToken(sandbox));
    const other = mintUserToken(sandbox, KICK_SCOPES, FIRST_OTHER_STREAMER_USER_ID);
    const theirs = redeem(await createReward({}, other));
    const ok = redeem(mine);
    const done = redeem(mine, 1);
    sandbox.ctx.state.redemptions.get(done)!.status = 'rejected';
    const notOwned = redeem(foreign, 2);
    const orphan = redeem(mine, 3);
    sandbox.ctx.state.redemptions.get(orphan)!.rewardId = createUlid(0);
    const unknown = createUlid(1);
    events.length = 0;

    const res = await call(api, 'POST', `${PATH}/accept`, {
      token,
      body: { ids: [unknown, theirs, notOwned, ok, done, orphan, 'garbage'] },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      data: [
        { id: unknown, reason: 'NOT_FOUND' },
        { id: theirs, reason: 'NOT_FOUND' },
        { id: notOwned, reason: 'NOT_OWNED' },
        { id: done, reason: 'NOT_PENDING' },
        { id: orphan, reason: 'UNKNOWN' },
        { id: 'garbage', reason: 'NOT_FOUND' },
      ],
      message: 'OK',
    });
    expect(sandbox.ctx.state.redemptions.get(ok)!.status).toBe('accepted');
    expect(sandbox.ctx.state.redemptions.get(notOwned)!.status).toBe('pending');
    expect(sandbox.ctx.state.redemptions.get(done)!.status).toBe('rejected');
    expect(events.map((e) => (e.payload as { id: string }).id)).toEqual([ok]);

    // Deciding twice: the second attempt is NOT_PENDING.
    const again = await call(api, 'POST', `${PATH}/reject`, { token, body: { ids: [ok] } });
    expect(again.json.data).toEqual([{ id: ok, reason: 'NOT_PENDING' }]);
  });

  it('lets the creating app decide on redemptions of its deleted reward', async () => {
    const rewardId = await createReward();
    const id = redeem(rewardId);
    await call(api, 'DELETE', `${REWARDS}/${rewardId}`, { token });
    expect((await call(api, 'POST', `${PATH}/reject`, { token, body: { ids: [id] } })).json.data).toEqual([]);
    const listed = await call(api, 'GET', PATH, { token, query: [['status', 'rejected']] });
    expect(listed.json.data[0].reward.is_deleted).toBe(true);
  });

  it.each([
    [{}, 'ids: is required'],
    [{ ids: [] }, 'ids: must have at least 1 item(s)'],
    [{ ids: Array.from({ length: 26 }, (_, i) => createUlid(i)) }, 'ids: must have at most 25 items'],
    [{ ids: ['A', 'A'] }, 'ids: must not contain duplicates'],
    [{ ids: 'A' }, 'ids: must be an array of strings'],
    [{ ids: [1] }, 'ids[0]: must be a string'],
    [{ ids: [{ id: 'A' }] }, 'ids[0]: must be a string'],
  ])('answers 400 to %j', async (body, detail) => {
    for (const action of ['accept', 'reject']) {
      const res = await call(api, 'POST', `${PATH}/${action}`, { token, body });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ data: detail, message: 'Bad request' });
    }
  });

  it('accepts exactly 25 ids', async () => {
    const ids = Array.from({ length: LIMITS.redemptionIdsPerActionMax }, (_, i) => createUlid(i));
    const res = await call(api, 'POST', `${PATH}/accept`, { token, body: { ids } });
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(LIMITS.redemptionIdsPerActionMax);
  });

  it('answers 400 to malformed bodies without crashing', async () => {
    for (const rawBody of ['{"ids": [', 'null', '[]', '', '\u0000']) {
      const res = await call(api, 'POST', `${PATH}/accept`, { token, rawBody });
      expect(res.status).toBe(400);
    }
    expect((await call(api, 'GET', PATH, { token })).status).toBe(200);
  });

  it('needs channel:rewards:write', async () => {
    const res = await call(api, 'POST', `${PATH}/accept`, {
      token: mintUserToken(sandbox, ['channel:rewards:read']),
      body: { ids: [createUlid(0)] },
    });
    expect(res.status).toBe(403);
    expect(res.json.data).toBe('missing scope: channel:rewards:write');
    expect(
      (await call(api, 'POST', `${PATH}/reject`, { token: mintAppToken(sandbox), body: { ids: ['A'] } })).status,
    ).toBe(403);
    expect((await call(api, 'POST', `${PATH}/reject`, { body: { ids: ['A'] } })).status).toBe(401);
  });
});
