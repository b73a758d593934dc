/**
 * What the api-chat-moderation.test files share: their fixtures and helpers.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import { createSigningKeys, type Sandbox } from '../../../sandbox/index';
import type { SandboxEvent } from '../../../sandbox/state';
import { FIRST_OTHER_STREAMER_USER_ID, FIRST_VIEWER_USER_ID } from '../../../sandbox/world';
import { KICK_SCOPES } from '../../../shared/kick/scopes';
import { call, type CallOptions, mintUserToken, startSandbox } from '../../helpers/sandbox';

export const keys = createSigningKeys();
/** A frozen base clock, so times in answers and payloads can be asserted exactly (advance() still works). */
export const START_MS = Date.UTC(2026, 5, 17, 12, 0, 0);
export const VIEWER = FIRST_VIEWER_USER_ID + 1;
export const OTHER_CHANNEL = FIRST_OTHER_STREAMER_USER_ID;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const allBut = (scope: string): string[] => KICK_SCOPES.filter((s) => s !== scope);

export const fx = {} as {
  sandbox: Sandbox;
  api: string;
  logs: string[];
  events: SandboxEvent[];
};

export const as = (userId: number, scopes: readonly string[] = KICK_SCOPES) =>
  mintUserToken(fx.sandbox, scopes, userId);
export const post = (path: string, options: CallOptions) => call(fx.api, 'POST', path, options);
export const del = (path: string, options: CallOptions) => call(fx.api, 'DELETE', path, options);

export async function say(userId: number, broadcasterUserId: number, content: string): Promise<string> {
  const res = await post('/public/v1/chat', {
    token: as(userId),
    body: { type: 'user', content, broadcaster_user_id: broadcasterUserId },
  });
  expect(res.status).toBe(200);
  return res.json.data.message_id as string;
}

/** The hooks every file of this group runs around each test. */
export function useSetup(): void {
  beforeEach(async () => {
    fx.logs = [];
    fx.events = [];
    fx.sandbox = await startSandbox({ keys, clock: { now: () => START_MS }, log: (line) => fx.logs.push(line) });
    fx.api = fx.sandbox.urls.api;
    fx.sandbox.ctx.state.onEvent((event) => fx.events.push(event));
  });

  afterEach(async () => {
    await fx.sandbox.close();
    expect(fx.logs.filter((line) => line.includes('handler error'))).toEqual([]);
  });
}
