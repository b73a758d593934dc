/**
 * What the own-channel tests share: the webhook service as the app builds it (receiver on 127.0.0.1, file
 * journal and saved subscriptions in a data dir, the reconciler on a real Kick client) against the Kick
 * sandbox, which delivers signed with its one key, to every app. `signed()` makes a delivery as Kick would
 * send it, with the sandbox's key, so a test can name any subscription and channel.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createKick, type Kick } from '../../../electron/kick/create-kick';
import { MemorySecretStore } from '../../../electron/secrets/secret-store';
import type { KickEvent } from '../../../electron/webhooks/events/types';
import { createWebhookService, type WebhookService } from '../../../electron/webhooks/webhook-service';
import type { Sandbox } from '../../../sandbox/index';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { KICK_EVENT_TYPES, type KickEventType } from '../../../shared/kick/scopes';
import { startSandbox } from '../../helpers/sandbox';
import { buildDelivery, postDelivery, type PostResult, samplePayloads } from '../../helpers/webhook-signing';

export { STREAMER_USER_ID };
/** The channel of the probe that found the hole: not the streamer's. */
export const OTHER_CHANNEL_ID = 999_999;
export const payloads = samplePayloads();

const cleanup: (() => Promise<void>)[] = [];

/** Stops every service, client and sandbox a test started, newest first. */
export function useCleanup(): void {
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) {
      await step();
    }
  });
}

/** One run of the app's webhook side on `dataDir` (a new run on the same dir is a restart). */
export interface Run {
  service: WebhookService;
  /** Published live, in order. */
  live: KickEvent[];
  /** Restored from the journal at start. */
  restored: KickEvent[];
  /** The service's log lines. */
  logs: string[];
  url: string;
  /** Has the reconciler subscribe and list at Kick as after sign-in; resolves once every type is active. */
  manage(): Promise<void>;
  stop(): Promise<void>;
}

export interface World {
  sandbox: Sandbox;
  dataDir: string;
  kick: Kick;
  start(options?: { wanted?: readonly KickEventType[]; holdMs?: number }): Promise<Run>;
  /** A delivery signed with the sandbox's key (Kick's one key), stamped at the sandbox clock's now. */
  signed(
    type: string,
    payload: unknown,
    options?: { subscriptionId?: string; messageId?: string },
  ): ReturnType<typeof buildDelivery>;
  /** Posts a delivery to a run's receiver. */
  post(run: Run, delivery: ReturnType<typeof buildDelivery>): Promise<PostResult>;
  /** The sandbox's subscription of the streamer's app for `type`. */
  subscriptionOf(type: KickEventType): string;
}

export async function startWorld(): Promise<World> {
  const sandbox = await startSandbox({ delivery: { tickMs: 0 } });
  const dataDir = mkdtempSync(join(tmpdir(), 'greenroom-own-channel-'));
  const kick = createKick(
    {
      apiUrl: sandbox.urls.api,
      authUrl: sandbox.urls.auth,
      clientId: sandbox.ctx.app.clientId,
      clientSecret: sandbox.ctx.app.clientSecret,
      redirectUri: 'http://127.0.0.1:3000/callback',
      scopes: [],
    },
    { clock: sandbox.ctx.clock, store: new MemorySecretStore(), openExternal: () => Promise.resolve() },
  );
  cleanup.push(async () => {
    await kick.close();
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async (options: { wanted?: readonly KickEventType[]; holdMs?: number } = {}): Promise<Run> => {
    const logs: string[] = [];
    const service = createWebhookService(
      {
        dataDir,
        port: 0,
        tunnel: 'off',
        subdomain: 'unused0',
        wantedEvents: options.wanted ?? KICK_EVENT_TYPES,
        fsync: 'never',
        holdMs: options.holdMs,
      },
      {
        // Kick's clock and ours agree, as in life; a test moves both.
        clock: sandbox.ctx.clock,
        log: (line) => void logs.push(line),
        fetchPublicKey: () => kick.client.fetchPublicKey(),
      },
    );
    const live: KickEvent[] = [];
    service.bus.onAny((event) => void live.push(event));
    const restored = await service.restore();
    await restored.start();
    const url = service.receiverUrl()!;
    sandbox.ctx.app.webhookUrl = url;
    let stopped = false;
    const stop = async (): Promise<void> => {
      if (!stopped) {
        stopped = true;
        await service.stop();
      }
    };
    cleanup.push(stop);
    const wanted = options.wanted ?? KICK_EVENT_TYPES;
    return {
      service,
      live,
      restored: restored.events,
      logs,
      url,
      stop,
      async manage() {
        service.manageSubscriptions(kick.client, STREAMER_USER_ID);
        await new Promise<void>((resolve) => {
          const check = (): void => {
            const { subscriptions } = service.health();
            if (subscriptions.length === wanted.length && subscriptions.every((s) => s.state === 'active')) {
              unsubscribe();
              resolve();
            }
          };
          const unsubscribe = service.onHealthChange(check);
          check();
        });
      },
    };
  };

  return {
    sandbox,
    dataDir,
    kick,
    start,
    signed: (type, payload, options = {}) =>
      buildDelivery({
        type,
        payload,
        privateKey: sandbox.ctx.keys.privateKey,
        atMs: sandbox.ctx.clock.now(),
        ...options,
      }),
    post: (run, delivery) => postDelivery(run.url, delivery),
    subscriptionOf(type) {
      const found = [...sandbox.ctx.state.subscriptions.values()].find(
        (s) => s.clientId === sandbox.ctx.app.clientId && s.broadcasterUserId === STREAMER_USER_ID && s.event === type,
      );
      if (!found) {
        throw new Error(`the streamer's app holds no subscription for ${type}`);
      }
      return found.id;
    },
  };
}

/** A payload of `type` for `broadcasterUserId` (the sample's, with the broadcaster's id changed). */
export function forChannel<T extends KickEventType>(type: T, broadcasterUserId: unknown): Record<string, unknown> {
  const payload = structuredClone(payloads[type]) as unknown as Record<string, unknown>;
  payload.broadcaster = { ...(payload.broadcaster as Record<string, unknown>), user_id: broadcasterUserId };
  return payload;
}
