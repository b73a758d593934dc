/**
 * Debian's real OBS streams to the sandbox's RTMP ingest ([the ingest](../../../docs/obs.md#kicks-ingest-in-the-sandbox)):
 * its custom RTMP service set to the sandbox's URL and the channel's key, Start Streaming puts the sandbox
 * channel live, OBS reports bytes sent, Stop Streaming puts it offline. Skipped with one line where OBS is
 * not installed.
 */
import { OBSWebSocket } from 'obs-websocket-js/json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../sandbox/index';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { type ObsProcess, obsSkipReason, startObs } from '../../helpers/obs-process';
import { startSandbox } from '../../helpers/sandbox';

const skip = obsSkipReason();

/** The next `livestream.status.updated` the sandbox announces. */
function nextStatus(sandbox: Sandbox): Promise<{ is_live: boolean }> {
  return new Promise((resolve) => {
    const stop = sandbox.ctx.state.onEvent((event) => {
      if (event.type === 'livestream.status.updated') {
        stop();
        resolve(event.payload as { is_live: boolean });
      }
    });
  });
}

/** Asks until `check` holds; OBS counts output bytes on its own schedule, so there is no event to wait on. */
async function until<T>(ask: () => Promise<T>, check: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await ask();
    if (check(value)) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`${what}: still ${JSON.stringify(value)} after 30 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

if (skip !== null) {
  describe('real OBS streams to the sandbox ingest', () => {
    it.skip(skip, () => undefined);
  });
} else {
  describe('real OBS streams to the sandbox ingest', () => {
    let obs: ObsProcess;
    let sandbox: Sandbox;
    const client = new OBSWebSocket();

    beforeAll(async () => {
      sandbox = await startSandbox();
      obs = await startObs();
      await client.connect(obs.url, obs.password ?? undefined);
    });

    afterAll(async () => {
      await client.disconnect().catch(() => undefined);
      await obs?.close();
      await sandbox?.close();
    });

    it('goes live on Start Streaming with the channel key, sends bytes, and goes offline on Stop', async () => {
      const channel = sandbox.ctx.state.channels.get(STREAMER_USER_ID)!;
      await client.call('SetStreamServiceSettings', {
        streamServiceType: 'rtmp_custom',
        streamServiceSettings: { server: sandbox.urls.rtmp, key: channel.streamKey },
      });
      const live = nextStatus(sandbox);
      await client.call('StartStream');
      expect((await live).is_live).toBe(true);
      expect(channel.isLive).toBe(true);

      const status = await until(
        () => client.call('GetStreamStatus'),
        (s) => s.outputActive && s.outputBytes > 0,
        'OBS output bytes',
      );
      expect(status.outputBytes).toBeGreaterThan(0);
      const session = sandbox.ingest.sessions().find((s) => s.publishing)!;
      expect(session.videoBytes).toBeGreaterThan(0);

      const offline = nextStatus(sandbox);
      await client.call('StopStream');
      expect((await offline).is_live).toBe(false);
      expect(channel.isLive).toBe(false);
    });
  });
}
