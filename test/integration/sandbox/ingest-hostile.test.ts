/**
 * Hostile bytes at the sandbox's RTMP ingest, over real TCP: each closes that one socket, changes nothing,
 * and a good publisher still goes live afterwards. Each test waits for the server to close the socket, so
 * without the guard it names, the test fails (the socket stays open and the test times out, or the state
 * changes).
 */
import { describe, expect, it } from 'vitest';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { amf, chunkBytes, clientHandshake, type RawSocket, rawSocket } from '../../helpers/rtmp-publisher';
import { expectGoodPublisherWorks, fx, publishWith, streamKey, useIngestSandbox } from './ingest-fixtures';

/** A socket past the handshake, ready for chunk-stream bytes. */
async function handshaken(): Promise<RawSocket> {
  const raw = await rawSocket(fx.sandbox.ingest.port);
  await clientHandshake(raw);
  return raw;
}

/** The server closed this socket, the channel is as it was, and the ingest still serves. */
async function expectClosedAndStillServing(raw: RawSocket, logged: RegExp): Promise<void> {
  const announced = fx.statusEvents.length;
  await raw.closed;
  expect(fx.logs.join('\n')).toMatch(logged);
  expect(fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)!.isLive).toBe(false);
  expect(fx.statusEvents).toHaveLength(announced);
  await fx.sandbox.ingest.whenIdle();
  await expectGoodPublisherWorks();
}

function setChunkSize(size: number): Buffer {
  const payload = Buffer.alloc(4);
  payload.writeUInt32BE(size);
  return chunkBytes(2, 1, 0, payload);
}

function connectCommand(commandObject: Buffer): Buffer {
  return chunkBytes(3, 20, 0, Buffer.concat([amf('connect', 1), commandObject]));
}

describe('sandbox RTMP ingest, hostile input', () => {
  useIngestSandbox({ ingestLimits: { handshakeTimeoutMs: 300 } });

  it.each([
    ['another RTMP version', Buffer.concat([Buffer.from([6]), Buffer.alloc(1536)]), /RTMP version 6 is not 3/],
    ['an HTTP request', Buffer.from('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'), /RTMP version 71 is not 3/],
    ['a TLS hello (rtmps to a plain port)', Buffer.from([0x16, 3, 1, 0, 0xa5]), /RTMP version 22 is not 3/],
  ])('closes a handshake that starts with %s and sends nothing back', async (_, bytes, logged) => {
    const raw = await rawSocket(fx.sandbox.ingest.port);
    raw.socket.write(bytes);
    await expectClosedAndStillServing(raw, logged);
    expect(raw.received().length).toBe(0);
  });

  it('closes a handshake that never finishes (half a C1), and one that stops before C2', async () => {
    const half = await rawSocket(fx.sandbox.ingest.port);
    half.socket.write(Buffer.concat([Buffer.from([3]), Buffer.alloc(700)]));
    await expectClosedAndStillServing(half, /handshake not finished in time/);
    const noC2 = await rawSocket(fx.sandbox.ingest.port);
    noC2.socket.write(Buffer.concat([Buffer.from([3]), Buffer.alloc(1536)]));
    await noC2.waitFor(3073);
    await expectClosedAndStillServing(noC2, /handshake not finished in time/);
  });

  it('closes a message that declares 16 MiB', async () => {
    const raw = await handshaken();
    raw.socket.write(chunkBytes(6, 9, 1, Buffer.alloc(64), { declaredLength: 0xffffff }));
    await expectClosedAndStillServing(raw, /16777215 bytes is over the \d+ cap/);
  });

  it('closes a connection holding too many bytes in unfinished messages across chunk streams', async () => {
    const raw = await handshaken();
    const mib = 1 << 20;
    raw.socket.write(setChunkSize(mib));
    for (let csid = 4; csid < 24; csid++) {
      raw.socket.write(chunkBytes(csid, 9, 1, Buffer.alloc(mib), { chunkSize: mib, declaredLength: 7 * mib }));
    }
    await expectClosedAndStillServing(raw, /bytes held for one connection/);
  });

  it.each([
    [0, /chunk size 0 is outside/],
    [2 ** 31, /chunk size 2147483648 is outside/],
    [1, /chunk size 1 is outside/],
  ])('closes Set Chunk Size %i', async (size, logged) => {
    const raw = await handshaken();
    raw.socket.write(setChunkSize(size));
    if (size === 1) {
      // Thousands of one-byte chunks would follow; the socket is gone before the first.
      const tiny = [chunkBytes(4, 9, 1, Buffer.alloc(5000), { chunkSize: 1 })];
      raw.socket.write(Buffer.concat(tiny), () => undefined);
    }
    await expectClosedAndStillServing(raw, logged);
  });

  it('closes thousands of tiny non-media messages', async () => {
    const raw = await handshaken();
    const ping = chunkBytes(2, 4, 0, Buffer.from([0, 6, 0, 0, 0, 0]));
    raw.socket.write(Buffer.concat(Array.from({ length: 5000 }, () => ping)), () => undefined);
    await expectClosedAndStillServing(raw, /more than 1000 messages other than audio and video/);
  });

  it('closes a connect whose AMF object nests 200 deep', async () => {
    const raw = await handshaken();
    const nested = Buffer.concat(Array.from({ length: 200 }, () => Buffer.from([0x03, 0, 1, 0x61])));
    raw.socket.write(connectCommand(Buffer.concat([nested, Buffer.from([0x05])])));
    await expectClosedAndStillServing(raw, /AMF0 nests deeper than 8/);
  });

  it('closes a strict array that claims four billion entries', async () => {
    const raw = await handshaken();
    raw.socket.write(connectCommand(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x05])));
    await expectClosedAndStillServing(raw, /AMF0 value cut short/);
  });

  it('closes a chunk that continues a chunk stream never started, and a command before connect', async () => {
    const orphan = await handshaken();
    orphan.socket.write(Buffer.from([0xc0 | 9, 1, 2, 3]));
    await expectClosedAndStillServing(orphan, /chunk stream 9 starts with a type 3 header/);
    const early = await handshaken();
    early.socket.write(chunkBytes(3, 20, 0, amf('publish\nsandbox: forged line', 0, null, 'anything', 'live')));
    await expectClosedAndStillServing(early, /"publish\\nsandbox: forged line" before connect/);
    const written = fx.logs.join('\n').split('\n');
    expect(written.some((line) => line.startsWith('sandbox: forged line'))).toBe(false);
  });

  it('closes connections past the cap as they arrive, and serves again once they go', async () => {
    const held = await Promise.all(Array.from({ length: 16 }, () => handshaken()));
    const extra = await Promise.all(Array.from({ length: 8 }, () => rawSocket(fx.sandbox.ingest.port)));
    await Promise.all(extra.map((raw) => raw.closed));
    expect(extra.every((raw) => raw.received().length === 0)).toBe(true);
    expect(fx.sandbox.ingest.sessions()).toHaveLength(16);
    await Promise.all(held.map((raw) => (raw.socket.end(), raw.closed)));
    await fx.sandbox.ingest.whenIdle();
    expect(fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)!.isLive).toBe(false);
    await expectGoodPublisherWorks();
  });
});

describe('sandbox RTMP ingest, a publisher that goes silent', () => {
  useIngestSandbox({ ingestLimits: { idleTimeoutMs: 300 } });

  it('is cut off after the idle deadline, and the channel goes offline', async () => {
    const { publisher, code } = await publishWith(streamKey());
    expect(code).toBe('NetStream.Publish.Start');
    expect(fx.statusEvents.map((e) => e.is_live)).toEqual([true]);
    await publisher.raw.closed;
    expect(fx.logs.join('\n')).toMatch(/silent too long/);
    expect(fx.statusEvents.map((e) => e.is_live)).toEqual([true, false]);
    expect(fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)!.isLive).toBe(false);
  });
});
