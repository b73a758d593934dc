/**
 * What the receiver.test files share: their fixtures and helpers.
 */
import { afterEach, expect } from 'vitest';
import { AdjustableClock } from '../../../electron/core/clock';
import { createDeliveryDedup } from '../../../electron/webhooks/dedup/dedup';
import { createPublicKeyCache } from '../../../electron/webhooks/receive/public-key-cache';
import { createWebhookReceiver, type WebhookReceiverDeps } from '../../../electron/webhooks/receive/receiver';
import type { JournalRecord, KickEvent } from '../../../electron/webhooks/events/types';
import { MemoryJournal } from '../../helpers/memory-journal';
import { listedGate } from './own-channel-fixtures';
import { buildDelivery, createTestKey, samplePayloads, type TestDelivery } from '../../helpers/webhook-signing';

export const key = createTestKey();
export const otherKey = createTestKey();
export const T0 = Date.UTC(2025, 3, 1, 7, 56, 19);
export const payloads = samplePayloads(T0);

export interface LogLine {
  level: string;
  message: string;
  fields: Record<string, unknown>;
}

export interface Harness {
  url: string;
  clock: AdjustableClock;
  journal: MemoryJournal;
  events: KickEvent[];
  accepted: JournalRecord[];
  logs: LogLine[];
  keyFetches: () => number;
  receiver: ReturnType<typeof createWebhookReceiver>;
  /** A signed follow delivery with a fresh id, stamped at the clock's now. */
  delivery(overrides?: Partial<Parameters<typeof buildDelivery>[0]>): TestDelivery;
}

export const running: { stop(): Promise<void> }[] = [];

export async function startReceiver(
  options: { pems?: (() => Promise<string>)[]; deps?: Partial<WebhookReceiverDeps> } = {},
): Promise<Harness> {
  const clock = new AdjustableClock({ now: () => T0 });
  const journal = new MemoryJournal();
  const events: KickEvent[] = [];
  const accepted: JournalRecord[] = [];
  const logs: LogLine[] = [];
  let fetches = 0;
  const pems = options.pems ?? [() => Promise.resolve(key.publicKeyPem)];
  const receiver = createWebhookReceiver({
    port: 0,
    clock,
    publicKey: createPublicKeyCache({
      clock,
      fetchPublicKey: () => pems[Math.min(fetches++, pems.length - 1)]!(),
    }),
    journal,
    dedup: createDeliveryDedup(),
    gate: listedGate(),
    onEvent: (event) => events.push(event),
    onAccepted: (record) => accepted.push(record),
    log: (level, message, fields) => logs.push({ level, message, fields }),
    ...options.deps,
  });
  const { url } = await receiver.start();
  running.push(receiver);
  return {
    url,
    clock,
    journal,
    events,
    accepted,
    logs,
    keyFetches: () => fetches,
    receiver,
    delivery: (overrides = {}) =>
      buildDelivery({
        type: 'channel.followed',
        payload: { ...payloads['channel.followed'], n: Math.random() },
        privateKey: key.privateKey,
        atMs: clock.now(),
        ...overrides,
      }),
  };
}

/** Posts and expects a rejection with this status and code; returns the parsed answer. */
export async function expectRejected(
  h: Harness,
  send: Promise<{ status: number; text: string; headers: Record<string, unknown> }>,
  status: number,
  code: string,
): Promise<{ error: string; message: string }> {
  const before = h.receiver.counters.rejectedByCode[code] ?? 0;
  const res = await send;
  expect(res.status, res.text).toBe(status);
  const answer = JSON.parse(res.text) as { error: string; message: string };
  expect(answer.error).toBe(code);
  expect(h.receiver.counters.rejectedByCode[code]).toBe(before + 1);
  const line = h.logs.at(-1)!;
  expect(line.message).toBe('webhook rejected');
  expect(line.fields).toMatchObject({ code, status, reason: answer.message });
  return answer;
}

export function withHeader(delivery: TestDelivery, name: string, value: string | undefined): Record<string, string> {
  const headers = { ...delivery.headers };
  if (value === undefined) {
    delete headers[name];
  } else {
    headers[name] = value;
  }
  return headers;
}

/** The hooks every file of this group runs around each test. */
export function useSetup(): void {
  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.stop()));
  });
}
