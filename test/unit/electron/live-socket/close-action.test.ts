import { describe, expect, it } from 'vitest';
import { closeAction, LOCAL_CLOSE } from '../../../../electron/live-socket/close-action';
import { makeConnection, settle } from './live-socket-fixtures';

describe('closeAction', () => {
  const pusher: [number, string][] = [
    [1000, 'backoff'],
    [1001, 'backoff'],
    [1006, 'backoff'],
    [1002, 'backoff'],
    [1004, 'backoff'],
    [4000, 'now'],
    [4001, 'stop'],
    [4003, 'stop'],
    [4009, 'stop'],
    [4099, 'stop'],
    [4100, 'backoff'],
    [4199, 'backoff'],
    [4200, 'now'],
    [4201, 'now'],
    [4202, 'now'],
    [4299, 'now'],
    [4301, 'backoff'],
    [LOCAL_CLOSE.handshakeTimeout, 'backoff'],
    [LOCAL_CLOSE.silent, 'backoff'],
  ];
  for (const [code, action] of pusher) {
    it(`Pusher ${code}: ${action}`, () => expect(closeAction('pusher', code)).toBe(action));
  }

  const centrifugo: [number, string][] = [
    [1006, 'backoff'],
    [3000, 'backoff'],
    [3012, 'backoff'],
    [3499, 'backoff'],
    [3500, 'stop'],
    [3999, 'stop'],
    [4001, 'backoff'],
    [4500, 'stop'],
    [4999, 'stop'],
  ];
  for (const [code, action] of centrifugo) {
    it(`Centrifugo ${code}: ${action}`, () => expect(closeAction('centrifugo', code)).toBe(action));
  }
});

describe('LiveConnection reconnects by close code with the shared backoff', () => {
  async function closedWith(codes: number[]) {
    const made = makeConnection();
    made.connection.start();
    await settle();
    const delays: number[] = [];
    for (const code of codes) {
      made.fake.last.handlers.onOpen();
      made.fake.last.handlers.onClose(code, 'test');
      const pending = made.time.pending();
      delays.push(pending[0] ?? -1);
      if (pending.length > 0) {
        made.time.advance(pending[0]!);
        await settle();
      }
    }
    return { ...made, delays };
  }

  it('reconnects at once when the server asks (4200), then backs off when it keeps asking', async () => {
    const { delays, fake } = await closedWith([4200, 4201, 4202]);
    expect(delays).toEqual([0, 2000, 4000]);
    expect(fake.sessions).toHaveLength(4);
  });

  it('reconnects at once over TLS on 4000', async () => {
    expect((await closedWith([4000])).delays).toEqual([0]);
  });

  it('backs off on a plain close, a cut line, a protocol error and over capacity', async () => {
    expect((await closedWith([1000, 1006, 1002, 4100])).delays).toEqual([1000, 2000, 4000, 8000]);
  });

  it('stops on a refusal (4001–4099) and says so', async () => {
    const { delays, connection, fake, lines } = await closedWith([4001]);
    expect(delays).toEqual([-1]);
    expect(fake.sessions).toHaveLength(1);
    expect(connection.view()).toMatchObject({
      state: 'refused',
      problem: 'refused with close code 4001',
      retryAtMs: null,
      lastClose: { code: 4001, reason: 'test' },
    });
    expect(lines.at(-1)).toContain('not reconnecting');
  });

  it('caps the wait at a minute and takes at most half off at random', async () => {
    const made = makeConnection({ random: () => 0.999 });
    made.connection.start();
    await settle();
    const delays: number[] = [];
    for (let i = 0; i < 9; i++) {
      made.fake.last.handlers.onClose(1006, '');
      delays.push(made.time.pending()[0]!);
      made.time.advance(delays.at(-1)!);
      await settle();
    }
    expect(delays).toEqual([500, 1001, 2002, 4004, 8008, 16_016, 30_030, 30_030, 30_030]);
  });

  it('starts again after a refusal only when started again', async () => {
    const { connection, fake } = await closedWith([4009]);
    connection.stop();
    connection.start();
    await settle();
    expect(fake.sessions).toHaveLength(2);
    expect(connection.view().state).toBe('connecting');
  });
});
