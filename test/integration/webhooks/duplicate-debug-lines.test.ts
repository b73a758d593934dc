/**
 * A duplicate delivery costs no log line unless debug lines are read, over real HTTP through the webhook
 * service: in a chat storm every line comes twice (the live socket first, then its webhook), and the line built
 * and written per copy cost about as much as the copy's other work
 * ([decisions](../../../docs/decisions.md#a-debug-line-is-built-only-when-read)). Each kind of copy the receiver
 * recognises is sent: Kick's resend (same message id), the live socket's line coming back as a webhook (same
 * event id), a duplicate subscription's copy (same body), and a resend of a copy.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../../electron/core/clock';
import { hashBody } from '../../../electron/webhooks/dedup/dedup';
import { eventKeyOf } from '../../../electron/webhooks/events/event-key';
import { createWebhookService, type WebhookService } from '../../../electron/webhooks/webhook-service';
import { KICK_EVENT_TYPES } from '../../../shared/kick/scopes';
import { saveHeld } from './own-channel-fixtures';
import {
  buildDelivery,
  createTestKey,
  postDelivery,
  samplePayloads,
  type TestDelivery,
} from '../../helpers/webhook-signing';

const key = createTestKey();
const T0 = Date.UTC(2025, 3, 1, 20, 0, 0);
const payloads = samplePayloads(T0);
const cleanup: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) {
    await step();
  }
});

async function startService(debugLog?: () => boolean): Promise<{ service: WebhookService; lines: string[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'greenroom-debug-lines-'));
  saveHeld(dataDir);
  cleanup.push(() => Promise.resolve(rmSync(dataDir, { recursive: true, force: true })));
  const lines: string[] = [];
  const service = createWebhookService(
    { dataDir, port: 0, tunnel: 'off', subdomain: 'unused0', wantedEvents: KICK_EVENT_TYPES, fsync: 'never' },
    {
      clock: new AdjustableClock({ now: () => T0 }),
      log: (line) => lines.push(line),
      fetchPublicKey: () => Promise.resolve(key.publicKeyPem),
      ...(debugLog ? { debugLog } : {}),
    },
  );
  cleanup.push(() => service.stop());
  await (await service.restore()).start();
  return { service, lines };
}

async function post(service: WebhookService, delivery: TestDelivery): Promise<void> {
  const answer = await postDelivery(service.receiverUrl()!, delivery);
  expect(answer.status, answer.text).toBe(200);
}

/** Sends one of each kind of copy after its original; resolves with how many copies were sent. */
async function sendCopies(service: WebhookService): Promise<number> {
  const chat = { ...payloads['chat.message.sent'], message_id: 'a7c1e0d2-5b3f-4e8a-9c6d-1f2e3a4b5c6d' };
  const sign = (type: string, payload: unknown, messageId?: string): TestDelivery =>
    buildDelivery({ type, payload, privateKey: key.privateKey, atMs: T0, ...(messageId ? { messageId } : {}) });

  // The live socket brings the chat line first; its webhook follows and is a copy by the event's own id.
  const fromSocket = sign('chat.message.sent', chat);
  const record = {
    messageId: 'live-socket-line-1',
    subscriptionId: 'live-socket',
    type: 'chat.message.sent',
    version: '1',
    timestamp: fromSocket.timestamp,
    receivedAtMs: T0,
    bodyHash: hashBody(fromSocket.body),
    body: fromSocket.body.toString('utf8'),
  };
  expect(service.recordLive(record, eventKeyOf('chat.message.sent', chat)!)).toBe('new');
  await post(service, fromSocket);
  // Kick's resend of that webhook: a copy again (its id was never kept, the event's was).
  await post(service, sign('chat.message.sent', chat, fromSocket.messageId));
  // A follow, then a duplicate subscription's copy of it (same body, its own message id).
  const follow = sign('channel.followed', payloads['channel.followed']);
  await post(service, follow);
  await post(service, sign('channel.followed', payloads['channel.followed']));
  // And Kick's resend of the follow.
  await post(service, sign('channel.followed', payloads['channel.followed'], follow.messageId));
  return 4;
}

describe('a duplicate delivery and the log', () => {
  it('writes no line for any kind of copy while debug lines are not read (the default)', async () => {
    const { service, lines } = await startService();
    const copies = await sendCopies(service);
    expect(service.health().counters).toMatchObject({ accepted: 1, duplicates: copies });
    expect(lines.filter((line) => line.includes('duplicate'))).toEqual([]);
  });

  it('writes one line per copy, naming why, when debug lines are read', async () => {
    const { service, lines } = await startService(() => true);
    const copies = await sendCopies(service);
    const said = lines.filter((line) => line.startsWith('webhooks: debug: webhook duplicate'));
    expect(said).toHaveLength(copies);
    // By what it was known ('event' while the original's write is still pending, 'duplicate-event' after).
    const by = said.map((line) => /"by":"(?:duplicate-)?([a-z]+)"/.exec(line)?.[1]);
    expect(by).toEqual(['event', 'event', 'body', 'id']);
  });
});
