/**
 * What the api-ads.test files share: their fixtures and helpers.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import { createSigningKeys, type Sandbox } from '../../../sandbox/index';
import type { SandboxChannel } from '../../../sandbox/state';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { KICK_SCOPES } from '../../../shared/kick/scopes';
import { call, mintUserToken, startSandbox } from '../../helpers/sandbox';

export const STATUS = '/public/v1/ads/ad-break-status';
export const ENROLL = '/public/v1/ads/enroll';
export const BREAK = '/public/v1/ads/ad-break';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const keys = createSigningKeys();

export const fx = {} as {
  sandbox: Sandbox;
  api: string;
  token: string;
  channel: SandboxChannel;
};

/** Enrolled (through the API, while offline) and then live: ready for ad breaks. */
export async function readyForAds(): Promise<void> {
  expect((await call(fx.api, 'POST', ENROLL, { token: fx.token })).status).toBe(200);
  fx.channel.isLive = true;
}

export function coded(status: number, code: string, detail: string) {
  const messages: Record<number, string> = {
    400: 'Bad request',
    404: 'Not found',
    409: 'Conflict',
    429: 'Too many requests',
  };
  return { status, json: { data: { code, detail }, message: messages[status] } };
}

export async function adBreak(body: unknown) {
  const res = await call(fx.api, 'POST', BREAK, { token: fx.token, body });
  return { status: res.status, json: res.json };
}

/** The hooks every file of this group runs around each test. */
export function useSetup(): void {
  beforeEach(async () => {
    // Time stands still unless a test advances it, so "still running" and window edges are exact.
    const frozen = Date.UTC(2026, 0, 15, 20, 0, 0);
    fx.sandbox = await startSandbox({ keys, clock: { now: () => frozen } });
    fx.api = fx.sandbox.urls.api;
    // A day-long token: these tests move the clock past the default hour.
    fx.token = mintUserToken(fx.sandbox, KICK_SCOPES, STREAMER_USER_ID, 86_400);
    fx.channel = fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)!;
  });

  afterEach(async () => {
    await fx.sandbox.close();
  });
}
