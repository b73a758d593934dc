/**
 * What the composition root needs from the webhook side (receiver → journal → bus, tunnel, reconciler,
 * lag), so the services are built and tested without it. `electron/webhooks/webhook-service.ts` implements
 * it in the app; tests pass a fake, or one fed straight from an embedded sandbox.
 */
import type { KickEventType } from '../../shared/kick/scopes';
import type { HealthView } from '../../shared/views';
import type { Clock } from '../core/clock';
import type { Kick } from '../kick/create-kick';
import type { Sandbox } from '../sandbox/index';
import type { KickEvent } from '../webhooks/types';
import type { AppConfig } from './config';

/** The webhook side as the app sees it. */
export interface WebhookPort {
  /** Starts the receiver, the tunnel and the subscription reconciler. */
  start(): Promise<void>;
  /** Stops them; the journal is flushed and closed. */
  stop(): Promise<void>;
  /** Every accepted, parsed event, in arrival order. */
  bus: { onAny(listener: (event: KickEvent) => void): () => void };
  /** Journal replay, oldest first, to restore chat and the feed after a restart. */
  history(): Promise<KickEvent[]>;
  /** Tunnel, webhook URL, subscriptions, lag and counters; the app adds the mode and the secret store. */
  health(): Omit<HealthView, 'mode' | 'secretStore'>;
  /** Called whenever anything in `health()` changed. Returns the unsubscribe function. */
  onHealthChange(listener: () => void): () => void;
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
