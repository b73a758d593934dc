/**
 * Channel-point rewards on the sandbox's api.kick.com ([reference §3.7](../../../docs/kick-wire-reference.md#37-channel-rewards)): list, create, update, delete, the
 * 15-reward cap and the rule that only the creating app may change a reward.
 *
 * This file: “DELETE /public/v1/channels/rewards/:id”.
 */
import { describe, expect, it } from 'vitest';
import { FIRST_OTHER_STREAMER_USER_ID } from '../../../sandbox/world';
import { KICK_SCOPES } from '../../../shared/kick/scopes';
import { call, mintUserToken, otherAppUserToken } from '../../helpers/sandbox';
import { PATH, createReward, fx, useSetup } from './api-rewards-fixtures';

useSetup();

describe('DELETE /public/v1/channels/rewards/:id', () => {
  it('answers 204 with no body and the reward disappears from the list', async () => {
    const reward = await createReward();
    const res = await call(fx.api, 'DELETE', `${PATH}/${reward.id}`, { token: fx.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await call(fx.api, 'GET', PATH, { token: fx.token })).json.data).toEqual([]);
    expect(fx.sandbox.ctx.state.rewards.get(reward.id)?.deleted).toBe(true);

    const again = await call(fx.api, 'DELETE', `${PATH}/${reward.id}`, { token: fx.token });
    expect(again.status).toBe(404);
  });

  it('answers 403 when another app created the reward, and keeps it', async () => {
    const other = otherAppUserToken(fx.sandbox);
    const reward = await createReward({}, other);
    const res = await call(fx.api, 'DELETE', `${PATH}/${reward.id}`, { token: fx.token });
    expect(res.status).toBe(403);
    expect(res.json.data).toBe('only the app that created the reward can delete it');
    // The creating app can, and sees the same list as any app for this channel.
    expect((await call(fx.api, 'GET', PATH, { token: fx.token })).json.data).toHaveLength(1);
    expect((await call(fx.api, 'DELETE', `${PATH}/${reward.id}`, { token: other })).status).toBe(204);
  });

  it("answers 404 for another channel's reward", async () => {
    const theirs = await createReward({}, mintUserToken(fx.sandbox, KICK_SCOPES, FIRST_OTHER_STREAMER_USER_ID));
    expect((await call(fx.api, 'DELETE', `${PATH}/${theirs.id}`, { token: fx.token })).status).toBe(404);
    expect(fx.sandbox.ctx.state.rewards.get(theirs.id)?.deleted).toBe(false);
  });
});
