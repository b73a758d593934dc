import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HandshakeError, ServerHandshake } from '../../../../sandbox/ingest/rtmp-handshake';

const c0c1 = (): Buffer => Buffer.concat([Buffer.from([3]), randomBytes(1536)]);

describe('ServerHandshake', () => {
  it('answers C0+C1 with S0, S1 (time, zero, random) and S2 echoing C1, then ends on C2', () => {
    const handshake = new ServerHandshake(() => 0x1_0000_0007);
    const hello = c0c1();
    const step = handshake.feed(hello);
    expect(step.kind).toBe('reply');
    const reply = (step as { reply: Buffer }).reply;
    expect(reply.length).toBe(1 + 1536 + 1536);
    expect(reply[0]).toBe(3);
    expect(reply.readUInt32BE(1)).toBe(7);
    expect(reply.readUInt32BE(5)).toBe(0);
    expect(reply.subarray(1537)).toEqual(hello.subarray(1));
    expect(handshake.feed(Buffer.alloc(0))).toEqual({ kind: 'more' });
    const c2 = reply.subarray(1, 1537);
    const first = Buffer.from([0x02, 0x00]);
    expect(handshake.feed(Buffer.concat([c2, first]))).toEqual({ kind: 'done', rest: first });
    expect(handshake.done).toBe(true);
  });

  it('takes its bytes in any pieces, one at a time included', () => {
    const handshake = new ServerHandshake();
    const hello = c0c1();
    const steps = [...hello].map((byte) => handshake.feed(Buffer.from([byte])));
    expect(steps.slice(0, -1).every((s) => s.kind === 'more')).toBe(true);
    expect(steps.at(-1)?.kind).toBe('reply');
    const c2 = randomBytes(1536);
    expect(handshake.feed(c2.subarray(0, 1000))).toEqual({ kind: 'more' });
    expect(handshake.feed(c2.subarray(1000))).toEqual({ kind: 'done', rest: Buffer.alloc(0) });
  });

  it('finds C2 that came in the same read as C1', () => {
    const handshake = new ServerHandshake();
    expect(handshake.feed(Buffer.concat([c0c1(), randomBytes(1536)])).kind).toBe('reply');
    expect(handshake.feed(Buffer.alloc(0)).kind).toBe('done');
  });

  it.each([0, 6, 0x16, 0x47])('refuses version %i from its first byte', (version) => {
    expect(() => new ServerHandshake().feed(Buffer.from([version]))).toThrow(HandshakeError);
  });

  it('refuses being fed after it is done', () => {
    const handshake = new ServerHandshake();
    handshake.feed(c0c1());
    handshake.feed(randomBytes(1536));
    expect(() => handshake.feed(Buffer.from([1]))).toThrow(/already finished/);
  });
});
