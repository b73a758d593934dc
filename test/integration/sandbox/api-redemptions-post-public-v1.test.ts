/**
 * Reward redemptions ([reference §3.7](../../../docs/kick-wire-reference.md#37-channel-rewards)): viewers redeeming through `redeemReward`, the grouped and paginated
 * listing with its filters and cursor, and accept/reject with their failure reasons and webhook events.
 *
 * This file: “POST /public/v1/channels/rewards/redemptions/accept and /reject”.
 */
import { describe, expect, it } from 'vitest';
import { createUlid } from '../../../electron/core/ids';
import { FIRST_OTHER_STREAMER_USER_ID } from '../../../sandbox/world';
import { KICK_SCOPES } from '../../../shared/kick/scopes';
import { LIMITS } from '../../../shared/limits';
import { call, mintAppToken, mintUserToken, otherAppUserToken } from '../../helpers/sandbox';
import { PATH, REWARDS, createReward, fx, listIds, redeem, useSetup } from './api-redemptions-fixtures';

useSetup();

describe('POST /public/v1/channels/rewards/redemptions/accept and /reject', () => {
  it.each(['accept', 'reject'] as const)('%s: answers [] when all succeed and emits one event each', async (action) => {
    const rewardId = await createReward();
    const ids = [redeem(rewardId), redeem(rewardId, 1)];
    fx.events.length = 0;
    const res = await call(fx.api, 'POST', `${PATH}/${action}`, { token: fx.token, body: { ids } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: [], message: 'OK' });
    const status = action === 'accept' ? 'accepted' : 'rejected';
    expect(
      fx.events.map((e) => [
        e.type,
        (e.payload as { id: string; status: string }).id,
        (e.payload as { status: string }).status,
      ]),
    ).toEqual(ids.map((id) => ['channel.reward.redemption.updated', id, status]));
    const listed = await call(fx.api, 'GET', PATH, { token: fx.token, query: [['status', status]] });
    expect(listIds(listed.json)).toEqual(ids);
    expect(listIds((await call(fx.api, 'GET', PATH, { token: fx.token })).json)).toEqual([]);
  });

  it('reports NOT_FOUND, NOT_OWNED, NOT_PENDING and UNKNOWN per id, in request order, and processes the rest', async () => {
    const mine = await createReward();
    const foreign = await createReward({ title: 'Foreign' }, otherAppUserToken(fx.sandbox));
    const other = mintUserToken(fx.sandbox, KICK_SCOPES, FIRST_OTHER_STREAMER_USER_ID);
    const theirs = redeem(await createReward({}, other));
    const ok = redeem(mine);
    const done = redeem(mine, 1);
    fx.sandbox.ctx.state.redemptions.get(done)!.status = 'rejected';
    const notOwned = redeem(foreign, 2);
    const orphan = redeem(mine, 3);
    fx.sandbox.ctx.state.redemptions.get(orphan)!.rewardId = createUlid(0);
    const unknown = createUlid(1);
    fx.events.length = 0;

    const res = await call(fx.api, 'POST', `${PATH}/accept`, {
      token: fx.token,
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
    expect(fx.sandbox.ctx.state.redemptions.get(ok)!.status).toBe('accepted');
    expect(fx.sandbox.ctx.state.redemptions.get(notOwned)!.status).toBe('pending');
    expect(fx.sandbox.ctx.state.redemptions.get(done)!.status).toBe('rejected');
    expect(fx.events.map((e) => (e.payload as { id: string }).id)).toEqual([ok]);

    // Deciding twice: the second attempt is NOT_PENDING.
    const again = await call(fx.api, 'POST', `${PATH}/reject`, { token: fx.token, body: { ids: [ok] } });
    expect(again.json.data).toEqual([{ id: ok, reason: 'NOT_PENDING' }]);
  });

  it('lets the creating app decide on redemptions of its deleted reward', async () => {
    const rewardId = await createReward();
    const id = redeem(rewardId);
    await call(fx.api, 'DELETE', `${REWARDS}/${rewardId}`, { token: fx.token });
    expect((await call(fx.api, 'POST', `${PATH}/reject`, { token: fx.token, body: { ids: [id] } })).json.data).toEqual(
      [],
    );
    const listed = await call(fx.api, 'GET', PATH, { token: fx.token, query: [['status', 'rejected']] });
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
      const res = await call(fx.api, 'POST', `${PATH}/${action}`, { token: fx.token, body });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ data: detail, message: 'Bad request' });
    }
  });

  it('accepts exactly 25 ids', async () => {
    const ids = Array.from({ length: LIMITS.redemptionIdsPerActionMax }, (_, i) => createUlid(i));
    const res = await call(fx.api, 'POST', `${PATH}/accept`, { token: fx.token, body: { ids } });
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(LIMITS.redemptionIdsPerActionMax);
  });

  it('answers 400 to malformed bodies without crashing', async () => {
    for (const rawBody of ['{"ids": [', 'null', '[]', '', '\u0000']) {
      const res = await call(fx.api, 'POST', `${PATH}/accept`, { token: fx.token, rawBody });
      expect(res.status).toBe(400);
    }
    expect((await call(fx.api, 'GET', PATH, { token: fx.token })).status).toBe(200);
  });

  it('needs channel:rewards:write', async () => {
    const res = await call(fx.api, 'POST', `${PATH}/accept`, {
      token: mintUserToken(fx.sandbox, ['channel:rewards:read']),
      body: { ids: [createUlid(0)] },
    });
    expect(res.status).toBe(403);
    expect(res.json.data).toBe('missing scope: channel:rewards:write');
    expect(
      (await call(fx.api, 'POST', `${PATH}/reject`, { token: mintAppToken(fx.sandbox), body: { ids: ['A'] } })).status,
    ).toBe(403);
    expect((await call(fx.api, 'POST', `${PATH}/reject`, { body: { ids: ['A'] } })).status).toBe(401);
  });
});
