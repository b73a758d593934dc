/**
 * What the composition root needs from the webhook side (receiver → journal → bus, tunnel, reconciler,
 * lag), so the services are built and tested without it, and its one real wiring: `createAppWebhookPort`
 * puts `electron/webhooks/webhook-service.ts` behind it for both entries (desktop and panel-only); tests
 * pass a fake, or one fed straight from an embedded sandbox. The port and its wiring live in one place, so
 * the composition root has no second half in `launch/`.
 */
import type { KickEventType } from '../../shared/kick/scopes';
import type { HealthView } from '../../shared/views';
import type { Clock } from '../core/clock';
import type { Kick } from '../kick/create-kick';
import type { Sandbox } from '../../sandbox/index';
import type { JournalRecord, KickEvent } from '../webhooks/events/types';
import { createWebhookService, type RestoredWebhookService } from '../webhooks/webhook-service';
import type { AppConfig } from './config';

/**
 * The webhook side as the app sees it. The order of start-up is in the types, not in a comment: the only
 * way to `start()` is through what `restore()` resolves with, so nothing can start the receiver (and take
 * live events) before the journal has been read back, and nothing can read history that is not loaded yet.
 */
export interface WebhookPort {
  /**
   * Reads the journal back (once; later calls resolve with the same value): the events accepted before
   * this run, oldest first, and the way to start taking live ones.
   */
  restore(): Promise<RestoredWebhooks>;
  /** Stops whatever runs (after restore() only, it closes the journal); safe at any point. */
  stop(): Promise<void>;
  /** Every event accepted live, parsed, in arrival order (restored events are not replayed on it). */
  bus: { onAny(listener: (event: KickEvent) => void): () => void };
  /** Tunnel, webhook URL, receiver, subscriptions, lag and counters; the app adds the mode and the secret store. */
  health(): Omit<HealthView, 'mode' | 'secretStore'>;
  /** Called whenever anything in `health()` changed. Returns the unsubscribe function. */
  onHealthChange(listener: () => void): () => void;
  /**
   * Journals a chat line the live socket brought first, so its webhook is a copy (webhook-service.ts); absent
   * where no journal runs, and the socket's chat is then left to the webhooks.
   */
  recordLive?(record: JournalRecord, eventKey: string, payload?: unknown): 'new' | 'duplicate' | 'closed';
  /** How far the webhooks trail the live socket (webhook-service.ts `trail`). */
  trail?(): { samples: number; p50Ms: number | null; p95Ms: number | null };
  /**
   * The journal, for the stream history: read whole after restore(), and each record once it is written.
   * Absent where no journal runs; the history then does not run either.
   */
  journal?: {
    readAll(): Promise<JournalRecord[]>;
    onAppended(listener: (record: JournalRecord) => void): () => void;
  };
}

/** The journal read back, and the next step. */
export interface RestoredWebhooks {
  /** Events accepted before this run, oldest first, to rebuild chat, the feed and the mod log. */
  events: KickEvent[];
  /** Starts the receiver, the tunnel and the subscription reconciler (once; later calls do nothing more). */
  start(): Promise<void>;
}

/** What the webhook side gets from the composition root to build itself. */
export interface WebhookPortDeps {
  config: AppConfig;
  clock: Clock;
  log: (line: string) => void;
  dataDir: string;
  /** The Kick client the reconciler subscribes with (the sandbox in sandbox mode). */
  kick: Kick;
  /** The embedded sandbox in sandbox mode: point its app's webhook URL at the receiver. Null on real Kick. */
  sandbox: Sandbox | null;
  /** The signed-in broadcaster's user id, null while signed out or not yet known. */
  broadcasterUserId(): number | null;
  /** Called when the broadcaster changes (sign-in, sign-out). Returns the unsubscribe function. */
  onBroadcasterChange(listener: (userId: number | null) => void): () => void;
  /** The event types the streamer wants (settings), read at every reconcile. */
  wantedEvents(): readonly KickEventType[];
}

/** The factory the app's adapters provide. */
export type WebhookPortFactory = (deps: WebhookPortDeps) => WebhookPort;

/*
 * In sandbox mode the embedded sandbox's app is pointed at the local receiver, so its signed deliveries take
 * the same path Kick's do; on real Kick the tunnel's public URL is what the streamer pastes into Kick's
 * dashboard.
 */

/**
 * Builds the webhook port from the app's configuration (a WebhookPortFactory). `debugLog` says whether the
 * logger writes debug lines, so a line per duplicate delivery is built only when someone reads it
 * ([logging](../../docs/logging.md)).
 */
export function createAppWebhookPort(deps: WebhookPortDeps, debugLog: () => boolean = () => false): WebhookPort {
  const { config, kick, sandbox } = deps;
  const service = createWebhookService(
    {
      dataDir: deps.dataDir,
      port: config.webhook.port,
      path: config.webhook.path,
      replayWindowSeconds: config.webhook.replayWindowSeconds,
      tunnel: config.tunnel.setting,
      ...(config.tunnel.host ? { tunnelHost: config.tunnel.host } : {}),
      subdomain: config.tunnel.subdomain ?? '',
      wantedEvents: config.wantedEvents,
      ...(config.webhook.journal ? { journal: config.webhook.journal } : {}),
    },
    { clock: deps.clock, log: deps.log, debugLog, fetchPublicKey: () => kick.client.fetchPublicKey() },
  );
  const manage = (userId: number | null): void => {
    if (userId !== null) {
      service.manageSubscriptions(kick.client, userId);
    }
  };
  let unsubscribe: (() => void) | null = null;
  const start = async (restored: RestoredWebhookService): Promise<void> => {
    await restored.start();
    const receiverUrl = service.receiverUrl();
    if (sandbox && receiverUrl) {
      // As a developer would in Kick's dashboard: the app's one webhook URL is our receiver.
      sandbox.ctx.app.webhookUrl = receiverUrl;
      sandbox.ctx.app.webhooksEnabled = true;
    }
    unsubscribe = deps.onBroadcasterChange(manage);
    manage(deps.broadcasterUserId());
  };
  let starting: Promise<void> | null = null;
  return {
    bus: service.bus,
    async restore() {
      const restored = await service.restore();
      return { events: restored.events, start: () => (starting ??= start(restored)) };
    },
    async stop() {
      unsubscribe?.();
      await service.stop();
    },
    health: () => service.health(),
    onHealthChange: (listener) => service.onHealthChange(listener),
    recordLive: (record, eventKey, payload) => service.recordLive(record, eventKey, payload),
    trail: () => service.trail(),
    journal: service.journal,
  };
}
