/**
 * The ingest of a standalone `npm run sandbox`, as a developer uses it with OBS
 * ([the ingest](../../../docs/sandbox.md#kicks-ingest-in-the-sandbox)): the first stdout line names its
 * RTMP URL, stderr prints the URL with the streamer's key, and publishing with them puts the channel live
 * (the admin API's counts say so), unpublishing puts it offline.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SandboxDescription } from '../../../sandbox/index';
import { RtmpPublisher } from '../../helpers/rtmp-publisher';
import { call } from '../../helpers/sandbox';

let dataDir: string;
let server: ChildProcess;
let description: SandboxDescription;
let ingestLine: string;

/** The first line of `stream` that `match` accepts. */
function lineOf(stream: NodeJS.ReadableStream, match: (line: string) => boolean): Promise<string> {
  const lines = createInterface({ input: stream });
  return new Promise((resolve, reject) => {
    lines.on('line', (line) => {
      if (match(line)) {
        lines.close();
        resolve(line);
      }
    });
    server.once('exit', (code) => reject(new Error(`sandbox exited early with ${code}`)));
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'greenroom-ingest-cli-'));
  const env: NodeJS.ProcessEnv = { ...process.env, GREENROOM_DATA_DIR: dataDir };
  delete env.GREENROOM_SANDBOX_ADMIN_URL;
  delete env.GREENROOM_SANDBOX_ADMIN_TOKEN;
  server = spawn('node_modules/.bin/tsx', ['sandbox/cli.ts', '--port', '0'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [first, ingest] = await Promise.all([
    lineOf(server.stdout!, () => true),
    lineOf(server.stderr!, (line) => line.includes('RTMP ingest')),
  ]);
  description = JSON.parse(first) as SandboxDescription;
  ingestLine = ingest;
}, 30_000);

afterAll(async () => {
  if (server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGINT');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

async function liveChannels(): Promise<number> {
  const root = await call(description.adminUrl, 'GET', '/', {
    headers: { authorization: `Bearer ${description.adminToken}` },
  });
  expect(root.status, root.text).toBe(200);
  return (root.json as { counts: { liveChannels: number } }).counts.liveChannels;
}

it('prints the RTMP URL and the streamer key, and publishing with them puts the channel live', async () => {
  expect(description.rtmpUrl).toMatch(/^rtmp:\/\/127\.0\.0\.1:\d+\/app$/);
  const [, url, key] = /RTMP ingest\s+→ (\S+)\s+stream key (\S+)/.exec(ingestLine) ?? [];
  expect(url).toBe(description.rtmpUrl);
  expect(key).toMatch(/^sk_sandbox_/);

  const offline = await liveChannels();
  const { publisher } = await RtmpPublisher.connect(url!);
  expect((await publisher.publish(key!)).code).toBe('NetStream.Publish.Start');
  expect(await liveChannels()).toBe(offline + 1);
  // OBS's Stop: the ingest reads these before the end of the socket, and answers that end only after.
  publisher.unpublish(key!);
  await publisher.close();
  expect(await liveChannels()).toBe(offline);
});
