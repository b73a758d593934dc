/**
 * Idle connections to the receiver, over real sockets: a connection with no request in flight is closed
 * after the idle limit (shortened here), whether it never sent a byte or is kept alive after its answer,
 * while a request still being worked on is not cut by it. The headers deadline is set far off, so only the
 * idle limit can close them. Waits are on the sockets' own events.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventJournal } from '../../../electron/webhooks/events/types';
import { MemoryJournal } from '../../helpers/memory-journal';
import { type Harness, startReceiver, useSetup } from './receiver-fixtures';

useSetup();

const IDLE_MS = 200;
const timeouts = { idleTimeoutMs: IDLE_MS, headersTimeoutMs: 60_000, bodyTimeoutMs: 60_000 };
const sockets: Socket[] = [];

afterEach(() => {
  sockets.splice(0).forEach((socket) => socket.destroy());
});

/** Connects and resolves once connected; the socket's `closed` resolves when the server closes it. */
async function open(h: Harness): Promise<{ socket: Socket; closed: Promise<void> }> {
  const { port } = new URL(h.url);
  const socket = connect(Number(port), '127.0.0.1');
  sockets.push(socket);
  socket.on('error', () => undefined);
  socket.on('data', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await once(socket, 'connect');
  return { socket, closed };
}

/** One delivery written on a raw socket as HTTP/1.1 keep-alive, and its answer's status line. */
async function deliverOn(socket: Socket, h: Harness): Promise<string> {
  const d = h.delivery();
  const head = Object.entries(d.headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const answered = once(socket, 'data') as Promise<[Buffer]>;
  socket.write(`POST /kick/webhook HTTP/1.1\r\nHost: x\r\n${head}Content-Length: ${d.body.length}\r\n\r\n`);
  socket.write(d.body);
  const [chunk] = await answered;
  return chunk.toString('latin1').split('\r\n', 1)[0]!;
}

/**
 * Writes `bytes` on `socket` every quarter of the idle limit, as a holder of the connection would, and
 * resolves 'closed' once the server closes it, or 'held' if it is still open after `ticks` writes (five
 * idle limits' worth): bytes alone must not keep a connection with no request in flight.
 */
function dribble(socket: Socket, closed: Promise<void>, bytes: () => string, ticks = 20): Promise<'closed' | 'held'> {
  return new Promise((resolve) => {
    let written = 0;
    const timer = setInterval(() => {
      if (written++ === ticks) {
        clearInterval(timer);
        resolve('held');
      } else if (!socket.destroyed) {
        socket.write(bytes());
      }
    }, IDLE_MS / 4);
    void closed.then(() => {
      clearInterval(timer);
      resolve('closed');
    });
  });
}

describe('idle connections', () => {
  it('closes 500 connections that never send a request, and kept-alive ones after their answer', async () => {
    const h = await startReceiver({ deps: { timeouts } });
    const silent = await Promise.all(Array.from({ length: 450 }, () => open(h)));
    const kept = await Promise.all(Array.from({ length: 50 }, () => open(h)));
    for (const { socket } of kept) {
      expect(await deliverOn(socket, h)).toBe('HTTP/1.1 200 OK');
    }
    await Promise.all([...silent, ...kept].map(({ closed }) => closed));
    expect(h.receiver.counters.accepted).toBe(50);
  });

  it('closes a kept-alive connection fed blank lines after its answer', async () => {
    const h = await startReceiver({ deps: { timeouts } });
    const { socket, closed } = await open(h);
    expect(await deliverOn(socket, h)).toBe('HTTP/1.1 200 OK');
    expect(await dribble(socket, closed, () => '\n')).toBe('closed');
  });

  it('closes a connection fed blank lines before any request, or a next request one byte at a time', async () => {
    const h = await startReceiver({ deps: { timeouts } });
    const before = await open(h);
    const crlf = dribble(before.socket, before.closed, () => '\r\n');
    const after = await open(h);
    expect(await deliverOn(after.socket, h)).toBe('HTTP/1.1 200 OK');
    const head = [...('POST /kick/webhook HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(100))];
    expect(await Promise.all([crlf, dribble(after.socket, after.closed, () => head.shift() ?? 'a')])).toEqual([
      'closed',
      'closed',
    ]);
  });

  it('does not cut a request still being worked on, however long, and closes its connection once idle', async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const kept = new MemoryJournal();
    const slow: EventJournal = {
      append: async (record) => {
        await released;
        return kept.append(record);
      },
      readAll: () => kept.readAll(),
      close: () => kept.close(),
    };
    const h = await startReceiver({ deps: { timeouts, journal: slow } });
    const busy = await open(h);
    const answer = deliverOn(busy.socket, h);
    // An idle connection opened beside it: once it is closed, the busy one has been silent as long.
    const idle = await open(h);
    await idle.closed;
    expect(busy.socket.destroyed).toBe(false);
    release();
    expect(await answer).toBe('HTTP/1.1 200 OK');
    await busy.closed;
    expect(kept.records).toHaveLength(1);
  });
});
