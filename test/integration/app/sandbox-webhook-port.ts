/**
 * A small but real WebhookPort for tests of the composition root: the embedded sandbox's events go
 * straight to a real event bus (skipping HTTP and signatures, which have their own tests), each parsed by
 * the receiver's own parser from the exact JSON Kick would send. What it accepts is written, in the real
 * journal's format, to the real journal's place in the data dir before it is published, and `restore()`
 * reads it back with the real journal code; it passes the same contract suite as the real port
 * (`test/helpers/webhook-port-contract.ts`).
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RestoredWebhooks, WebhookPort, WebhookPortDeps } from '../../../electron/app/webhook-port';
import { toRfc3339Seconds } from '../../../electron/core/clock';
import { createUlid } from '../../../electron/core/ids';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { createEventBus, type EventBus } from '../../../electron/webhooks/events/event-bus';
import { createFileJournal, replayJournal } from '../../../electron/webhooks/journal/journal';
import { encodeRecord, segmentName } from '../../../electron/webhooks/journal/journal-format';
import { parseKickEvent } from '../../../electron/webhooks/events/parse-event';
import type { JournalRecord, KickEvent } from '../../../electron/webhooks/events/types';

export interface SandboxWebhookPort extends WebhookPort {
  bus: EventBus;
  started: boolean;
}

export function createSandboxWebhookPort(deps: WebhookPortDeps): SandboxWebhookPort {
  const sandbox = deps.sandbox;
  if (!sandbox) {
    throw new Error('the sandbox webhook port needs the embedded sandbox (sandbox mode)');
  }
  const dir = join(deps.dataDir, 'journal');
  const bus = createEventBus({ log: deps.log });
  const healthListeners = new Set<() => void>();
  const counters = { accepted: 0, duplicates: 0, rejected: 0 };
  let unsubscribe: (() => void) | null = null;
  let restoring: Promise<RestoredWebhooks> | null = null;

  /** Synchronous, so an event is published in the same turn the sandbox emits it, as the tests expect. */
  const accept = (record: JournalRecord): void => {
    appendFileSync(join(dir, segmentName(1)), encodeRecord(record), { mode: 0o600 });
    counters.accepted++;
    bus.publish(parseKickEvent(record));
    healthListeners.forEach((listener) => listener());
  };

  const start = (): Promise<void> => {
    if (port.started) {
      return Promise.resolve();
    }
    unsubscribe = sandbox.ctx.state.onEvent((event) => {
      if (event.broadcasterUserId !== (deps.broadcasterUserId() ?? STREAMER_USER_ID)) {
        return;
      }
      const now = deps.clock.now();
      accept({
        messageId: createUlid(now),
        subscriptionId: 'sandbox-direct',
        type: event.type,
        version: String(event.version),
        timestamp: toRfc3339Seconds(now),
        receivedAtMs: now,
        bodyHash: '',
        body: JSON.stringify(event.payload),
      });
    });
    port.started = true;
    return Promise.resolve();
  };

  const restore = async (): Promise<RestoredWebhooks> => {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const journal = await createFileJournal({ dir, fsync: 'never', log: deps.log });
    const events: KickEvent[] = [];
    try {
      await replayJournal(journal, { onRecord: (record) => void events.push(parseKickEvent(record)) });
    } finally {
      await journal.close();
    }
    return { events, start };
  };

  const port: SandboxWebhookPort = {
    bus,
    started: false,
    restore: () => (restoring ??= restore()),
    stop() {
      unsubscribe?.();
      unsubscribe = null;
      port.started = false;
      return Promise.resolve();
    },
    health: () => ({
      tunnel: { state: 'off' },
      webhookUrl: null,
      subscriptions: deps.wantedEvents().map((type) => ({ type, state: 'active' as const })),
      lag: { samples: 0, p50Ms: null, p95Ms: null, state: 'unknown', delayMs: null },
      receiver: { port: null, url: null },
      counters: { ...counters },
    }),
    onHealthChange(listener) {
      healthListeners.add(listener);
      return () => healthListeners.delete(listener);
    },
  };
  return port;
}
