/**
 * Reward redemptions ([reference §3.7](../../../docs/kick-wire-reference.md#37-channel-rewards)): viewers redeeming through `redeemReward`, the grouped and paginated
 * listing with its filters and cursor, and accept/reject with their failure reasons and webhook events.
 *
 * This file: “GET /public/v1/channels/rewards/redemptions”.
 */
import { describe, expect, it } from 'vitest';
import { createUlid } from '../../../electron/core/ids';
import { REDEMPTIONS_PAGE_SIZE } from '../../../sandbox/api/rewards-redemptions';
import { FIRST_OTHER_STREAMER_USER_ID, FIRST_VIEWER_USER_ID } from '../../../sandbox/world';
import { KICK_SCOPES } from '../../../shared/kick/scopes';
import { LIMITS } from '../../../shared/limits';
import { call, mintAppToken, mintUserToken, otherAppUserToken } from '../../helpers/sandbox';
import {
  type GroupedPage,
  PATH,
  REWARDS,
  createReward,
  fx,
  listIds,
  redeem,
  useSetup,
} from './api-redemptions-fixtures';

useSetup();

describe('GET /public/v1/channels/rewards/redemptions', () => {
  it('groups pending redemptions by reward with Kick’s exact shape', async () => {
    const water = await createReward({ title: 'Water', description: 'Drink', is_user_input_required: true });
    const song = await createReward({ title: 'Song', cost: 500 });
    const a = redeem(water, 0, 'cold please');
    const b = redeem(song, 1);
    const c = redeem(water, 2, 'sparkling');

    const res = await call(fx.api, 'GET', PATH, { token: fx.token });
    expect(res.status).toBe(200);
    const at = (id: string) => new Date(fx.sandbox.ctx.state.redemptions.get(id)!.redeemedAtMs).toISOString();
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
    expect((await call(fx.api, 'GET', PATH, { token: fx.token })).json).toEqual({
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
    fx.sandbox.ctx.state.redemptions.get(accepted)!.status = 'accepted';
    fx.sandbox.ctx.state.redemptions.get(rejected)!.status = 'rejected';

    const get = async (query: [string, string][]) =>
      listIds((await call(fx.api, 'GET', PATH, { token: fx.token, query })).json);
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
    const other = mintUserToken(fx.sandbox, KICK_SCOPES, FIRST_OTHER_STREAMER_USER_ID);
    const theirs = redeem(await createReward({}, other));
    expect(listIds((await call(fx.api, 'GET', PATH, { token: fx.token })).json)).toEqual([]);
    expect(listIds((await call(fx.api, 'GET', PATH, { token: fx.token, query: [['id', theirs]] })).json)).toEqual([]);
    expect(listIds((await call(fx.api, 'GET', PATH, { token: other })).json)).toEqual([theirs]);
  });

  it('marks rewards made by another app (can_manage) and deleted rewards (is_deleted)', async () => {
    const foreign = await createReward({ title: 'Foreign' }, otherAppUserToken(fx.sandbox));
    const doomed = await createReward({ title: 'Doomed' });
    redeem(foreign);
    redeem(doomed, 1);
    await call(fx.api, 'DELETE', `${REWARDS}/${doomed}`, { token: fx.token });
    const res = await call(fx.api, 'GET', PATH, { token: fx.token });
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

    const first = await call(fx.api, 'GET', PATH, { token: fx.token });
    expect(first.json.data).toHaveLength(2);
    expect(pageIds(first.json)).toEqual(all.slice(0, REDEMPTIONS_PAGE_SIZE));
    const cursor1 = first.json.pagination.next_cursor as string;
    expect(cursor1).toMatch(/^[A-Za-z0-9_-]+$/);

    // Accepting an item already seen must not shift the next page.
    const ack = await call(fx.api, 'POST', `${PATH}/accept`, { token: fx.token, body: { ids: [all[0]] } });
    expect(ack.json.data).toEqual([]);

    const second = await call(fx.api, 'GET', PATH, { token: fx.token, query: [['cursor', cursor1]] });
    expect(pageIds(second.json)).toEqual(all.slice(REDEMPTIONS_PAGE_SIZE, REDEMPTIONS_PAGE_SIZE * 2));
    const third = await call(fx.api, 'GET', PATH, {
      token: fx.token,
      query: [['cursor', second.json.pagination.next_cursor]],
    });
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
    const res = await call(fx.api, 'GET', PATH, { token: fx.token, query: q });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ data: detail, message: 'Bad request' });
  });

  it(`accepts up to ${LIMITS.redemptionIdFilterMax} ids`, async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i): [string, string] => ['id', createUlid(i)]);
    expect(
      (await call(fx.api, 'GET', PATH, { token: fx.token, query: ids(LIMITS.redemptionIdFilterMax) })).status,
    ).toBe(200);
    const over = await call(fx.api, 'GET', PATH, { token: fx.token, query: ids(LIMITS.redemptionIdFilterMax + 1) });
    expect(over.status).toBe(400);
    expect(over.json.data).toBe('id: at most 50 values');
  });

  it('needs a user token with a rewards scope', async () => {
    expect((await call(fx.api, 'GET', PATH)).status).toBe(401);
    expect((await call(fx.api, 'GET', PATH, { token: mintAppToken(fx.sandbox) })).status).toBe(403);
    expect((await call(fx.api, 'GET', PATH, { token: mintUserToken(fx.sandbox, ['user:read']) })).status).toBe(403);
    expect(
      (await call(fx.api, 'GET', PATH, { token: mintUserToken(fx.sandbox, ['channel:rewards:read']) })).status,
    ).toBe(200);
  });
});
