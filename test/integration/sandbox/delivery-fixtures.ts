/**
 * Shared setup for the webhook delivery tests: a sandbox on a clock that moves only when told, direct
 * subscriptions, and the receiver-side signature check exactly as [reference §5.3](../../../docs/kick-wire-reference.md#53-signature-algorithm)
 * describes it.
 */
import { createPublicKey, verify } from 'node:crypto';
import { createUlid } from '../../../electron/core/ids';
import type { Sandbox } from '../../../sandbox/index';
import type { SandboxApp, SandboxSubscription } from '../../../sandbox/state';
import type { DeliveryOptions } from '../../../sandbox/webhooks/delivery';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { startSandbox } from '../../helpers/sandbox';
import type { ReceivedRequest } from './webhook-receiver';

/** 2025-04-01T07:56:19Z, the example timestamp in Kick's docs, so header values can be asserted exactly. */
export const START_MS = Date.UTC(2025, 3, 1, 7, 56, 19, 0);

/** A sandbox whose clock stands still at START_MS until the test advances it; only flush() delivers. */
export function startFrozenSandbox(
  attemptTimeoutMs = 3000,
  delivery: Partial<Omit<DeliveryOptions, 'tickMs' | 'attemptTimeoutMs'>> = {},
): Promise<Sandbox> {
  return startSandbox({ clock: { now: () => START_MS }, delivery: { ...delivery, tickMs: 0, attemptTimeoutMs } });
}

/** Adds a subscription straight to state, as POST /events/subscriptions would. */
export function subscribe(
  sandbox: Sandbox,
  event: string,
  options: { broadcasterUserId?: number; version?: number; app?: SandboxApp } = {},
): SandboxSubscription {
  const now = sandbox.ctx.clock.now();
  const app = options.app ?? sandbox.ctx.app;
  const subscription: SandboxSubscription = {
    id: createUlid(now),
    appId: app.appId,
    clientId: app.clientId,
    broadcasterUserId: options.broadcasterUserId ?? STREAMER_USER_ID,
    event,
    version: options.version ?? 1,
    createdAtMs: now,
    updatedAtMs: now,
  };
  sandbox.ctx.state.subscriptions.set(subscription.id, subscription);
  return subscription;
}

/** Registers another developer app, as the dashboard would. */
export function addApp(sandbox: Sandbox, name: string, webhookUrl: string | null, webhooksEnabled = true): SandboxApp {
  const app: SandboxApp = {
    appId: createUlid(sandbox.ctx.clock.now()),
    clientId: createUlid(sandbox.ctx.clock.now()),
    clientSecret: `${name}-secret`,
    name,
    redirectUris: [],
    webhookUrl,
    webhooksEnabled,
    botUserId: sandbox.ctx.app.botUserId,
  };
  sandbox.ctx.state.apps.set(app.clientId, app);
  return app;
}

/** What a correct receiver does: verify `id.timestamp.rawBody` with RSA-SHA256 against the served PEM. */
export function signatureVerifies(publicKeyPem: string, request: ReceivedRequest): boolean {
  const key = createPublicKey({ key: publicKeyPem, format: 'pem', type: 'spki' });
  const id = String(request.headers['kick-event-message-id']);
  const timestamp = String(request.headers['kick-event-message-timestamp']);
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), request.body]);
  return verify('sha256', signed, key, Buffer.from(String(request.headers['kick-event-signature']), 'base64'));
}

export function header(request: ReceivedRequest | undefined, name: string): string {
  const value = request?.headers[name.toLowerCase()];
  if (typeof value !== 'string') {
    throw new Error(`missing header ${name}`);
  }
  return value;
}
