/**
 * The emote cache against a real HTTP server on loopback: what it keeps, and that a huge chunked answer is
 * cut at the 1 MiB cap while it streams rather than read whole first (probe finding: 64 MB in, memory up
 * 128 MB, because the body was read whole before the cap applied).
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EmoteCache } from '../../../../electron/overlays/emote-cache';

const MiB = 1024 * 1024;

interface Sent {
  /** Bytes of body the server managed to hand to the socket before it closed. */
  bytes: number;
  /** Resolves when the server stopped sending: done, or the client went away. */
  ended: Promise<'done' | 'closed'>;
}

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** Serves `total` bytes of "image" in 64 KiB chunks, no Content-Length (chunked), minding back-pressure. */
async function chunkedServer(total: number): Promise<{ host: string; sent: Sent[] }> {
  const sent: Sent[] = [];
  server = createServer((req, res) => {
    const entry = { bytes: 0 } as Sent;
    entry.ended = stream(res, total, entry);
    sent.push(entry);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { host: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, sent };
}

async function stream(res: ServerResponse, total: number, entry: Sent): Promise<'done' | 'closed'> {
  res.writeHead(200, { 'content-type': 'image/png' });
  const chunk = Buffer.alloc(64 * 1024, 7);
  let closed = false;
  res.on('close', () => (closed = true));
  while (entry.bytes < total && !closed) {
    const more = res.write(chunk);
    entry.bytes += chunk.length;
    if (!more) {
      await new Promise<void>((resolve) => {
        res.once('drain', resolve);
        res.once('close', resolve);
      });
    }
  }
  if (closed) {
    return 'closed';
  }
  await new Promise<void>((resolve) => res.end(resolve));
  return 'done';
}

describe('the emote cache', () => {
  it('stops reading a 64 MB chunked answer at the cap and says why', async () => {
    const { host, sent } = await chunkedServer(64 * MiB);
    const logs: string[] = [];
    const cache = new EmoteCache({ host: () => host, log: (line) => logs.push(line) });
    expect(await cache.get('42')).toBeNull();
    expect(await sent[0]!.ended).toBe('closed');
    // What sits in socket buffers on the way is a few MiB at most; reading it whole took all 64.
    expect(sent[0]!.bytes).toBeLessThan(16 * MiB);
    expect(logs).toEqual([
      'overlays: emote 42 could not be fetched (the image is larger than 1 MiB, the most an emote may be; stopped reading it)',
    ]);
    // Nothing was kept: a later request asks again.
    expect(await cache.get('42')).toBeNull();
    expect(sent).toHaveLength(2);
  });

  it('keeps an image under the cap, chunked too, and serves it again without asking', async () => {
    const { host, sent } = await chunkedServer(MiB - 64 * 1024);
    const cache = new EmoteCache({ host: () => host, log: () => undefined });
    const image = await cache.get('7');
    expect(image?.body.length).toBe(MiB - 64 * 1024);
    expect(image?.contentType).toBe('image/png');
    expect(await cache.get('7')).toBe(image);
    expect(sent).toHaveLength(1);
  });

  it('never asks the network for an id that is not an emote id', async () => {
    const { host, sent } = await chunkedServer(10);
    const cache = new EmoteCache({ host: () => host, log: () => undefined });
    expect(await cache.get('../../admin')).toBeNull();
    expect(sent).toHaveLength(0);
  });
});
