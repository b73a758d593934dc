/**
 * Delivery lag as Kick causes it: an event held in Kick's queue is sent with a fresh
 * `Kick-Event-Message-Timestamp` and its old `created_at` ([reference §5.5](../../../docs/kick-wire-reference.md#55-expected-response-and-retries), Lateness), through the
 * real webhook service, and health must show the delay the streamer's chat is behind by.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdjustableClock, toRfc3339 } from '../../../electron/core/clock';
import { createWebhookService, type WebhookService } from '../../../electron/webhooks/webhook-service';
import { KICK_EVENT_TYPES } from '../../../shared/kick/scopes';
import { buildDelivery, createTestKey, postDelivery, samplePayloads } from '../../helpers/webhook-signing';
import { saveHeld } from './own-channel-fixtures';

const key = createTestKey();
const T0 = Date.UTC(2025, 3, 1, 20, 0, 0);
const payloads = samplePayloads(T0);

describe('delivery lag through the webhook service', () => {
  let dataDir: string;
  let clock: AdjustableClock;
  let service: WebhookService;

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'greenroom-lag-'));
    saveHeld(dataDir);
    clock = new AdjustableClock({ now: () => T0 });
    service = createWebhookService(
      { dataDir, port: 0, tunnel: 'off', subdomain: 'unused0', wantedEvents: KICK_EVENT_TYPES, fsync: 'never' },
      { clock, log: () => undefined, fetchPublicKey: () => Promise.resolve(key.publicKeyPem) },
    );
    await (await service.restore()).start();
  });
  afterEach(async () => {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function deliver(type: string, payload: unknown): Promise<void> {
    const delivery = buildDelivery({ type, payload, privateKey: key.privateKey, atMs: clock.now() });
    expect((await postDelivery(service.receiverUrl()!, delivery)).status).toBe(200);
  }

  it('a late delivery (old created_at, fresh send time) shows its lag, and the banner figure', async () => {
    expect(service.health().lag).toMatchObject({ samples: 0, state: 'unknown', delayMs: null });
    for (let i = 0; i < 3; i++) {
      const createdAt = toRfc3339(clock.now() - 10 * 60_000);
      await deliver('chat.message.sent', {
        ...payloads['chat.message.sent'],
        message_id: `late-${i}`,
        created_at: createdAt,
      });
      // Follows carry no time of their own; their near-zero send-time gap must not hide the delay.
      await deliver('channel.followed', { ...payloads['channel.followed'], n: i });
    }
    expect(service.health().lag).toMatchObject({
      samples: 3,
      p50Ms: 600_000,
      state: 'delayed',
      delayMs: 600_000,
    });
  });

  it('on-time chat reads as normal', async () => {
    await deliver('chat.message.sent', { ...payloads['chat.message.sent'], created_at: toRfc3339(clock.now() - 800) });
    expect(service.health().lag).toMatchObject({ samples: 1, p50Ms: 800, state: 'normal', delayMs: null });
  });
});
