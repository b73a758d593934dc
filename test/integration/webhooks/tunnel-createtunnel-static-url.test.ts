/**
 * The tunnel adapters against a real localtunnel server (a child process on 127.0.0.1, `--domain
 * localhost`) and a real node:http server standing in for the webhook receiver. Retries are driven by a
 * manual scheduler, so nothing here waits for a backoff delay; waits are for status events and sockets.
 *
 * This file: “createTunnel: static URL and off”.
 */
import { describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../../electron/core/clock';
import { createTunnel } from '../../../electron/webhooks/tunnel/create-tunnel';
import { ManualScheduler } from '../../helpers/manual-scheduler';
import { startLocalTunnelServer } from '../../helpers/localtunnel-server';
import { PATH, cleanups, startReceiverStub, useSetup, waitForStatus } from './tunnel-fixtures';

useSetup();

// --- Static and off ---

describe('createTunnel: static URL and off', () => {
  it('a public https URL is up at once, and its self-check can be routed to a local receiver', async () => {
    const receiver = await startReceiverStub();
    cleanups.push(() => receiver.close());
    const tunnel = createTunnel(
      { tunnel: 'https://hooks.example.com/greenroom/', subdomain: 'unused1', localPort: 0, receiverPath: PATH },
      {
        clock: new AdjustableClock({ now: () => 5_000 }),
        selfCheckRoute: () => ({ origin: `http://127.0.0.1:${receiver.port}` }),
      },
    );

    await tunnel.start();
    expect(tunnel.status()).toEqual({ state: 'up', url: 'https://hooks.example.com/greenroom' });
    expect(tunnel.publicUrl()).toBe('https://hooks.example.com/greenroom');
    const checked = await waitForStatus(tunnel, (s) => s.state === 'up' && s.reachable !== undefined);
    expect(checked).toMatchObject({ reachable: true, checkedAt: 5_000 });
    expect(receiver.received[0]?.url).toMatch(/^\/greenroom\/kick\/webhook\?check=/);

    await tunnel.stop();
    expect(tunnel.status()).toEqual({ state: 'off' });
    expect(tunnel.publicUrl()).toBeNull();
  });

  it('off stays off', async () => {
    const tunnel = createTunnel(
      { tunnel: 'off', subdomain: 'unused1', localPort: 0, receiverPath: PATH },
      { clock: new AdjustableClock() },
    );
    await tunnel.start();
    expect(tunnel.status()).toEqual({ state: 'off' });
    expect(tunnel.publicUrl()).toBeNull();
  });

  it('a self-hosted localtunnel server on loopback gets a self-check routed through it', async () => {
    const lt = await startLocalTunnelServer();
    const receiver = await startReceiverStub();
    const tunnel = createTunnel(
      { tunnelHost: lt.url, subdomain: 'greenroomtest11', localPort: receiver.port, receiverPath: PATH },
      { clock: new AdjustableClock(), setTimer: new ManualScheduler().setTimer },
    );
    cleanups.push(
      () => receiver.close(),
      () => lt.stop(),
      () => tunnel.stop(),
    );

    await tunnel.start();

    expect(await waitForStatus(tunnel, (s) => s.state === 'up' && s.reachable !== undefined)).toMatchObject({
      url: 'http://greenroomtest11.localhost',
      reachable: true,
    });
  });
});
