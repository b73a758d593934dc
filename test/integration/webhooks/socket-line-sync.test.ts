/**
 * Lines from Kick's live socket share their journal sync, through the real webhook service (receiver over HTTP,
 * journal on disk with `fdatasync`): no answer waits on a socket line, so it waits for the lines after it, and
 * the webhook copy of such a line is answered 200 only once the line is durable, as every 200 is
 * ([decisions](../../../docs/decisions.md#socket-lines-wait-for-company)).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../../electron/core/clock';
import { createWebhookService, type WebhookService } from '../../../electron/webhooks/webhook-service';
import { KICK_EVENT_TYPES } from '../../../shared/kick/scopes';
import { ManualScheduler } from '../../helpers/manual-scheduler';
import { buildDelivery, createTestKey, postDelivery } from '../../helpers/webhook-signing';
import { saveHeld } from './own-channel-fixtures';
import { chatLinesAt, socketRecord } from './socket-line-fixtures';

const key = createTestKey();
const T0 = Date.UTC(2025, 3, 1, 20, 0, 0);

const chatLine = chatLinesAt(T0);
const line = (n: number) => chatLine(`dddddddd-0000-4000-8000-00000000000${n}`, `line ${n}`);

describe('socket lines and the journal sync', () => {
  let dataDir: string;
  let service: WebhookService;
  let journalTimer: ManualScheduler;

  const open = (): WebhookService =>
    createWebhookService(
      { dataDir, port: 0, tunnel: 'off', subdomain: 'unused0', wantedEvents: KICK_EVENT_TYPES, fsync: 'batch' },
      {
        clock: new AdjustableClock({ now: () => T0 }),
        log: () => undefined,
        fetchPublicKey: () => Promise.resolve(key.publicKeyPem),
        journalTimer: journalTimer.setTimer,
      },
    );

  const socketLine = (n: number): void => {
    const { record, eventKey } = socketRecord(line(n), T0);
    expect(service.recordLive(record, eventKey)).toBe('new');
  };

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'greenroom-socket-sync-'));
    saveHeld(dataDir);
    journalTimer = new ManualScheduler();
    service = open();
    await (await service.restore()).start();
  });

  afterEach(async () => {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers a socket line's webhook copy once the line is written, and the lines share one write", async () => {
    const written: string[] = [];
    service.journal.onAppended((record) => void written.push(record.messageId));
    socketLine(1);
    socketLine(2);
    const copy = buildDelivery({ type: 'chat.message.sent', payload: line(1), privateKey: key.privateKey, atMs: T0 });
    const answer = postDelivery(service.receiverUrl()!, copy);
    // The copy is a repeat of a line not yet durable: its 200 waits for the write, which waits for company.
    const early = await Promise.race([answer, new Promise((resolve) => setTimeout(() => resolve('waiting'), 300))]);
    expect(early).toBe('waiting');
    expect(written).toEqual([]);
    journalTimer.fireOnly();
    expect((await answer).status).toBe(200);
    expect(written).toEqual([`live-socket:${line(1).message_id}`, `live-socket:${line(2).message_id}`]);
    expect(service.health().counters).toMatchObject({ accepted: 0, duplicates: 1, fromLiveSocket: 2 });
  });

  it("ends the wait when a webhook comes, so the copy is answered without the line's timer", async () => {
    const written: string[] = [];
    service.journal.onAppended((record) => void written.push(record.messageId));
    socketLine(1);
    expect(journalTimer.pending.size).toBe(1);
    const copy = buildDelivery({ type: 'chat.message.sent', payload: line(1), privateKey: key.privateKey, atMs: T0 });
    const copyAnswer = postDelivery(service.receiverUrl()!, copy);
    const other = buildDelivery({ type: 'chat.message.sent', payload: line(5), privateKey: key.privateKey, atMs: T0 });
    expect((await postDelivery(service.receiverUrl()!, other)).status).toBe(200);
    expect((await copyAnswer).status).toBe(200);
    expect(journalTimer.pending.size).toBe(0);
    expect(written).toEqual([`live-socket:${line(1).message_id}`, other.messageId]);
  });

  it("writes Greenroom's own records at once: nothing would bring them again", async () => {
    const { record } = socketRecord(line(3), T0);
    const own = { ...record, messageId: 'greenroom:raid-1', subscriptionId: 'greenroom', type: 'greenroom.raid' };
    const written: string[] = [];
    service.journal.onAppended((appended) => void written.push(appended.messageId));
    expect(service.recordLive(own, 'greenroom.raid:1')).toBe('new');
    expect(journalTimer.pending.size).toBe(0);
    await expect.poll(() => written, { timeout: 5_000 }).toEqual(['greenroom:raid-1']);
  });

  it('writes waiting socket lines when the service stops, so a restart has them', async () => {
    socketLine(1);
    await service.stop();
    expect(journalTimer.pending.size).toBe(0);
    service = open();
    const restored = await service.restore();
    expect(restored.events.map((event) => (event.payload as { message_id: string }).message_id)).toEqual([
      line(1).message_id,
    ]);
  });
});
