/**
 * What the api-redemptions.test files share: their fixtures and helpers.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import { redeemReward } from '../../../sandbox/api/rewards-redeem';
import { createSigningKeys, type Sandbox } from '../../../sandbox/index';
import type { SandboxEvent } from '../../../sandbox/state';
import { FIRST_VIEWER_USER_ID } from '../../../sandbox/world';
import { call, mintUserToken, startSandbox } from '../../helpers/sandbox';

export const REWARDS = '/public/v1/channels/rewards';
export const PATH = '/public/v1/channels/rewards/redemptions';
export const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
export const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
export const keys = createSigningKeys();

export const fx = {} as {
  sandbox: Sandbox;
  api: string;
  token: string;
  events: SandboxEvent[];
};

export async function createReward(body: Record<string, unknown> = {}, as = fx.token): Promise<string> {
  const res = await call(fx.api, 'POST', REWARDS, { token: as, body: { title: 'Hydrate', cost: 100, ...body } });
  expect(res.status).toBe(200);
  return res.json.data.id as string;
}

/** A viewer redeems; the clock moves 1 ms first so "oldest first" is the order of these calls. */
export function redeem(rewardId: string, viewer = 0, userInput?: string): string {
  fx.sandbox.ctx.clock.advance(1);
  return redeemReward(fx.sandbox.ctx.state, { rewardId, redeemerUserId: FIRST_VIEWER_USER_ID + viewer, userInput }).id;
}

/** A listing's page as the tests read it. */
export interface GroupedPage {
  data: { reward: { id: string }; redemptions: { id: string }[] }[];
}

export function listIds(body: unknown): string[] {
  return (body as GroupedPage).data.flatMap((group) => group.redemptions.map((r) => r.id));
}

/** The hooks every file of this group runs around each test. */
export function useSetup(): void {
  beforeEach(async () => {
    fx.sandbox = await startSandbox({ keys });
    fx.api = fx.sandbox.urls.api;
    fx.token = mintUserToken(fx.sandbox);
    fx.events = [];
    fx.sandbox.ctx.state.onEvent((event) => fx.events.push(event));
  });

  afterEach(async () => {
    await fx.sandbox.close();
  });
}
