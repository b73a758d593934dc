/**
 * A WebhookPort with no sockets: tests publish events and set health by hand. It keeps what it accepted
 * in a small file in the data dir, as the real port keeps its journal, so a second instance on the same
 * dir restores exactly that and nothing else; it passes the same contract suite as the real port
 * (`test/helpers/webhook-port-contract.ts`).
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WebhookPort, WebhookPortDeps } from '../../../../electron/app/webhook-port';
import type { KickEvent } from '../../../../electron/webhooks/events/types';
import type { HealthView } from '../../../../shared/views';

export interface FakeWebhookPort extends WebhookPort {
  deps: WebhookPortDeps | null;
  /** 'restore', 'start' and 'stop', in the order they happened. */
  calls: string[];
  /** Accepts one event as the real side would: kept in the data dir, then published. Only once started. */
  publish(event: KickEvent): void;
  setHealth(patch: Partial<Omit<HealthView, 'mode' | 'secretStore'>>): void;
  /** Bus and health listeners still registered. */
  listenerCount(): number;
}

const JOURNAL = 'fake-webhook-journal.jsonl';

/** A fake port on `dataDir`; it restores what earlier fakes on the same dir accepted. */
export function createFakeWebhookPort(dataDir: string): FakeWebhookPort {
  const journal = join(dataDir, JOURNAL);
  const listeners = new Set<(event: KickEvent) => void>();
  const healthListeners = new Set<() => void>();
  let started = false;
  let health: Omit<HealthView, 'mode' | 'secretStore'> = {
    tunnel: { state: 'off' },
    webhookUrl: null,
    subscriptions: [],
    lag: { samples: 0, p50Ms: null, p95Ms: null, state: 'unknown', delayMs: null },
    receiver: { port: null, url: null },
    counters: { accepted: 0, duplicates: 0, rejected: 0 },
  };
  const read = (): KickEvent[] =>
    existsSync(journal)
      ? readFileSync(journal, 'utf8')
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as KickEvent)
      : [];
  let restoring: ReturnType<WebhookPort['restore']> | null = null;
  const port: FakeWebhookPort = {
    deps: null,
    calls: [],
    restore() {
      if (!restoring) {
        port.calls.push('restore');
        restoring = Promise.resolve({
          events: read(),
          start: () => {
            if (!started) {
              started = true;
              port.calls.push('start');
            }
            return Promise.resolve();
          },
        });
      }
      return restoring;
    },
    stop: () => {
      started = false;
      port.calls.push('stop');
      return Promise.resolve();
    },
    bus: {
      onAny(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    health: () => health,
    onHealthChange(listener) {
      healthListeners.add(listener);
      return () => healthListeners.delete(listener);
    },
    publish(event) {
      if (!started) {
        throw new Error('fake webhook port: publish before start (nothing is listening yet)');
      }
      appendFileSync(journal, `${JSON.stringify(event)}\n`);
      health = { ...health, counters: { ...health.counters, accepted: health.counters.accepted + 1 } };
      listeners.forEach((listener) => listener(event));
    },
    listenerCount: () => listeners.size + healthListeners.size,
    setHealth(patch) {
      health = { ...health, ...patch };
      healthListeners.forEach((listener) => listener());
    },
  };
  return port;
}

/** Leaves `events` in `dataDir` as an earlier run of the app would have: accepted by a fake that then stopped. */
export async function seedFakeWebhookJournal(dataDir: string, events: KickEvent[]): Promise<void> {
  const earlier = createFakeWebhookPort(dataDir);
  await (await earlier.restore()).start();
  events.forEach((event) => earlier.publish(event));
  await earlier.stop();
}
