/**
 * A small but real WebhookPort for tests of the composition root: the embedded sandbox's events go
 * straight to a real event bus (skipping HTTP, signatures and the journal, which have their own tests),
 * each parsed by the receiver's own parser from the exact JSON Kick would send.
 */
import type { WebhookPort, WebhookPortDeps } from '../../../electron/app/webhook-port';
import { toRfc3339Seconds } from '../../../electron/core/clock';
import { createUlid } from '../../../electron/core/ids';
import { STREAMER_USER_ID } from '../../../electron/sandbox/world';
import { createEventBus, type EventBus } from '../../../electron/webhooks/event-bus';
import { parseKickEvent } from '../../../electron/webhooks/parse-event';
import type { KickEvent } from '../../../electron/webhooks/types';

export interface SandboxWebhookPort extends WebhookPort {
  bus: EventBus;
  started: boolean;
}

export function createSandboxWebhookPort(deps: WebhookPortDeps, history: KickEvent[] = []): SandboxWebhookPort {
  const sandbox = deps.sandbox;
  if (!sandbox) {
    throw new Error('the sandbox webhook port needs the embedded sandbox (sandbox mode)');
  }
  const bus = createEventBus({ log: deps.log });
  const healthListeners = new Set<() => void>();
  const counters = { accepted: 0, duplicates: 0, rejected: 0 };
  let unsubscribe: (() => void) | null = null;

  const port: SandboxWebhookPort = {
    bus,
    started: false,
    start() {
      unsubscribe = sandbox.ctx.state.onEvent((event) => {
        if (event.broadcasterUserId !== (deps.broadcasterUserId() ?? STREAMER_USER_ID)) {
          return;
        }
        const now = deps.clock.now();
        const parsed = parseKickEvent({
          messageId: createUlid(now),
          subscriptionId: 'sandbox-direct',
          type: event.type,
          version: String(event.version),
          timestamp: toRfc3339Seconds(now),
          receivedAtMs: now,
          bodyHash: '',
          body: JSON.stringify(event.payload),
        });
        counters.accepted++;
        bus.publish(parsed);
        healthListeners.forEach((listener) => listener());
      });
      port.started = true;
      return Promise.resolve();
    },
    stop() {
      unsubscribe?.();
      port.started = false;
      return Promise.resolve();
    },
    history: () => Promise.resolve([...history]),
    health: () => ({
      tunnel: { state: 'off' },
      webhookUrl: null,
      subscriptions: deps.wantedEvents().map((type) => ({ type, state: 'active' as const })),
      lag: { samples: 0, p50Ms: null, p95Ms: null, state: 'unknown' },
      counters: { ...counters },
    }),
    onHealthChange(listener) {
      healthListeners.add(listener);
      return () => healthListeners.delete(listener);
    },
  };
  return port;
}
