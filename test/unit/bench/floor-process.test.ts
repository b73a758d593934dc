import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { drive } from '../../../bench/lib/ingest-drive';
import { type FloorProcess, startFloorProcess } from '../../../bench/lib/side-process';
import { buildDelivery, createTestKey, samplePayloads } from '../../helpers/webhook-signing';

/**
 * The floors `webhook-ingest` compares the app with (bench/lib/side-process.ts) must do what their
 * figures claim: the durable floor keeps every delivery it answers 200 in its journal, and both floors
 * refuse a delivery whose signature does not verify.
 */
const key = createTestKey();
const chat = samplePayloads()['chat.message.sent'];
let floor: FloorProcess | null = null;
let dir = '';

afterEach(async () => {
  await floor?.close();
  floor = null;
  rmSync(dir, { recursive: true, force: true });
});

async function start(): Promise<{ floor: FloorProcess; journal: string }> {
  dir = mkdtempSync(join(tmpdir(), 'greenroom-floor-test-'));
  const journal = join(dir, 'journal.jsonl');
  floor = await startFloorProcess(key.publicKeyPem, journal);
  return { floor, journal };
}

const deliveries = (count: number) =>
  Array.from({ length: count }, (_, i) =>
    buildDelivery({
      type: 'chat.message.sent',
      payload: { ...chat, message_id: `floor-${i}` },
      messageId: `01FLOORTEST${String(i).padStart(8, '0')}`,
      privateKey: key.privateKey,
    }),
  );

describe('the durable floor', () => {
  it('journals every delivery it accepts, one line each, before the last answer', async () => {
    const { floor, journal } = await start();
    await drive(floor.durableUrl, deliveries(100));
    const lines = readFileSync(journal, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(100);
    const ids = lines.map((line) => (JSON.parse(line) as { event: { message_id: string } }).event.message_id);
    expect(new Set(ids).size).toBe(100);
  });

  it.each(['floorUrl', 'durableUrl'] as const)('%s refuses a delivery signed by another key', async (which) => {
    const { floor, journal } = await start();
    const forged = buildDelivery({ type: 'chat.message.sent', payload: chat, privateKey: createTestKey().privateKey });
    await expect(drive(floor[which], [forged])).rejects.toThrow(/answered 400/);
    expect(readFileSync(journal, 'utf8')).toBe('');
  });
});
