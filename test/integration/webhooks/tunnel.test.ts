/**
 * The tunnel adapters against a real localtunnel server (a child process on 127.0.0.1, `--domain
 * localhost`) and a real node:http server standing in for the webhook receiver. Retries are driven by a
 * manual scheduler, so nothing here waits for a backoff delay; waits are for status events and sockets.
 *
 * This file: “LocalTunnel against a real localtunnel server”; “LocalTunnel registration”.
 */
import { once } from 'node:events';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../../electron/core/clock';
import { LocalTunnel } from '../../../electron/webhooks/tunnel/localtunnel-tunnel';
import { ManualScheduler } from '../../helpers/manual-scheduler';
import { startLocalTunnelServer } from '../../helpers/localtunnel-server';
import { PATH, cleanups, fixture, postThrough, useSetup, waitForStatus } from './tunnel-fixtures';

useSetup();

describe('LocalTunnel against a real localtunnel server', () => {
  it('comes up with the requested subdomain and carries a webhook delivery byte for byte', async () => {
    const { lt, receiver, tunnel, statuses } = await fixture({ subdomain: 'greenroomtest1' });

    await tunnel.start();
    expect(statuses.slice(0, 2)).toEqual([
      { state: 'connecting', attempt: 1 },
      { state: 'up', url: 'http://greenroomtest1.localhost' },
    ]);
    expect(tunnel.publicUrl()).toBe('http://greenroomtest1.localhost');
    await waitForStatus(tunnel, (s) => s.state === 'up' && s.reachable === true);

    // Odd spacing, non-ASCII and an escaped slash: any re-serialization on the way would break the signature.
    const raw = Buffer.from('{"message_id":"01J…","content":"héllo 👋 \\/ ok" ,  "n":1.50}', 'utf8');
    const headers = {
      'Kick-Event-Message-Id': '01JZ0000000000000000000000',
      'Kick-Event-Subscription-Id': '01JZ0000000000000000000001',
      'Kick-Event-Signature': 'c2lnbmF0dXJl+/8=',
      'Kick-Event-Message-Timestamp': '2025-04-01T07:56:19Z',
      'Kick-Event-Type': 'chat.message.sent',
      'Kick-Event-Version': '1',
    };
    const arrived = receiver.nextRequest();
    const answer = await postThrough(lt, 'greenroomtest1', raw, headers);
    const got = await arrived;

    expect(answer).toEqual({ status: 200, text: 'accepted' });
    expect(got.method).toBe('POST');
    expect(got.url).toBe(PATH);
    expect(got.body.equals(raw)).toBe(true);
    for (const [name, value] of Object.entries(headers)) {
      expect(got.headers[name.toLowerCase()]).toBe(value);
    }
    // The client rewrites Host to the local address it forwards to.
    expect(got.headers.host).toBe('127.0.0.1');
  });

  it('self-checks through the public URL and reports the receiver reachable', async () => {
    const { tunnel, receiver } = await fixture({ subdomain: 'greenroomtest2' });

    await tunnel.start();
    const checked = await waitForStatus(tunnel, (s) => s.state === 'up' && s.reachable !== undefined);

    expect(checked).toEqual({
      state: 'up',
      url: 'http://greenroomtest2.localhost',
      checkedAt: 1_750_000_000_000,
      reachable: true,
    });
    const check = receiver.received.find((r) => r.method === 'GET');
    expect(check?.url).toMatch(/^\/kick\/webhook\?check=[0-9a-f]{24}$/);
  });

  it('reports unreachable when the answer through the tunnel does not echo the nonce', async () => {
    const { tunnel, logs } = await fixture({ subdomain: 'greenroomtest3', echoCheck: false });

    await tunnel.start();
    const checked = await waitForStatus(tunnel, (s) => s.state === 'up' && s.reachable !== undefined);

    expect(checked).toMatchObject({ state: 'up', reachable: false });
    expect(logs.some((l) => l.startsWith('warning:') && l.includes('did not reach the webhook receiver'))).toBe(true);
  });

  it('goes down when the server dies, backs off while it is gone, and returns with the same subdomain', async () => {
    const { lt, receiver, tunnel, scheduler, state, clock } = await fixture({ subdomain: 'greenroomtest4' });
    await tunnel.start();
    await waitForStatus(tunnel, (s) => s.state === 'up' && s.reachable === true);

    const down = waitForStatus(tunnel, (s) => s.state === 'down');
    await lt.stop();
    // random() = 0.5 takes 10 % off: 1 s → 900 ms, then 2 s → 1800 ms.
    expect(await down).toMatchObject({ state: 'down', retryInMs: 900 });
    expect(scheduler.pending.size).toBe(1);

    // Retry while the server is still gone: registration is refused, the next delay doubles.
    const stillDown = waitForStatus(tunnel, (s) => s.state === 'down' && s.retryInMs === 1800);
    expect(scheduler.fireOnly()).toBe(900);
    expect(tunnel.status()).toEqual({ state: 'connecting', attempt: 2 });
    expect(await stillDown).toMatchObject({ reason: expect.stringContaining('could not open the tunnel') });

    state.lt = await startLocalTunnelServer({ port: lt.port });
    clock.advance(10_000);
    const back = waitForStatus(tunnel, (s) => s.state === 'up' && s.reachable === true);
    expect(scheduler.fireOnly()).toBe(1800);
    expect(await back).toMatchObject({ url: 'http://greenroomtest4.localhost', checkedAt: 1_750_000_010_000 });
    expect(scheduler.pending.size).toBe(0);

    const arrived = receiver.nextRequest();
    const answer = await postThrough(state.lt, 'greenroomtest4', Buffer.from('{"again":true}'), {});
    expect(answer.status).toBe(200);
    expect((await arrived).body.toString()).toBe('{"again":true}');
  });

  it('starts the backoff afresh after a connection that stayed up for the stable period', async () => {
    const { lt, tunnel, scheduler, state, clock } = await fixture({ subdomain: 'greenroomtest5' });
    await tunnel.start();

    let down = waitForStatus(tunnel, (s) => s.state === 'down');
    await lt.stop();
    expect(await down).toMatchObject({ retryInMs: 900 });
    state.lt = await startLocalTunnelServer({ port: lt.port });
    const up = waitForStatus(tunnel, (s) => s.state === 'up');
    scheduler.fireOnly();
    await up;

    // Dropped again at once: a flapping tunnel keeps backing off.
    down = waitForStatus(tunnel, (s) => s.state === 'down');
    await state.lt.stop();
    expect(await down).toMatchObject({ retryInMs: 1800 });
    state.lt = await startLocalTunnelServer({ port: lt.port });
    const upAgain = waitForStatus(tunnel, (s) => s.state === 'up');
    scheduler.fireOnly();
    await upAgain;

    // Up for a minute, then dropped: back to the first delay.
    clock.advance(60_000);
    down = waitForStatus(tunnel, (s) => s.state === 'down');
    await state.lt.stop();
    expect(await down).toMatchObject({ retryInMs: 900 });
  });

  it('reports the URL the server gave when the subdomain is taken, with a warning', async () => {
    const { lt, tunnel, receiver } = await fixture({ subdomain: 'greenroomtest6' });
    await tunnel.start();
    const logs: string[] = [];
    const second = new LocalTunnel({
      localPort: receiver.port,
      subdomain: 'greenroomtest6',
      host: lt.url,
      clock: new AdjustableClock(),
      setTimer: new ManualScheduler().setTimer,
      log: (line) => logs.push(line),
    });
    cleanups.push(() => second.stop());

    await second.start();

    const status = second.status();
    expect(status.state).toBe('up');
    expect(second.publicUrl()).toMatch(/^http:\/\/[a-z0-9-]+\.localhost$/);
    expect(second.publicUrl()).not.toBe('http://greenroomtest6.localhost');
    expect(logs.some((l) => l.startsWith('warning:') && l.includes('update it there'))).toBe(true);
  });

  it('stop() closes every tunnel socket and leaves no timer behind', async () => {
    const { receiver, tunnel, scheduler, statuses } = await fixture({ subdomain: 'greenroomtest7' });
    await tunnel.start();
    await waitForStatus(tunnel, (s) => s.state === 'up' && s.reachable === true);
    expect(receiver.openConnections()).toBeGreaterThan(0);

    await tunnel.stop();

    expect(tunnel.status()).toEqual({ state: 'off' });
    expect(statuses.at(-1)).toEqual({ state: 'off' });
    expect(tunnel.publicUrl()).toBeNull();
    expect(scheduler.pending.size).toBe(0);
    // Every forwarded connection to the receiver closes with its tunnel socket.
    await receiver.idle();
  });

  it('stop() while down cancels the planned retry', async () => {
    const { lt, tunnel, scheduler } = await fixture({ subdomain: 'greenroomtest8' });
    await tunnel.start();
    const down = waitForStatus(tunnel, (s) => s.state === 'down');
    await lt.stop();
    await down;
    expect(scheduler.pending.size).toBe(1);

    await tunnel.stop();

    expect(scheduler.pending.size).toBe(0);
    expect(tunnel.status()).toEqual({ state: 'off' });
  });
});

describe('LocalTunnel registration', () => {
  it('stop() cancels an attempt whose server never answers', async () => {
    const silent: TcpServer = createTcpServer(() => undefined);
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    cleanups.push(() => new Promise<void>((resolve) => silent.close(() => resolve())));
    const scheduler = new ManualScheduler();
    const tunnel = new LocalTunnel({
      localPort: 9,
      subdomain: 'greenroomtest9',
      host: `http://127.0.0.1:${(silent.address() as { port: number }).port}`,
      clock: new AdjustableClock(),
      setTimer: scheduler.setTimer,
    });

    const started = tunnel.start();
    expect(tunnel.status()).toEqual({ state: 'connecting', attempt: 1 });
    await tunnel.stop();
    await started;

    expect(tunnel.status()).toEqual({ state: 'off' });
    expect(scheduler.pending.size).toBe(0);
  });

  it('an answer that is not a tunnel is a failed attempt with the reason, retried later', async () => {
    const lt = await startLocalTunnelServer();
    cleanups.push(() => lt.stop());
    const scheduler = new ManualScheduler();
    // A path the server does not serve: it answers 404, not a tunnel.
    const tunnel = new LocalTunnel({
      localPort: 9,
      subdomain: 'greenroomtest10',
      host: `${lt.url}/nowhere`,
      clock: new AdjustableClock(),
      setTimer: scheduler.setTimer,
      random: () => 0,
    });
    cleanups.push(() => tunnel.stop());

    await tunnel.start();

    expect(tunnel.status()).toMatchObject({ state: 'down', retryInMs: 1000 });
    expect(scheduler.pending.size).toBe(1);
  });
});
