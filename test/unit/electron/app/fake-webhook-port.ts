/** A WebhookPort with no sockets: tests publish events and set health by hand. */
import type { WebhookPort, WebhookPortDeps } from '../../../../electron/app/webhook-port';
import type { KickEvent } from '../../../../electron/webhooks/types';
import type { HealthView } from '../../../../shared/views';

export interface FakeWebhookPort extends WebhookPort {
  deps: WebhookPortDeps | null;
  calls: string[];
  publish(event: KickEvent): void;
  setHealth(patch: Partial<Omit<HealthView, 'mode' | 'secretStore'>>): void;
}

export function createFakeWebhookPort(history: KickEvent[] = []): FakeWebhookPort {
  const listeners = new Set<(event: KickEvent) => void>();
  const healthListeners = new Set<() => void>();
  let health: Omit<HealthView, 'mode' | 'secretStore'> = {
    tunnel: { state: 'off' },
    webhookUrl: null,
    subscriptions: [],
    lag: { samples: 0, p50Ms: null, p95Ms: null, state: 'unknown' },
    counters: { accepted: 0, duplicates: 0, rejected: 0 },
  };
  const port: FakeWebhookPort = {
    deps: null,
    calls: [],
    start: () => {
      port.calls.push('start');
      return Promise.resolve();
    },
    stop: () => {
      port.calls.push('stop');
      return Promise.resolve();
    },
    bus: {
      onAny(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    history: () => {
      port.calls.push('history');
      return Promise.resolve(history);
    },
    health: () => health,
    onHealthChange(listener) {
      healthListeners.add(listener);
      return () => healthListeners.delete(listener);
    },
    publish: (event) => listeners.forEach((listener) => listener(event)),
    setHealth(patch) {
      health = { ...health, ...patch };
      healthListeners.forEach((listener) => listener());
    },
  };
  return port;
}
