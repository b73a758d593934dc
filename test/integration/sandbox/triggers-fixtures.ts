/**
 * What the triggers.test files share: their fixtures and helpers.
 */
import { afterEach, beforeEach, expect } from 'vitest';
import { createSigningKeys, type Sandbox } from '../../../sandbox/index';
import type { SandboxEvent } from '../../../sandbox/state';
import type { KickEventPayloads, KickEventUser } from '../../../shared/kick/events';
import type { KickChannel } from '../../../shared/kick/resources';
import type { KickEventType } from '../../../shared/kick/scopes';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { call, callAdmin, mintUserToken, startSandbox } from '../../helpers/sandbox';

export const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
export const EVENT_USER_KEYS = [
  'is_anonymous',
  'user_id',
  'username',
  'is_verified',
  'profile_picture',
  'channel_slug',
];
export const COMPACT_USER_KEYS = ['user_id', 'username', 'is_verified', 'profile_picture', 'channel_slug'];

// One key for the file: generating RSA-2048 per test would dominate the run time.
export const keys = createSigningKeys();

export const fx = {} as {
  sandbox: Sandbox;
  emitted: SandboxEvent[];
  token: string;
};

/** An event as `POST /trigger` answers it; overrides may add keys the wire type does not have. */
export interface FiredEvent<T extends KickEventType> {
  type: T;
  version: number;
  broadcaster_user_id: number;
  payload: KickEventPayloads[T] & Record<string, unknown>;
  delivery: { duplicates?: number; resend_with_new_id?: boolean; delay_seconds?: number } | null;
}

export async function trigger<T extends KickEventType>(
  type: T,
  body: Record<string, unknown> = {},
): Promise<FiredEvent<T>[]> {
  const res = await callAdmin(fx.sandbox, 'POST', `/trigger/${type}`, { body });
  expect(res.status, res.text).toBe(200);
  const events = res.json.events as FiredEvent<T>[];
  expect(res.json.fired).toBe(events.length);
  return events;
}

/** The first event's payload of a trigger. */
export async function fire<T extends KickEventType>(
  type: T,
  body: Record<string, unknown> = {},
): Promise<FiredEvent<T>['payload']> {
  return (await trigger(type, body))[0]!.payload;
}

export async function api<T>(path: string, query: [string, string | number][] = []): Promise<T> {
  const res = await call(fx.sandbox.urls.api, 'GET', path, { token: fx.token, query });
  expect(res.status, res.text).toBe(200);
  return res.json.data as T;
}

export async function streamerChannel(): Promise<KickChannel> {
  return (await api<KickChannel[]>('/public/v1/channels', [['broadcaster_user_id', STREAMER_USER_ID]]))[0]!;
}

export function expectEventUser(user: KickEventUser, withIdentity = false): void {
  for (const key of EVENT_USER_KEYS) {
    expect(user).toHaveProperty(key);
  }
  if (withIdentity) {
    expect(user.identity).toEqual({ username_color: expect.stringMatching(/^#/), badges: expect.any(Array) });
  }
}

/** The hooks every file of this group runs around each test. */
export function useSetup(): void {
  beforeEach(async () => {
    fx.sandbox = await startSandbox({ keys, delivery: { tickMs: 0 } });
    fx.emitted = [];
    fx.sandbox.ctx.state.onEvent((event) => fx.emitted.push(event));
    fx.token = mintUserToken(fx.sandbox);
  });

  afterEach(async () => {
    await fx.sandbox.close();
  });
}
