/**
 * What the api-rewards.test files share: their fixtures and helpers.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import { createSigningKeys, type Sandbox } from '../../../sandbox/index';
import { call, mintUserToken, startSandbox } from '../../helpers/sandbox';

export const PATH = '/public/v1/channels/rewards';
export const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
export const keys = createSigningKeys();

export const fx = {} as {
  sandbox: Sandbox;
  api: string;
  token: string;
};

/** Registers a second app and returns a user token for the streamer issued to it. */

export async function createReward(body: Record<string, unknown> = {}, as = fx.token) {
  const res = await call(fx.api, 'POST', PATH, { token: as, body: { title: 'Hydrate', cost: 100, ...body } });
  expect(res.status).toBe(200);
  return res.json.data as { id: string; title: string };
}

/** The hooks every file of this group runs around each test. */
export function useSetup(): void {
  beforeEach(async () => {
    fx.sandbox = await startSandbox({ keys });
    fx.api = fx.sandbox.urls.api;
    fx.token = mintUserToken(fx.sandbox);
  });

  afterEach(async () => {
    await fx.sandbox.close();
  });
}
