/**
 * What the admin.test files share: their fixtures and helpers.
 */
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { afterEach, beforeEach, expect } from 'vitest';
import { createSigningKeys, type Sandbox } from '../../../sandbox/index';
import type { SandboxEvent } from '../../../sandbox/state';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { call, callAdmin, mintAppToken, startSandbox } from '../../helpers/sandbox';

export const keys = createSigningKeys();

/** A chat message as `GET /channels/:id/chat` shows it. */
export interface AdminMessage {
  message_id: string;
  content: string;
  deleted: boolean;
}
export const CHANNEL = `/channels/${STREAMER_USER_ID}`;

export const fx = {} as {
  sandbox: Sandbox;
  emitted: SandboxEvent[];
};

export function admin(
  method: string,
  path: string,
  body?: unknown,
  query?: [string, string | number][],
): ReturnType<typeof call> {
  return callAdmin(fx.sandbox, method, path, { body, query });
}

export async function subscribeApp(event: string, url: string): Promise<void> {
  fx.sandbox.ctx.app.webhookUrl = url;
  const res = await call(fx.sandbox.urls.api, 'POST', '/public/v1/events/subscriptions', {
    token: mintAppToken(fx.sandbox),
    body: { events: [{ name: event, version: 1 }], method: 'webhook', broadcaster_user_id: STREAMER_USER_ID },
  });
  expect(res.status, res.text).toBe(200);
}

/** A request with exactly these headers (undici would fill in Host itself). */
export function rawAdmin(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; headers: IncomingHttpHeaders; json: any }> {
  const url = new URL(fx.sandbox.urls.admin);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path,
        method,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The hooks every file of this group runs around each test. */
export function useSetup(): void {
  beforeEach(async () => {
    fx.sandbox = await startSandbox({ keys, delivery: { tickMs: 0 } });
    fx.emitted = [];
    fx.sandbox.ctx.state.onEvent((event) => fx.emitted.push(event));
  });

  afterEach(async () => {
    await fx.sandbox.close();
  });
}
