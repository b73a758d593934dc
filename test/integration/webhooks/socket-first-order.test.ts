/**
 * A line from Kick's live socket that comes in the same turn of the event loop as a webhook's line, through
 * the real webhook service (receiver over HTTP, journal on disk): what is shown keeps the journal's order, so a
 * restart brings chat back as it was ([design notes](../../../docs/design-notes.md#chat-from-the-live-socket-first)).
 * The receiver's end-of-turn hand-over is stepped by hand, which puts the socket line exactly between a
 * webhook's journal append and its hand-over, as a busy event loop does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../../electron/core/clock';
import type { KickEvent } from '../../../electron/webhooks/events/types';
import { createWebhookService, type WebhookService } from '../../../electron/webhooks/webhook-service';
import { KICK_EVENT_TYPES } from '../../../shared/kick/scopes';
import { buildDelivery, createTestKey, postDelivery } from '../../helpers/webhook-signing';
import { saveHeld } from './own-channel-fixtures';
import { type ChatLine, chatLinesAt, socketRecord } from './socket-line-fixtures';

const key = createTestKey();
const T0 = Date.UTC(2025, 3, 1, 20, 0, 0);

const lineOf = (event: KickEvent): string => (event.payload as { message_id: string }).message_id;

const line = chatLinesAt(T0);

describe('socket lines and webhook lines of the same turn', () => {
  let dataDir: string;
  let service: WebhookService;
  /** What the app showed, in order: the bus's events and the socket lines the test shows as the merge does. */
  let shown: string[];
  let handOvers: (() => void)[];
  let queued: () => void;

  const open = (): WebhookService =>
    createWebhookService(
      { dataDir, port: 0, tunnel: 'off', subdomain: 'unused0', wantedEvents: KICK_EVENT_TYPES, fsync: 'never' },
      {
        clock: new AdjustableClock({ now: () => T0 }),
        log: () => undefined,
        fetchPublicKey: () => Promise.resolve(key.publicKeyPem),
        handOverSchedule: (run) => {
          handOvers.push(run);
          queued();
        },
      },
    );

  /** Posts a webhook's line; resolves once it is journaled and waits for the end-of-turn hand-over. */
  const webhookLine = async (payload: ChatLine) => {
    const waiting = new Promise<void>((resolve) => (queued = resolve));
    const delivery = buildDelivery({ type: 'chat.message.sent', payload, privateKey: key.privateKey, atMs: T0 });
    const answer = postDelivery(service.receiverUrl()!, delivery);
    await waiting;
    // Wrapped: an async function returning the promise itself would wait for Kick's 200, after the hand-over.
    return { answer };
  };

  /** The socket's line, journaled and shown at once when new, as the live merge does. */
  const socketLine = (payload: ChatLine) => {
    const { record, eventKey } = socketRecord(payload, T0);
    const verdict = service.recordLive(record, eventKey);
    if (verdict === 'new') {
      shown.push(payload.message_id);
    }
    return verdict;
  };

  const endTurn = () => handOvers.splice(0).forEach((run) => run());

  const restoredAfterRestart = async (): Promise<string[]> => {
    await service.stop();
    service = open();
    return (await service.restore()).events.map(lineOf);
  };

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'greenroom-socket-order-'));
    saveHeld(dataDir);
    shown = [];
    handOvers = [];
    queued = () => undefined;
    service = open();
    service.bus.onAny((event) => void shown.push(lineOf(event)));
    await (await service.restore()).start();
  });

  afterEach(async () => {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("shows the webhook's line first when the socket's comes after its journal append, and restores that order", async () => {
    const { answer } = await webhookLine(line('aaaaaaaa-0000-4000-8000-000000000001', 'from the webhook'));
    expect(socketLine(line('aaaaaaaa-0000-4000-8000-000000000002', 'from the socket'))).toBe('new');
    endTurn();
    expect((await answer).status).toBe(200);
    expect(shown).toEqual(['aaaaaaaa-0000-4000-8000-000000000001', 'aaaaaaaa-0000-4000-8000-000000000002']);
    expect(await restoredAfterRestart()).toEqual(shown);
  });

  it("drops the socket's copy of a line its webhook journaled this turn, and keeps the next line after it", async () => {
    const both = line('bbbbbbbb-0000-4000-8000-000000000001', 'on both paths');
    const { answer } = await webhookLine(both);
    expect(socketLine(both)).toBe('duplicate');
    expect(socketLine(line('bbbbbbbb-0000-4000-8000-000000000002', 'next'))).toBe('new');
    expect(socketLine(line('bbbbbbbb-0000-4000-8000-000000000003', 'and the next'))).toBe('new');
    endTurn();
    expect((await answer).status).toBe(200);
    expect(shown).toEqual([
      'bbbbbbbb-0000-4000-8000-000000000001',
      'bbbbbbbb-0000-4000-8000-000000000002',
      'bbbbbbbb-0000-4000-8000-000000000003',
    ]);
    expect(await restoredAfterRestart()).toEqual(shown);
  });

  it('counts a line the socket brought first as received, and its webhook as a repeat (Health)', async () => {
    const notified: number[] = [];
    service.onHealthChange(() => notified.push(service.health().counters.fromLiveSocket ?? -1));
    const first = line('cccccccc-0000-4000-8000-000000000001', 'socket first');
    expect(socketLine(first)).toBe('new');
    // Health hears of the socket's line when it is kept, before any webhook says anything.
    expect(notified).toContain(1);
    endTurn();
    // Its webhook comes later: a copy, answered and dropped.
    const copy = buildDelivery({ type: 'chat.message.sent', payload: first, privateKey: key.privateKey, atMs: T0 });
    expect((await postDelivery(service.receiverUrl()!, copy)).status).toBe(200);
    // A line whose webhook came first: the socket's copy is no new event.
    const { answer } = await webhookLine(line('cccccccc-0000-4000-8000-000000000002', 'webhook first'));
    expect(socketLine(line('cccccccc-0000-4000-8000-000000000002', 'webhook first'))).toBe('duplicate');
    endTurn();
    expect((await answer).status).toBe(200);
    // Greenroom's own records journaled the same way (an ad break it ran, a late mark) are no chat from the socket.
    const { record } = socketRecord(line('cccccccc-0000-4000-8000-000000000003', 'not a line'), T0);
    const own = { ...record, messageId: 'greenroom:ad-1', subscriptionId: 'greenroom', type: 'greenroom.ad-break' };
    expect(service.recordLive(own, 'greenroom.ad-break:1')).toBe('new');
    expect(service.health().counters).toMatchObject({ accepted: 1, duplicates: 1, fromLiveSocket: 1 });
  });

  it('stops counting a socket line once its signed copy, in other words, takes its place', async () => {
    const first = line('dddddddd-0000-4000-8000-000000000001', 'as the socket read it');
    expect(socketLine(first)).toBe('new');
    endTurn();
    expect(service.health().counters).toMatchObject({ accepted: 0, fromLiveSocket: 1 });
    // Kick's signed copy says other words: it is the record now, and the receiver counts it as received.
    const { answer } = await webhookLine({ ...first, content: 'as Kick signed it' });
    endTurn();
    expect((await answer).status).toBe(200);
    expect(service.health().counters).toMatchObject({ accepted: 1, fromLiveSocket: 0 });
  });

  it('keeps counting this run’s socket lines when a signed copy replaces a line from before a restart', async () => {
    const before = line('eeeeeeee-0000-4000-8000-000000000001', 'as the socket read it before the restart');
    expect(socketLine(before)).toBe('new');
    endTurn();
    await service.stop();
    service = open();
    await (await service.restore()).start();
    expect(service.health().counters).toMatchObject({ accepted: 0, fromLiveSocket: 0 });
    expect(socketLine(line('eeeeeeee-0000-4000-8000-000000000002', 'this run'))).toBe('new');
    endTurn();
    // The signed copy of the line from before the restart, in other words: received now, and this run's line still is.
    const { answer } = await webhookLine({ ...before, content: 'as Kick signed it' });
    endTurn();
    expect((await answer).status).toBe(200);
    expect(service.health().counters).toMatchObject({ accepted: 1, fromLiveSocket: 1 });
  });
});
