/**
 * The RTMP ingest in Greenroom's embedded sandbox (sandbox mode), through its real doors: the channel API,
 * a real RTMP publisher and `sandbox-world.json` between two starts on one data dir
 * ([the ingest](../../../docs/sandbox.md#kicks-ingest-in-the-sandbox)). A world saved by the first start
 * must not keep its port, and a stream cut off by Greenroom stopping must not come back as live.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { resolveConfig } from '../../../electron/app/config';
import { type EmbeddedSandbox, startEmbeddedSandbox } from '../../../electron/app/embedded-sandbox';
import { openSettings } from '../../../electron/app/settings';
import { systemClock } from '../../../electron/core/clock';
import type { KickChannel } from '../../../shared/kick/resources';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { RtmpPublisher } from '../../helpers/rtmp-publisher';
import { call, mintUserToken } from '../../helpers/sandbox';

let dataDir: string;
let running: EmbeddedSandbox | null;
const logs: string[] = [];

async function start(): Promise<EmbeddedSandbox> {
  const settings = openSettings(dataDir, { randomBytes });
  const config = resolveConfig({
    env: { GREENROOM_SANDBOX_ACTIVITY: 'off' },
    settings: settings.values(),
    storedClientSecret: null,
    dataDir,
  });
  running = await startEmbeddedSandbox(config, { clock: systemClock, log: (line) => logs.push(line) });
  return running;
}

async function stream(embedded: EmbeddedSandbox): Promise<KickChannel['stream']> {
  const token = mintUserToken(embedded.sandbox);
  const res = await call(embedded.sandbox.urls.api, 'GET', '/public/v1/channels', { token });
  expect(res.status, res.text).toBe(200);
  return (res.json.data[0] as KickChannel).stream;
}

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'greenroom-ingest-embedded-'));
  running = null;
  logs.length = 0;
});

afterEach(async () => {
  await running?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('streams to the embedded ingest, and a restart points the saved channel at the new port, offline', async () => {
  const first = await start();
  const before = await stream(first);
  expect(before.url).toBe(first.sandbox.urls.rtmp);
  const { publisher } = await RtmpPublisher.connect(before.url);
  expect((await publisher.publish(before.key)).code).toBe('NetStream.Publish.Start');
  publisher.sendMedia(5);
  expect((await stream(first)).is_live).toBe(true);

  // Greenroom stops while OBS is still streaming: the stream is cut off and the channel saved offline.
  const cut = publisher.raw.closed;
  await first.close();
  running = null;
  await cut;

  const second = await start();
  const after = await stream(second);
  expect(second.sandbox.ctx.state.channels.get(STREAMER_USER_ID)!.streamKey).toBe(before.key);
  expect(after.key).toBe(before.key);
  expect(after.url).toBe(second.sandbox.urls.rtmp);
  expect(after.url).not.toBe(before.url);
  expect(after.is_live).toBe(false);
  const again = await RtmpPublisher.connect(after.url);
  expect((await again.publisher.publish(after.key)).code).toBe('NetStream.Publish.Start');
  await again.publisher.close();
  expect(logs.join('\n')).not.toContain(before.key);
});
