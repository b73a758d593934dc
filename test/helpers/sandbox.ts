/**
 * Test fixtures for the Kick sandbox: start one on free loopback ports, mint tokens without the browser
 * dance, and make raw HTTP calls whose status, headers and body the tests assert on.
 */
import { request } from 'undici';
import { KICK_SCOPES } from '../../shared/kick/scopes';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/index';
import { issueAccessToken } from '../../sandbox/tokens';
import { BOT_USER_ID, STREAMER_USER_ID } from '../../sandbox/world';
import { channelName, LIVE_ROOMS } from '../../sandbox/live-socket/ids';
import { createUlid } from '../../electron/core/ids';

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return createSandbox({ autoApproveUserId: STREAMER_USER_ID, ...options });
}

/** A user access token for the default app, straight from state (the OAuth flow has its own tests). */
export function mintUserToken(
  sandbox: Sandbox,
  scopes: readonly string[] = KICK_SCOPES,
  userId = STREAMER_USER_ID,
  lifetimeSeconds?: number,
): string {
  return issueAccessToken(sandbox.ctx.state, {
    kind: 'user',
    clientId: sandbox.ctx.app.clientId,
    userId,
    scopes: [...scopes],
    lifetimeSeconds,
  }).token;
}

export function mintAppToken(sandbox: Sandbox, clientId = sandbox.ctx.app.clientId): string {
  return issueAccessToken(sandbox.ctx.state, { kind: 'app', clientId, userId: null, scopes: [] }).token;
}

export interface CallOptions {
  token?: string;
  /** Query as pairs so repeated keys (`id=1&id=2`) can be expressed. */
  query?: [string, string | number][];
  /** Serialized as JSON unless `rawBody` is given. */
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** Parsed JSON, or undefined when the body is empty or not JSON. */
  json: any;
}

/** One HTTP request to a sandbox URL; never throws on an error status. */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<CallResult> {
  const url = new URL(path, baseUrl);
  for (const [k, v] of options.query ?? []) {
    url.searchParams.append(k, String(v));
  }
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) {
    headers.authorization = `Bearer ${options.token}`;
  }
  let body: string | Buffer | undefined;
  if (options.rawBody !== undefined) {
    body = options.rawBody;
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await request(url, { method: method as 'GET', headers, body });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, text, json };
}

/** One request to the sandbox's admin API with its token, as `npm run sandbox -- trigger …` sends it. */
export function callAdmin(
  sandbox: Sandbox,
  method: string,
  path: string,
  options: Omit<CallOptions, 'token'> = {},
): Promise<CallResult> {
  const authorization = `Bearer ${sandbox.describe().adminToken}`;
  return call(sandbox.urls.admin, method, path, { ...options, headers: { authorization, ...options.headers } });
}

/** The client id of the second app tests register to check "only the creating app" rules. */
export const OTHER_CLIENT_ID = '01JOTHERAPP000000000000000';

/** Registers a second app with the sandbox (as another developer would on Kick) and returns its client id. */
export function registerOtherApp(sandbox: Sandbox, clientId = OTHER_CLIENT_ID): string {
  const state = sandbox.ctx.state;
  state.apps.set(clientId, {
    appId: createUlid(state.now()),
    clientId,
    clientSecret: 'other-secret',
    name: 'Other app',
    redirectUris: [],
    webhookUrl: null,
    webhooksEnabled: true,
    botUserId: BOT_USER_ID,
  });
  return clientId;
}

/** A user token for the streamer issued to the second app. */
export function otherAppUserToken(sandbox: Sandbox): string {
  return issueAccessToken(sandbox.ctx.state, {
    kind: 'user',
    clientId: registerOtherApp(sandbox),
    userId: STREAMER_USER_ID,
    scopes: [...KICK_SCOPES],
  }).token;
}

/**
 * Waits until one live socket session of the sandbox has subscribed to every room of the broadcaster's (the
 * streamer's by default). The app says connected once its connection is up, a round trip before its
 * subscriptions are: a frame the sandbox sends in between goes to no socket. Fails with the sessions last seen.
 */
export async function untilSocketListening(
  sandbox: Sandbox,
  broadcasterUserId = STREAMER_USER_ID,
  timeoutMs = 30_000,
): Promise<void> {
  const names = LIVE_ROOMS.map((room) => channelName(room, broadcasterUserId));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // One failed admin call is a miss, not the end of the wait.
    const res = await callAdmin(sandbox, 'GET', '/live-socket').catch(() => null);
    const sessions: { channels: string[] }[] =
      res?.status === 200 ? ((res.json as { sessions?: { channels: string[] }[] }).sessions ?? []) : [];
    if (sessions.some((session) => names.every((name) => session.channels.includes(name)))) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(`no live socket session listened to ${names.join(', ')}: ${JSON.stringify(sessions)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
