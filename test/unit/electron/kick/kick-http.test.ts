import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KickApiError } from '../../../../electron/kick/kick-errors';
import { parseRetryAfter } from '../../../../electron/kick/kick-http';
import { createMockKick, json, signInMock, type MockKick } from '../../../helpers/kick-mock';

describe('Kick HTTP: envelopes, errors and retries', () => {
  let mock: MockKick;
  beforeEach(async () => {
    mock = createMockKick();
    await signInMock(mock);
  });
  afterEach(async () => {
    mock.agent.assertNoPendingInterceptors();
    await mock.agent.close();
  });

  it('treats an empty data list as an empty result, not an error', async () => {
    mock.api
      .intercept({ path: '/public/v1/channels/rewards/redemptions/accept', method: 'POST' })
      .reply(200, { data: [], message: 'OK' }, json);
    await expect(mock.kick.client.acceptRewardRedemptions(['01J0000000000000000000000A'])).resolves.toEqual([]);
  });

  // Kick sends exactly `application/json` (and so does the sandbox); proxies and older hosts add a charset.
  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8'])(
    'reads answers and errors sent as %s',
    async (contentType) => {
      const headers = { 'content-type': contentType };
      mock.api
        .intercept({ path: '/public/v1/livestreams/stats', method: 'GET' })
        .reply(200, JSON.stringify({ data: { total_count: 3 }, message: 'OK' }), { headers });
      await expect(mock.kick.client.fetchLivestreamStats()).resolves.toEqual({ total_count: 3 });
      mock.api
        .intercept({ path: '/public/v1/ads/ad-break', method: 'POST' })
        .reply(409, JSON.stringify({ data: { code: 'AD_BREAK_ACTIVE', detail: 'running' }, message: 'Conflict' }), {
          headers,
        });
      await expect(mock.kick.client.createAdBreak({ breakDurationSeconds: 30 })).rejects.toMatchObject({
        code: 'Conflict',
        kickCode: 'AD_BREAK_ACTIVE',
      });
    },
  );

  it("names the operation and the field when Kick's answer changed shape, and reads loose text leniently", async () => {
    mock.api
      .intercept({ path: '/public/v1/livestreams/stats', method: 'GET' })
      .reply(200, { data: { total_count: 'three' }, message: 'OK' }, json);
    const error = (await mock.kick.client.fetchLivestreamStats().catch((e: unknown) => e)) as KickApiError;
    expect(error).toBeInstanceOf(KickApiError);
    expect(error.code).toBe('UnexpectedAnswer');
    expect(error.message).toMatch(/^fetchLivestreamStats: Kick's answer does not fit at data\.total_count: /);
    expect(error.details).toMatchObject({ operation: 'fetchLivestreamStats', field: 'data.total_count' });
    mock.api.intercept({ path: '/public/v1/channels/rewards', method: 'GET' }).reply(
      200,
      {
        data: [
          { id: 'r1', title: 'Hydrate', cost: 100, is_enabled: true, is_paused: false, is_user_input_required: false },
        ],
        message: 'OK',
      },
      json,
    );
    await expect(mock.kick.client.fetchChannelRewards()).rejects.toMatchObject({
      code: 'UnexpectedAnswer',
      details: { field: 'data[0].should_redemptions_skip_request_queue' },
    });
    // A picture or description Kick sends as null is read as '', and a field Kick adds is kept.
    mock.api
      .intercept({ path: '/public/v1/users', method: 'GET' })
      .reply(
        200,
        { data: [{ user_id: 7, name: 'ana', email: null, profile_picture: null, new: 1 }], message: 'OK' },
        json,
      );
    await expect(mock.kick.client.fetchCurrentUser()).resolves.toEqual({
      user_id: 7,
      name: 'ana',
      email: '',
      profile_picture: '',
      new: 1,
    });
  });

  it('returns nothing for a 204', async () => {
    mock.api.intercept({ path: '/public/v1/chat/abc', method: 'DELETE' }).reply(204, '');
    await expect(mock.kick.client.deleteChatMessage('abc')).resolves.toBeUndefined();
  });

  const category = (id: number) => ({ id, name: `Category ${id}`, tags: [], thumbnail: '' });

  it('keeps pagination cursors and reads an empty cursor as the last page', async () => {
    mock.api
      .intercept({ path: '/public/v2/categories?name=chat&limit=2', method: 'GET' })
      .reply(200, { data: [category(1), category(2)], message: 'OK', pagination: { next_cursor: 'c2' } }, json);
    mock.api
      .intercept({ path: '/public/v2/categories?name=chat&limit=2&cursor=c2', method: 'GET' })
      .reply(200, { data: [category(3)], message: 'OK', pagination: { next_cursor: '' } }, json);
    const ids: number[] = [];
    for await (const category of mock.kick.client.iterateCategories({ query: 'chat', limit: 2 })) {
      ids.push(category.id);
    }
    expect(ids).toEqual([1, 2, 3]);
  });

  it('maps statuses to stable codes and keeps Kick message, detail, code and operation', async () => {
    mock.api
      .intercept({ path: '/public/v1/ads/ad-break', method: 'POST' })
      .reply(
        409,
        { data: { code: 'AD_BREAK_ACTIVE', detail: 'an ad break is already running' }, message: 'Conflict' },
        json,
      );
    const error = (await mock.kick.client
      .createAdBreak({ breakDurationSeconds: 30 })
      .catch((e: unknown) => e)) as KickApiError;
    expect(error).toBeInstanceOf(KickApiError);
    expect(error.code).toBe('Conflict');
    expect(error.status).toBe(409);
    expect(error.kickCode).toBe('AD_BREAK_ACTIVE');
    expect(error.operation).toBe('createAdBreak');
    expect(error.kickMessage).toContain('already running');
  });

  it.each([
    [400, 'BadRequest'],
    [403, 'Forbidden'],
    [404, 'NotFound'],
  ])('does not retry a %i', async (status, code) => {
    mock.api
      .intercept({ path: '/public/v1/kicks/leaderboard?top=10', method: 'GET' })
      .reply(status, { data: 'nope', message: 'x' }, json);
    await expect(mock.kick.client.fetchKicksLeaderboard()).rejects.toMatchObject({ code });
    expect(mock.sleeps).toEqual([]);
  });

  it('retries a read after 5xx with growing, bounded backoff and then succeeds', async () => {
    const path = '/public/v1/livestreams/stats';
    mock.api.intercept({ path, method: 'GET' }).reply(502, 'bad gateway');
    mock.api.intercept({ path, method: 'GET' }).reply(503, 'unavailable');
    mock.api.intercept({ path, method: 'GET' }).reply(200, { data: { total_count: 7 }, message: 'OK' }, json);
    await expect(mock.kick.client.fetchLivestreamStats()).resolves.toEqual({ total_count: 7 });
    // random() = 0.5 → three quarters of each step: 500 ms then 1000 ms steps.
    expect(mock.sleeps).toEqual([375, 750]);
  });

  it('gives up after the attempt limit with the last error', async () => {
    const path = '/public/v1/livestreams/stats';
    for (let i = 0; i < 4; i++) {
      mock.api.intercept({ path, method: 'GET' }).reply(500, { data: null, message: 'Internal server error' }, json);
    }
    await expect(mock.kick.client.fetchLivestreamStats()).rejects.toMatchObject({ code: 'ServerError', status: 500 });
    expect(mock.sleeps).toHaveLength(3);
  });

  it('honours Retry-After on a 429', async () => {
    const path = '/public/v1/livestreams/stats';
    mock.api
      .intercept({ path, method: 'GET' })
      .reply(
        429,
        { data: {}, message: 'Too many requests' },
        { headers: { 'retry-after': '3', 'content-type': 'application/json' } },
      );
    mock.api.intercept({ path, method: 'GET' }).reply(200, { data: { total_count: 1 }, message: 'OK' }, json);
    await mock.kick.client.fetchLivestreamStats();
    expect(mock.sleeps).toEqual([3000]);
  });

  it('never retries a non-idempotent write such as sending chat', async () => {
    mock.api
      .intercept({ path: '/public/v1/chat', method: 'POST' })
      .reply(500, { data: null, message: 'Internal server error' }, json);
    await expect(mock.kick.client.sendChatMessage({ content: 'hello', type: 'bot' })).rejects.toMatchObject({
      code: 'ServerError',
    });
    expect(mock.sleeps).toEqual([]);
  });

  it('retries create_ad_break with the same idempotency id', async () => {
    const bodies: string[] = [];
    const path = '/public/v1/ads/ad-break';
    const record = (status: number, data: string | object) => (opts: { body?: unknown }) => {
      bodies.push(opts.body as string);
      return { statusCode: status, data, responseOptions: json };
    };
    mock.api.intercept({ path, method: 'POST' }).reply(record(503, 'busy'));
    mock.api
      .intercept({ path, method: 'POST' })
      .reply(record(200, { data: { id: 'x', remaining_ad_breaks: 2 }, message: 'Accepted' }));
    await expect(mock.kick.client.createAdBreak({ breakDurationSeconds: 60 })).resolves.toEqual({
      id: 'x',
      remaining_ad_breaks: 2,
    });
    expect(bodies).toHaveLength(2);
    expect(bodies[0]).toBe(bodies[1]);
    expect(JSON.parse(bodies[0]!)).toMatchObject({
      break_duration_seconds: 60,
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  it('reports a network failure as Network', async () => {
    const path = '/public/v1/public-key';
    for (let i = 0; i < 4; i++) {
      mock.api.intercept({ path, method: 'GET' }).replyWithError(new Error('ECONNREFUSED'));
    }
    await expect(mock.kick.client.fetchPublicKey()).rejects.toMatchObject({ code: 'Network' });
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('5', 0)).toBe(5000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter('soon', 0)).toBeNull();
    expect(parseRetryAfter(undefined, 0)).toBeNull();
  });
});
