/**
 * What the api-event-subscriptions.test files share: their fixtures and helpers.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import { createSigningKeys, type Sandbox } from '../../../sandbox/index';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { call, mintAppToken, startSandbox } from '../../helpers/sandbox';

export const PATH = '/public/v1/events/subscriptions';
export const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
export const keys = createSigningKeys();

export const fx = {} as {
  sandbox: Sandbox;
  api: string;
  appToken: string;
};

export async function subscribe(token: string, names: string[], broadcaster: number | undefined = STREAMER_USER_ID) {
  const body: Record<string, unknown> = { events: names.map((name) => ({ name, version: 1 })), method: 'webhook' };
  if (broadcaster !== undefined) {
    body.broadcaster_user_id = broadcaster;
  }
  const res = await call(fx.api, 'POST', PATH, { token, body });
  expect(res.status).toBe(200);
  return res.json.data as { name: string; version: number; subscription_id?: string; error?: string }[];
}

export async function list(token: string, query: [string, string | number][] = []) {
  const res = await call(fx.api, 'GET', PATH, { token, query });
  expect(res.status).toBe(200);
  return res.json.data as { id: string; broadcaster_user_id: number; event: string }[];
}

/** The hooks every file of this group runs around each test. */
export function useSetup(): void {
  beforeEach(async () => {
    fx.sandbox = await startSandbox({ keys });
    fx.api = fx.sandbox.urls.api;
    fx.appToken = mintAppToken(fx.sandbox);
  });

  afterEach(async () => {
    await fx.sandbox.close();
  });
}
