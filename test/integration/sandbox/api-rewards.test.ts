/**
 * Channel-point rewards on the sandbox's api.kick.com ([reference §3.7](../../../docs/kick-wire-reference.md#37-channel-rewards)): list, create, update, delete, the
 * 15-reward cap and the rule that only the creating app may change a reward.
 *
 * This file: “POST /public/v1/channels/rewards”; “GET /public/v1/channels/rewards”; “reward auth”; “PATCH /public/v1/channels/rewards/:id”.
 */
import { describe, expect, it } from 'vitest';
import { FIRST_OTHER_STREAMER_USER_ID } from '../../../sandbox/world';
import { createUlid } from '../../../electron/core/ids';
import { KICK_SCOPES } from '../../../shared/kick/scopes';
import { DEFAULT_REWARD_COLOUR, LIMITS } from '../../../shared/limits';
import { call, mintAppToken, mintUserToken, otherAppUserToken } from '../../helpers/sandbox';
import { PATH, ULID, createReward, fx, useSetup } from './api-rewards-fixtures';

useSetup();

describe('POST /public/v1/channels/rewards', () => {
  it('creates a reward with Kick defaults and lists it', async () => {
    const res = await call(fx.api, 'POST', PATH, { token: fx.token, body: { title: 'Hydrate', cost: 100 } });
    expect(res.status).toBe(200);
    expect(res.json.message).toBe('OK');
    expect(res.json.data).toEqual({
      id: expect.stringMatching(ULID),
      title: 'Hydrate',
      description: '',
      cost: 100,
      background_color: DEFAULT_REWARD_COLOUR,
      is_enabled: true,
      is_paused: false,
      is_user_input_required: false,
      should_redemptions_skip_request_queue: false,
    });
    expect(fx.sandbox.ctx.state.rewards.get(res.json.data.id as string)?.createdByClientId).toBe(
      fx.sandbox.ctx.app.clientId,
    );

    const list = await call(fx.api, 'GET', PATH, { token: fx.token });
    expect(list.status).toBe(200);
    expect(list.json).toEqual({ data: [res.json.data], message: 'OK' });
  });

  it('takes every optional field and ignores is_paused on create', async () => {
    const body = {
      title: 'x'.repeat(LIMITS.rewardTitleMax),
      cost: 1,
      description: 'd'.repeat(LIMITS.rewardDescriptionMax),
      background_color: '#abc',
      is_enabled: false,
      is_user_input_required: true,
      should_redemptions_skip_request_queue: true,
      is_paused: true,
    };
    const res = await call(fx.api, 'POST', PATH, { token: fx.token, body });
    expect(res.status).toBe(200);
    const { is_paused, ...rest } = body;
    expect(is_paused).toBe(true);
    expect(res.json.data).toEqual({ id: expect.stringMatching(ULID), ...rest, is_paused: false });
  });

  it.each([
    [{ cost: 5 }, 'title: is required'],
    [{ title: 'A' }, 'cost: is required'],
    [{ title: '', cost: 5 }, 'title: must not be empty'],
    [{ title: 'x'.repeat(51), cost: 5 }, 'title: must be at most 50 characters'],
    [{ title: 7, cost: 5 }, 'title: must be a string'],
    [{ title: 'A', cost: 0 }, 'cost: must be at least 1'],
    [{ title: 'A', cost: 1.5 }, 'cost: must be an integer'],
    [{ title: 'A', cost: '5' }, 'cost: must be an integer'],
    [{ title: 'A', cost: 5, description: 'd'.repeat(201) }, 'description: must be at most 200 characters'],
    [{ title: 'A', cost: 5, background_color: 'green' }, 'background_color: must be a hex colour (#rgb or #rrggbb)'],
    [{ title: 'A', cost: 5, background_color: '#12345' }, 'background_color: must be a hex colour (#rgb or #rrggbb)'],
    [{ title: 'A', cost: 5, is_enabled: 'yes' }, 'is_enabled: must be a boolean'],
    [{ title: 'A', cost: 5, is_user_input_required: 1 }, 'is_user_input_required: must be a boolean'],
    [
      { title: 'A', cost: 5, should_redemptions_skip_request_queue: 'no' },
      'should_redemptions_skip_request_queue: must be a boolean',
    ],
  ])('refuses %j with 400 naming the field and the rule', async (body, detail) => {
    const res = await call(fx.api, 'POST', PATH, { token: fx.token, body });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ data: detail, message: 'Bad request' });
    expect(fx.sandbox.ctx.state.rewards.size).toBe(0);
  });

  it.each([
    ['{"title":', 'request body: malformed JSON'],
    ['[1,2]', 'request body: expected a JSON object'],
    ['"text"', 'request body: expected a JSON object'],
    ['', 'request body: expected a JSON object'],
  ])('answers 400 to the raw body %j without crashing', async (rawBody, detail) => {
    const res = await call(fx.api, 'POST', PATH, {
      token: fx.token,
      rawBody,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ data: detail, message: 'Bad request' });
    expect((await call(fx.api, 'GET', PATH, { token: fx.token })).status).toBe(200);
  });

  it(`caps a channel at ${LIMITS.rewardsPerChannelMax} rewards, enabled and disabled combined`, async () => {
    let first = '';
    for (let i = 0; i < LIMITS.rewardsPerChannelMax; i++) {
      const reward = await createReward({ title: `R${i}`, is_enabled: i % 2 === 0 });
      if (i === 0) {
        first = reward.id;
      }
    }
    const over = await call(fx.api, 'POST', PATH, { token: fx.token, body: { title: 'One too many', cost: 1 } });
    expect(over.status).toBe(400);
    expect(over.json.message).toBe('Bad request');
    expect(over.json.data).toBe('rewards: a channel can have at most 15 rewards (enabled and disabled combined)');
    expect((await call(fx.api, 'GET', PATH, { token: fx.token })).json.data).toHaveLength(LIMITS.rewardsPerChannelMax);

    // Deleting one frees its slot.
    expect((await call(fx.api, 'DELETE', `${PATH}/${first}`, { token: fx.token })).status).toBe(204);
    expect(
      (await call(fx.api, 'POST', PATH, { token: fx.token, body: { title: 'Now it fits', cost: 1 } })).status,
    ).toBe(200);
  });

  it('counts the cap per channel', async () => {
    for (let i = 0; i < LIMITS.rewardsPerChannelMax; i++) {
      await createReward({ title: `R${i}` });
    }
    const other = mintUserToken(fx.sandbox, KICK_SCOPES, FIRST_OTHER_STREAMER_USER_ID);
    expect((await call(fx.api, 'POST', PATH, { token: other, body: { title: 'Mine', cost: 1 } })).status).toBe(200);
  });
});

describe('GET /public/v1/channels/rewards', () => {
  it("lists only the token user's live rewards", async () => {
    const mine = await createReward({ title: 'Mine' });
    const gone = await createReward({ title: 'Gone' });
    const other = mintUserToken(fx.sandbox, KICK_SCOPES, FIRST_OTHER_STREAMER_USER_ID);
    await createReward({ title: 'Theirs' }, other);
    await call(fx.api, 'DELETE', `${PATH}/${gone.id}`, { token: fx.token });

    const res = await call(fx.api, 'GET', PATH, { token: fx.token });
    expect((res.json.data as { id: string }[]).map((r) => r.id)).toEqual([mine.id]);
    const theirs = (await call(fx.api, 'GET', PATH, { token: other })).json.data as { title: string }[];
    expect(theirs.map((r) => r.title)).toEqual(['Theirs']);
  });

  it('answers [] when there are none', async () => {
    expect((await call(fx.api, 'GET', PATH, { token: fx.token })).json).toEqual({ data: [], message: 'OK' });
  });

  it('accepts channel:rewards:read or channel:rewards:write', async () => {
    for (const scope of ['channel:rewards:read', 'channel:rewards:write']) {
      expect((await call(fx.api, 'GET', PATH, { token: mintUserToken(fx.sandbox, [scope]) })).status).toBe(200);
    }
  });
});

describe('reward auth', () => {
  it('answers 401 without a token or with an unknown one', async () => {
    for (const t of [undefined, 'nope']) {
      const res = await call(fx.api, 'GET', PATH, { token: t });
      expect(res.status).toBe(401);
      expect(res.json).toEqual({ data: {}, message: 'Unauthorized' });
    }
  });

  it('answers 403 to an app token', async () => {
    const res = await call(fx.api, 'GET', PATH, { token: mintAppToken(fx.sandbox) });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ data: 'a user access token is required', message: 'Forbidden' });
  });

  it('answers 403 naming the missing scope', async () => {
    const readOnly = mintUserToken(fx.sandbox, ['channel:rewards:read']);
    const post = await call(fx.api, 'POST', PATH, { token: readOnly, body: { title: 'A', cost: 1 } });
    expect(post.status).toBe(403);
    expect(post.json.data).toBe('missing scope: channel:rewards:write');
    const get = await call(fx.api, 'GET', PATH, { token: mintUserToken(fx.sandbox, ['user:read']) });
    expect(get.status).toBe(403);
    expect(get.json.data).toBe('missing scope: channel:rewards:read or channel:rewards:write');

    const reward = await createReward();
    for (const method of ['PATCH', 'DELETE']) {
      const res = await call(fx.api, method, `${PATH}/${reward.id}`, { token: readOnly, body: { cost: 2 } });
      expect(res.status).toBe(403);
    }
  });
});

describe('PATCH /public/v1/channels/rewards/:id', () => {
  it('changes only the fields sent, including is_paused', async () => {
    const reward = await createReward({ description: 'Drink water' });
    const res = await call(fx.api, 'PATCH', `${PATH}/${reward.id}`, {
      token: fx.token,
      body: { cost: 250, is_paused: true, background_color: '#FF0000' },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      data: {
        id: reward.id,
        title: 'Hydrate',
        description: 'Drink water',
        cost: 250,
        background_color: '#FF0000',
        is_enabled: true,
        is_paused: true,
        is_user_input_required: false,
        should_redemptions_skip_request_queue: false,
      },
      message: 'OK',
    });
    expect((await call(fx.api, 'GET', PATH, { token: fx.token })).json.data[0]).toEqual(res.json.data);
  });

  it('answers 400 when no known field is sent', async () => {
    const reward = await createReward();
    for (const body of [{}, { unknown: 1 }, { title: null }]) {
      const res = await call(fx.api, 'PATCH', `${PATH}/${reward.id}`, { token: fx.token, body });
      expect(res.status).toBe(400);
      expect(res.json.data).toBe(
        'request body: send at least one of title, cost, description, background_color, is_enabled, is_paused, is_user_input_required, should_redemptions_skip_request_queue',
      );
    }
  });

  it.each([
    [{ cost: 0 }, 'cost: must be at least 1'],
    [{ title: 'x'.repeat(51) }, 'title: must be at most 50 characters'],
    [{ is_paused: 'true' }, 'is_paused: must be a boolean'],
    [{ background_color: '00e701' }, 'background_color: must be a hex colour (#rgb or #rrggbb)'],
  ])('refuses %j with 400 and leaves the reward unchanged', async (body, detail) => {
    const reward = await createReward();
    const res = await call(fx.api, 'PATCH', `${PATH}/${reward.id}`, {
      token: fx.token,
      body: { description: 'new', ...body },
    });
    expect(res.status).toBe(400);
    expect(res.json.data).toBe(detail);
    expect(fx.sandbox.ctx.state.rewards.get(reward.id)?.description).toBe('');
  });

  it('answers 400 to malformed JSON', async () => {
    const reward = await createReward();
    const res = await call(fx.api, 'PATCH', `${PATH}/${reward.id}`, { token: fx.token, rawBody: '{cost: 5}' });
    expect(res.status).toBe(400);
    expect(res.json.data).toBe('request body: malformed JSON');
  });

  it("answers 404 for an unknown, deleted or other channel's reward", async () => {
    const deleted = await createReward();
    await call(fx.api, 'DELETE', `${PATH}/${deleted.id}`, { token: fx.token });
    const theirs = await createReward({}, mintUserToken(fx.sandbox, KICK_SCOPES, FIRST_OTHER_STREAMER_USER_ID));
    for (const id of [createUlid(0), 'not-an-id', deleted.id, theirs.id]) {
      const res = await call(fx.api, 'PATCH', `${PATH}/${id}`, { token: fx.token, body: { cost: 5 } });
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ data: 'id: no reward with this id in your channel', message: 'Not found' });
    }
  });

  it('answers 403 when another app created the reward', async () => {
    const reward = await createReward({}, otherAppUserToken(fx.sandbox));
    const res = await call(fx.api, 'PATCH', `${PATH}/${reward.id}`, { token: fx.token, body: { cost: 5 } });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ data: 'only the app that created the reward can update it', message: 'Forbidden' });
    expect(fx.sandbox.ctx.state.rewards.get(reward.id)?.cost).toBe(100);
  });
});
