/**
 * The admin API's ad-break limit (`PATCH /channels/:id/ads`): Kick allows a few breaks a period, and tests
 * and benchmarks that run many breaks (bench/obs-action-latency.ts) lift it here.
 */
import { describe, expect, it } from 'vitest';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { callAdmin } from '../../helpers/sandbox';
import { adBreak, coded, fx, readyForAds, useSetup } from './api-ads-fixtures';

useSetup();

const patch = (body: unknown) => callAdmin(fx.sandbox, 'PATCH', `/channels/${STREAMER_USER_ID}/ads`, { body });

describe('PATCH /channels/:id/ads (admin)', () => {
  it('lifts the limit so a fourth break in the period is accepted', async () => {
    await readyForAds();
    for (let i = 0; i < 3; i++) {
      expect((await adBreak({ break_duration_seconds: 7 })).status).toBe(200);
      fx.sandbox.ctx.clock.advance(7_000);
    }
    expect(await adBreak({ break_duration_seconds: 7 })).toEqual(
      coded(429, 'AD_BREAK_LIMIT_REACHED', 'ad breaks: at most 3 per 3600 seconds'),
    );
    const lifted = await patch({ limit_max: 100 });
    expect(lifted.status).toBe(200);
    expect(lifted.json).toEqual({ limits: { max: 100, period_seconds: 3600 } });
    expect((await adBreak({ break_duration_seconds: 7 })).status).toBe(200);
  });

  it.each([[{}], [{ limit_max: -1 }], [{ limit_period_seconds: 0 }], [{ limit_max: 'lots' }]])(
    'refuses %j and keeps the limit',
    async (body) => {
      expect((await patch(body)).status).toBe(400);
      expect(fx.sandbox.ctx.state.adsFor(STREAMER_USER_ID)).toMatchObject({ limitMax: 3, limitPeriodSeconds: 3600 });
    },
  );
});
