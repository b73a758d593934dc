/**
 * Ads ([reference §3.10](../../../docs/kick-wire-reference.md#310-ads) [UNCONFIRMED], [seed §4.2](../../../docs/product-spec.md#42-logical-operations) and [§7](../../../docs/product-spec.md#7-errors)): status, enroll preconditions, and ad breaks with
 * their Conflict, rate limit and idempotent-retry behaviour, time moved with the sandbox clock.
 */
import { describe, expect, it } from 'vitest';
import { createUuid } from '../../../electron/core/ids';
import { FIRST_OTHER_STREAMER_USER_ID, FIRST_VIEWER_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { KICK_SCOPES } from '../../../shared/kick/scopes';
import { call, mintAppToken, mintUserToken } from '../../helpers/sandbox';
import { BREAK, ENROLL, STATUS, UUID, adBreak, coded, fx, readyForAds, useSetup } from './api-ads-fixtures';

useSetup();

describe('GET /public/v1/ads/ad-break-status', () => {
  it('answers the default status of a channel that never ran ads', async () => {
    const res = await call(fx.api, 'GET', STATUS, { token: fx.token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      data: {
        opted_in: false,
        ads_blocked: false,
        remaining_ad_breaks: 3,
        ad_breaks: [],
        limits: { max: 3, period_seconds: 3600 },
        auto_ads_active: false,
      },
      message: 'OK',
    });
  });

  it('accepts ads:read or ads:write and refuses anything else', async () => {
    for (const scope of ['ads:read', 'ads:write']) {
      expect((await call(fx.api, 'GET', STATUS, { token: mintUserToken(fx.sandbox, [scope]) })).status).toBe(200);
    }
    const noScope = await call(fx.api, 'GET', STATUS, { token: mintUserToken(fx.sandbox, ['channel:read']) });
    expect(noScope.status).toBe(403);
    expect(noScope.json).toEqual({ data: 'missing scope: ads:read or ads:write', message: 'Forbidden' });
    expect((await call(fx.api, 'GET', STATUS, { token: mintAppToken(fx.sandbox) })).status).toBe(403);
    expect((await call(fx.api, 'GET', STATUS)).status).toBe(401);
  });

  it('answers 404 with a code when the token user has no channel', async () => {
    const viewer = mintUserToken(fx.sandbox, KICK_SCOPES, FIRST_VIEWER_USER_ID);
    const res = await call(fx.api, 'GET', STATUS, { token: viewer });
    expect({ status: res.status, json: res.json }).toEqual(
      coded(404, 'CHANNEL_NOT_FOUND', 'channel: the token user has no channel'),
    );
  });
});

describe('POST /public/v1/ads/enroll', () => {
  it('enrolls an offline channel that has streamed, and answers 200 again when already enrolled', async () => {
    const res = await call(fx.api, 'POST', ENROLL, { token: fx.token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ data: {}, message: 'OK' });
    expect((await call(fx.api, 'GET', STATUS, { token: fx.token })).json.data.opted_in).toBe(true);

    // Idempotent, even once the channel is live (the desired state already holds).
    fx.channel.isLive = true;
    expect((await call(fx.api, 'POST', ENROLL, { token: fx.token })).json).toEqual({ data: {}, message: 'OK' });
  });

  it('refuses a live channel with CHANNEL_LIVE', async () => {
    fx.channel.isLive = true;
    const res = await call(fx.api, 'POST', ENROLL, { token: fx.token });
    expect({ status: res.status, json: res.json }).toEqual(
      coded(400, 'CHANNEL_LIVE', 'channel: must be offline to enroll in ads'),
    );
    expect(fx.sandbox.ctx.state.adsFor(STREAMER_USER_ID).optedIn).toBe(false);
  });

  it('refuses a channel that never streamed with NEVER_STREAMED', async () => {
    fx.channel.hasStreamed = false;
    const res = await call(fx.api, 'POST', ENROLL, { token: fx.token });
    expect({ status: res.status, json: res.json }).toEqual(
      coded(400, 'NEVER_STREAMED', 'channel: must have streamed at least once to enroll in ads'),
    );
  });

  it('answers 404 CHANNEL_NOT_FOUND for a user without a channel', async () => {
    const res = await call(fx.api, 'POST', ENROLL, {
      token: mintUserToken(fx.sandbox, KICK_SCOPES, FIRST_VIEWER_USER_ID),
    });
    expect(res.status).toBe(404);
    expect(res.json.data.code).toBe('CHANNEL_NOT_FOUND');
  });

  it('ignores a body, even malformed, since enroll takes none', async () => {
    const res = await call(fx.api, 'POST', ENROLL, {
      token: fx.token,
      rawBody: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
  });

  it('needs ads:write', async () => {
    const res = await call(fx.api, 'POST', ENROLL, { token: mintUserToken(fx.sandbox, ['ads:read']) });
    expect(res.status).toBe(403);
    expect(res.json.data).toBe('missing scope: ads:write');
    expect((await call(fx.api, 'POST', ENROLL, { token: mintAppToken(fx.sandbox) })).status).toBe(403);
  });
});

describe('POST /public/v1/ads/ad-break', () => {
  it('starts a break, reports it in the status, and answers 409 until it ends', async () => {
    await readyForAds();
    const first = await adBreak({ break_duration_seconds: 30 });
    expect(first.status).toBe(200);
    expect(first.json).toEqual({
      data: { id: expect.stringMatching(UUID), remaining_ad_breaks: 2 },
      message: 'Accepted',
    });
    const firstId = first.json.data.id as string;

    const status = await call(fx.api, 'GET', STATUS, { token: fx.token });
    expect(status.json.data).toMatchObject({ opted_in: true, remaining_ad_breaks: 2 });
    expect(status.json.data.ad_breaks).toEqual([
      {
        id: firstId,
        status: 'inserted',
        break_duration_seconds: 30,
        created_at: new Date(fx.sandbox.ctx.state.adsFor(STREAMER_USER_ID).breaks[0]!.createdAtMs).toISOString(),
        source: 'public_api',
      },
    ]);

    fx.sandbox.ctx.clock.advance(29_999);
    expect(await adBreak({ break_duration_seconds: 60 })).toEqual(
      coded(409, 'AD_BREAK_ACTIVE', `ad break ${firstId} is still running`),
    );

    fx.sandbox.ctx.clock.advance(1);
    const second = await adBreak({ break_duration_seconds: 60 });
    expect(second.status).toBe(200);
    expect(second.json.data.remaining_ad_breaks).toBe(1);
    const breaks = (await call(fx.api, 'GET', STATUS, { token: fx.token })).json.data.ad_breaks as {
      id: string;
      status: string;
    }[];
    expect(breaks.map((b) => [b.id, b.status])).toEqual([
      [second.json.data.id, 'inserted'],
      [firstId, 'completed'],
    ]);
  });

  it('answers 429 once the limit period is used up, and allows breaks again as the window slides', async () => {
    await readyForAds();
    for (const remaining of [2, 1, 0]) {
      const res = await adBreak({ break_duration_seconds: 7 });
      expect(res.json.data.remaining_ad_breaks).toBe(remaining);
      fx.sandbox.ctx.clock.advance(10_000);
    }
    expect(await adBreak({ break_duration_seconds: 7 })).toEqual(
      coded(429, 'AD_BREAK_LIMIT_REACHED', 'ad breaks: at most 3 per 3600 seconds'),
    );
    expect((await call(fx.api, 'GET', STATUS, { token: fx.token })).json.data.remaining_ad_breaks).toBe(0);

    // The first break leaves the window 3600 s after it started (30 s have passed).
    fx.sandbox.ctx.clock.advance(3_570_000);
    const again = await adBreak({ break_duration_seconds: 7 });
    expect(again.status).toBe(200);
    expect(again.json.data.remaining_ad_breaks).toBe(0);
    const status = (await call(fx.api, 'GET', STATUS, { token: fx.token })).json.data;
    expect(status.ad_breaks).toHaveLength(3);
  });

  it('treats a repeated id as a retry: same answer, no second break, no 409', async () => {
    await readyForAds();
    const id = createUuid();
    const first = await adBreak({ id, break_duration_seconds: 120 });
    expect(first.json).toEqual({ data: { id, remaining_ad_breaks: 2 }, message: 'Accepted' });
    const retry = await adBreak({ id, break_duration_seconds: 120 });
    expect(retry).toEqual(first);
    expect(fx.sandbox.ctx.state.adsFor(STREAMER_USER_ID).breaks).toHaveLength(1);

    // Later retries still answer what the first call answered, even after other breaks and going offline.
    fx.sandbox.ctx.clock.advance(120_000);
    expect((await adBreak({ break_duration_seconds: 10 })).json.data.remaining_ad_breaks).toBe(1);
    fx.channel.isLive = false;
    expect(await adBreak({ id, break_duration_seconds: 120 })).toEqual(first);
    expect(fx.sandbox.ctx.state.adsFor(STREAMER_USER_ID).breaks).toHaveLength(2);
  });

  it("answers 409 AD_BREAK_ID_IN_USE for another channel's break id", async () => {
    await readyForAds();
    const id = createUuid();
    fx.sandbox.ctx.state.adsFor(FIRST_OTHER_STREAMER_USER_ID).breaks.push({
      id,
      breakDurationSeconds: 30,
      createdAtMs: fx.sandbox.ctx.clock.now(),
      source: 'public_api',
    });
    expect(await adBreak({ id, break_duration_seconds: 30 })).toEqual(
      coded(409, 'AD_BREAK_ID_IN_USE', 'id: already used for another ad break'),
    );
  });

  it('refuses an offline channel with CHANNEL_OFFLINE', async () => {
    await readyForAds();
    fx.channel.isLive = false;
    expect(await adBreak({ break_duration_seconds: 30 })).toEqual(
      coded(400, 'CHANNEL_OFFLINE', 'channel: must be live to run an ad break'),
    );
  });

  it('refuses a channel that is not enrolled with NOT_ENROLLED', async () => {
    fx.channel.isLive = true;
    expect(await adBreak({ break_duration_seconds: 30 })).toEqual(
      coded(400, 'NOT_ENROLLED', 'channel: must be enrolled in ads (POST /public/v1/ads/enroll)'),
    );
  });

  it('refuses a channel whose ads are blocked with 409 ADS_BLOCKED', async () => {
    await readyForAds();
    fx.sandbox.ctx.state.adsFor(STREAMER_USER_ID).adsBlocked = true;
    expect(await adBreak({ break_duration_seconds: 30 })).toEqual(
      coded(409, 'ADS_BLOCKED', 'channel: ads are blocked on this channel'),
    );
  });

  it.each([
    [{}, 'break_duration_seconds: is required'],
    [{ break_duration_seconds: 6 }, 'break_duration_seconds: must be at least 7'],
    [{ break_duration_seconds: 301 }, 'break_duration_seconds: must be at most 300'],
    [{ break_duration_seconds: '30' }, 'break_duration_seconds: must be an integer'],
    [{ break_duration_seconds: 30.5 }, 'break_duration_seconds: must be an integer'],
    [{ id: 'not-a-uuid', break_duration_seconds: 30 }, 'id: must be a UUID'],
    [{ id: 42, break_duration_seconds: 30 }, 'id: must be a string'],
    [[30], 'request body: expected a JSON object'],
  ])('answers 400 INVALID_REQUEST to %j', async (body, detail) => {
    await readyForAds();
    expect(await adBreak(body)).toEqual(coded(400, 'INVALID_REQUEST', detail));
    expect(fx.sandbox.ctx.state.adsFor(STREAMER_USER_ID).breaks).toHaveLength(0);
  });

  it('accepts the limits 7 and 300 exactly', async () => {
    await readyForAds();
    expect((await adBreak({ break_duration_seconds: 7 })).status).toBe(200);
    fx.sandbox.ctx.clock.advance(7_000);
    expect((await adBreak({ break_duration_seconds: 300 })).status).toBe(200);
  });

  it('answers 400 to malformed or missing bodies without crashing', async () => {
    await readyForAds();
    for (const rawBody of ['', '{"break_duration_seconds":', 'null']) {
      const res = await call(fx.api, 'POST', BREAK, {
        token: fx.token,
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(res.json.data.code).toBe('INVALID_REQUEST');
    }
    expect((await call(fx.api, 'GET', STATUS, { token: fx.token })).status).toBe(200);
  });

  it('needs a user token with ads:write', async () => {
    const res = await call(fx.api, 'POST', BREAK, {
      token: mintUserToken(fx.sandbox, ['ads:read']),
      body: { break_duration_seconds: 30 },
    });
    expect(res.status).toBe(403);
    expect((await call(fx.api, 'POST', BREAK, { token: mintAppToken(fx.sandbox), body: {} })).status).toBe(403);
    expect((await call(fx.api, 'POST', BREAK, { body: {} })).status).toBe(401);
  });
});
