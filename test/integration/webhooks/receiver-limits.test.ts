/**
 * The receiver's limits on slow senders over real HTTP: headers and body each get a few seconds (shortened
 * here to a fraction of a second), and past too many unfinished bodies the oldest is cut, so none of them
 * can hold a tunnel socket for long. Waits are on the sockets' own events.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../../electron/core/clock';
import { createDeliveryDedup } from '../../../electron/webhooks/dedup/dedup';
import { createPublicKeyCache } from '../../../electron/webhooks/receive/public-key-cache';
import { createWebhookReceiver, type WebhookReceiverDeps } from '../../../electron/webhooks/receive/receiver';
import { MemoryJournal } from '../../helpers/memory-journal';
import { listedGate } from './own-channel-fixtures';
import { buildDelivery, createTestKey, postDelivery, samplePayloads } from '../../helpers/webhook-signing';

const key = createTestKey();
const T0 = Date.UTC(2025, 3, 1, 20, 0, 0);
const follow = samplePayloads(T0)['channel.followed'];
const running: { stop(): Promise<void> }[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  sockets.splice(0).forEach((socket) => socket.destroy());
  await Promise.all(running.splice(0).map((r) => r.stop()));
});

async function startReceiver(extra: Partial<WebhookReceiverDeps>) {
  const clock = new AdjustableClock({ now: () => T0 });
  const receiver = createWebhookReceiver({
    port: 0,
    clock,
    publicKey: createPublicKeyCache({ clock, fetchPublicKey: () => Promise.resolve(key.publicKeyPem) }),
    journal: new MemoryJournal(),
    dedup: createDeliveryDedup(),
    gate: listedGate(),
    onEvent: () => undefined,
    log: () => undefined,
    ...extra,
  });
  const { url } = await receiver.start();
  running.push(receiver);
  return { receiver, url: new URL(url) };
}

/** Opens a raw connection and writes `text`; resolves with what the server answered before it closed. */
async function sendAndWaitForClose(url: URL, text: string): Promise<string> {
  const socket = connect(Number(url.port), url.hostname);
  sockets.push(socket);
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  socket.write(text);
  await once(socket, 'close');
  return answer;
}

const head = (url: URL, length: number): string =>
  `POST ${url.pathname} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe('receiver limits on slow senders', () => {
  it('closes a connection whose headers do not arrive in time', async () => {
    const { url } = await startReceiver({ timeouts: { headersTimeoutMs: 300 } });
    const answer = await sendAndWaitForClose(url, `POST ${url.pathname} HTTP/1.1\r\nHost: x\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('answers 408 WebhookSlow to a body that does not arrive in time, and closes', async () => {
    const { url, receiver } = await startReceiver({ timeouts: { bodyTimeoutMs: 300 } });
    const answer = await sendAndWaitForClose(url, `${head(url, 100)}{"half":`);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('"error":"WebhookSlow"');
    expect(receiver.counters.rejectedByCode).toEqual({ WebhookSlow: 1 });
  });

  it('past maxPendingBodies unfinished bodies cuts the oldest, and a delivery still gets through', async () => {
    const { url, receiver } = await startReceiver({ maxPendingBodies: 2 });
    const first = sendAndWaitForClose(url, `${head(url, 100)}{"first":`);
    // The oldest is cut only once two newer ones are waiting behind it.
    const second = connect(Number(url.port), url.hostname);
    sockets.push(second);
    second.on('error', () => undefined);
    await once(second, 'connect');
    second.write(`${head(url, 100)}{"second":`);
    const third = connect(Number(url.port), url.hostname);
    sockets.push(third);
    third.on('error', () => undefined);
    await once(third, 'connect');
    third.write(`${head(url, 100)}{"third":`);
    expect(await first).toContain('"error":"WebhookSlow"');
    expect(second.destroyed).toBe(false);
    const delivery = buildDelivery({ type: 'channel.followed', payload: follow, privateKey: key.privateKey, atMs: T0 });
    expect((await postDelivery(url.href, delivery)).status).toBe(200);
    expect(receiver.counters).toMatchObject({ accepted: 1, rejectedByCode: { WebhookSlow: 2 } });
  });
});
