/**
 * Nothing lost, nothing wrongly dropped, over real HTTP: a duplicate that arrives while the original's
 * journal write is pending gets that write's outcome (both 500 when it fails, so Kick retries both, and the
 * event shown while the write was on its way is not shown again), and
 * identical bodies a minute apart (a title set back A → B → A, a re-follow) reach the feed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../../electron/core/clock';
import { toFeedItem } from '../../../electron/services/event-views';
import { Feed } from '../../../electron/services/feed';
import { type Claim, createDeliveryDedup, type DeliveryDedup } from '../../../electron/webhooks/dedup/dedup';
import { createPublicKeyCache } from '../../../electron/webhooks/receive/public-key-cache';
import { createWebhookReceiver } from '../../../electron/webhooks/receive/receiver';
import type { EventJournal, KickEvent } from '../../../electron/webhooks/events/types';
import { createWebhookService, type WebhookService } from '../../../electron/webhooks/webhook-service';
import { KICK_EVENT_TYPES } from '../../../shared/kick/scopes';
import { MemoryJournal } from '../../helpers/memory-journal';
import { listedGate, saveHeld } from './own-channel-fixtures';
import { buildDelivery, createTestKey, postDelivery, samplePayloads } from '../../helpers/webhook-signing';

const key = createTestKey();
const T0 = Date.UTC(2025, 3, 1, 20, 0, 0);
const payloads = samplePayloads(T0);
const cleanup: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) {
    await step();
  }
});

describe('a duplicate during a failing journal write', () => {
  it('waits for the original and is answered 500 with it, so Kick retries both; then exactly one is kept', async () => {
    const clock = new AdjustableClock({ now: () => T0 });
    const kept = new MemoryJournal();
    let writeStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (writeStarted = resolve));
    let failWrite: () => void = () => undefined;
    const failing = new Promise<void>((resolve) => (failWrite = resolve));
    let failNext = true;
    const journal: EventJournal = {
      append: async (record) => {
        if (!failNext) {
          return kept.append(record);
        }
        failNext = false;
        writeStarted();
        await failing;
        throw new Error('ENOSPC: no space left on device (simulated)');
      },
      readAll: () => kept.readAll(),
      close: () => kept.close(),
    };
    // The real dedup, watched, so the test releases the write only once both copies are waiting on it.
    const real = createDeliveryDedup();
    const verdicts: Claim['verdict'][] = [];
    let bothWaiting: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => (bothWaiting = resolve));
    const dedup: DeliveryDedup = {
      ...real,
      claim(...args) {
        const claim = real.claim(...args);
        verdicts.push(claim.verdict);
        if (verdicts.filter((v) => v === 'pending').length === 2) {
          bothWaiting();
        }
        return claim;
      },
    };
    const events: KickEvent[] = [];
    const receiver = createWebhookReceiver({
      port: 0,
      clock,
      publicKey: createPublicKeyCache({ clock, fetchPublicKey: () => Promise.resolve(key.publicKeyPem) }),
      journal,
      dedup,
      gate: listedGate(),
      onEvent: (event) => void events.push(event),
      log: () => undefined,
    });
    const { url } = await receiver.start();
    cleanup.push(() => receiver.stop());

    const payload = { ...payloads['channel.followed'], n: 1 };
    const original = buildDelivery({ type: 'channel.followed', payload, privateKey: key.privateKey, atMs: T0 });
    // Kick's repeat of the same message, and the same payload from a duplicate subscription.
    const sameId = buildDelivery({
      type: 'channel.followed',
      payload,
      privateKey: key.privateKey,
      atMs: T0,
      messageId: original.messageId,
    });
    const twin = buildDelivery({ type: 'channel.followed', payload, privateKey: key.privateKey, atMs: T0 });
    const first = postDelivery(url, original);
    await started;
    const copies = [postDelivery(url, sameId), postDelivery(url, twin)];
    await waiting;
    failWrite();
    const answers = await Promise.all([first, ...copies]);
    expect(answers.map((a) => a.status)).toEqual([500, 500, 500]);
    // Shown while its write was on its way (docs/decisions.md), once, though all three were refused.
    expect(events).toHaveLength(1);

    // Kick retries all three: one is journaled, the others are its duplicates, and none is shown again.
    const retries = await Promise.all([original, sameId, twin].map((d) => postDelivery(url, d)));
    expect(retries.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(kept.records).toHaveLength(1);
    expect(events).toHaveLength(1);
    expect(receiver.counters).toMatchObject({ accepted: 1, duplicates: 2 });
  });
});

describe('identical bodies minutes apart are real repeats', () => {
  async function startService(): Promise<{ service: WebhookService; clock: AdjustableClock; feed: Feed }> {
    const dataDir = mkdtempSync(join(tmpdir(), 'greenroom-repeats-'));
    saveHeld(dataDir);
    cleanup.push(() => Promise.resolve(rmSync(dataDir, { recursive: true, force: true })));
    const clock = new AdjustableClock({ now: () => T0 });
    const service = createWebhookService(
      { dataDir, port: 0, tunnel: 'off', subdomain: 'unused0', wantedEvents: KICK_EVENT_TYPES, fsync: 'never' },
      { clock, log: () => undefined, fetchPublicKey: () => Promise.resolve(key.publicKeyPem) },
    );
    cleanup.push(() => service.stop());
    // The app's feed, fed as create-app feeds it.
    const feed = new Feed();
    service.bus.onAny((event) => void feed.upsert(toFeedItem(event)));
    await (await service.restore()).start();
    return { service, clock, feed };
  }

  async function deliver(service: WebhookService, type: string, payload: unknown, atMs: number): Promise<void> {
    const answer = await postDelivery(
      service.receiverUrl()!,
      buildDelivery({ type, payload, privateKey: key.privateKey, atMs }),
    );
    expect(answer.status, answer.text).toBe(200);
  }

  it('a title set A → B → A, a minute apart each, ends on A in the feed', async () => {
    const { service, clock, feed } = await startService();
    const base = payloads['livestream.metadata.updated'];
    const titled = (title: string) => ({ ...base, metadata: { ...base.metadata, title } });
    for (const title of ['Chill Sunday', 'Ranked grind', 'Chill Sunday']) {
      await deliver(service, 'livestream.metadata.updated', titled(title), clock.now());
      clock.advance(60_000);
    }
    await service.bus.idle();
    expect(feed.items().map((item) => item.text)).toEqual([
      expect.stringContaining('Chill Sunday'),
      expect.stringContaining('Ranked grind'),
      expect.stringContaining('Chill Sunday'),
    ]);
    expect(service.health().counters).toMatchObject({ accepted: 3, duplicates: 0 });
  });

  it('a viewer who unfollows and follows again an hour later shows up twice', async () => {
    const { service, clock, feed } = await startService();
    await deliver(service, 'channel.followed', payloads['channel.followed'], clock.now());
    clock.advance(3_600_000);
    await deliver(service, 'channel.followed', payloads['channel.followed'], clock.now());
    await service.bus.idle();
    expect(feed.items().filter((item) => item.kind === 'follow')).toHaveLength(2);
  });
});
