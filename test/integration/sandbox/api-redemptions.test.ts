/**
 * Reward redemptions ([reference §3.7](../../../docs/kick-wire-reference.md#37-channel-rewards)): viewers redeeming through `redeemReward`, the grouped and paginated
 * listing with its filters and cursor, and accept/reject with their failure reasons and webhook events.
 *
 * This file: “redeemReward”.
 */
import { describe, expect, it } from 'vitest';
import { createUlid } from '../../../electron/core/ids';
import { RedeemError, redeemReward } from '../../../sandbox/api/rewards-redeem';
import { FIRST_VIEWER_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { call } from '../../helpers/sandbox';
import { REWARDS, RFC3339, ULID, createReward, fx, useSetup } from './api-redemptions-fixtures';

useSetup();

describe('redeemReward', () => {
  it('creates a pending redemption and emits channel.reward.redemption.updated', async () => {
    const rewardId = await createReward({ description: 'Drink' });
    const redemption = redeemReward(fx.sandbox.ctx.state, { rewardId, redeemerUserId: FIRST_VIEWER_USER_ID });
    expect(redemption).toMatchObject({
      rewardId,
      broadcasterUserId: STREAMER_USER_ID,
      status: 'pending',
      userInput: '',
    });
    expect(redemption.id).toMatch(ULID);
    expect(fx.events).toHaveLength(1);
    expect(fx.events[0]).toMatchObject({
      type: 'channel.reward.redemption.updated',
      version: 1,
      broadcasterUserId: STREAMER_USER_ID,
    });
    expect(fx.events[0]!.payload).toEqual({
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
    const redemption = redeemReward(fx.sandbox.ctx.state, { rewardId, redeemerUserId: FIRST_VIEWER_USER_ID });
    expect(redemption.status).toBe('accepted');
    expect((fx.events[0]!.payload as { status: string }).status).toBe('accepted');
  });

  it('keeps user input when the reward asks for it, and requires it then', async () => {
    const rewardId = await createReward({ is_user_input_required: true });
    const redemption = redeemReward(fx.sandbox.ctx.state, {
      rewardId,
      redeemerUserId: FIRST_VIEWER_USER_ID,
      userInput: 'play Tetris',
    });
    expect(redemption.userInput).toBe('play Tetris');
    for (const userInput of [undefined, '   ']) {
      expect(() =>
        redeemReward(fx.sandbox.ctx.state, { rewardId, redeemerUserId: FIRST_VIEWER_USER_ID, userInput }),
      ).toThrow(expect.objectContaining({ name: 'RedeemError', code: 'USER_INPUT_REQUIRED' }));
    }
  });

  it('refuses disabled, paused, deleted and unknown rewards and unknown redeemers, storing nothing', async () => {
    const disabled = await createReward({ is_enabled: false });
    const paused = await createReward();
    await call(fx.api, 'PATCH', `${REWARDS}/${paused}`, { token: fx.token, body: { is_paused: true } });
    const deleted = await createReward();
    await call(fx.api, 'DELETE', `${REWARDS}/${deleted}`, { token: fx.token });
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
        redeemReward(fx.sandbox.ctx.state, { rewardId, redeemerUserId });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(RedeemError);
      expect((caught as RedeemError).code).toBe(code);
    }
    const enabled = await createReward();
    expect(() => redeemReward(fx.sandbox.ctx.state, { rewardId: enabled, redeemerUserId: 999_999_999 })).toThrow(
      expect.objectContaining({ code: 'REDEEMER_NOT_FOUND' }),
    );
    expect(fx.sandbox.ctx.state.redemptions.size).toBe(0);
    expect(fx.events).toEqual([]);
  });
});
