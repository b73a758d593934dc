/**
 * The live socket of a standalone `npm run sandbox`, as a developer points a Kick socket client at it
 * ([the socket](../../../docs/sandbox.md#kicks-live-socket-in-the-sandbox)): the first stdout line names the
 * socket and web URLs and the ids, stderr prints them, and the real pusher-js gets a chat line there.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Pusher from 'pusher-js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SandboxDescription } from '../../../sandbox/index';
import { PUSHER_APP_KEY } from '../../../sandbox/live-socket/ids';
import { call } from '../../helpers/sandbox';

let dataDir: string;
let server: ChildProcess;
let description: SandboxDescription;
let socketLine: string;
let webLine: string;

function lines(stream: NodeJS.ReadableStream, wanted: ((line: string) => boolean)[]): Promise<string[]> {
  const reader = createInterface({ input: stream });
  const found: (string | undefined)[] = wanted.map(() => undefined);
  return new Promise((resolve, reject) => {
    reader.on('line', (line) => {
      const at = wanted.findIndex((match, i) => found[i] === undefined && match(line));
      if (at >= 0) {
        found[at] = line;
      }
      if (found.every((f) => f !== undefined)) {
        reader.close();
        resolve(found);
      }
    });
    server.once('exit', (code) => reject(new Error(`sandbox exited early with ${code}`)));
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'greenroom-live-cli-'));
  const env: NodeJS.ProcessEnv = { ...process.env, GREENROOM_DATA_DIR: dataDir };
  delete env.GREENROOM_SANDBOX_ADMIN_URL;
  delete env.GREENROOM_SANDBOX_ADMIN_TOKEN;
  server = spawn('node_modules/.bin/tsx', ['sandbox/cli.ts', '--port', '0'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [[first], [socket, web]] = await Promise.all([
    lines(server.stdout!, [() => true]),
    lines(server.stderr!, [(line) => line.includes('live socket'), (line) => line.includes('web host')]),
  ]);
  description = JSON.parse(first!) as SandboxDescription;
  socketLine = socket!;
  webLine = web!;
}, 30_000);

afterAll(async () => {
  if (server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGINT');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

it('prints the socket and web URLs with the ids, and pusher-js gets a chat line there', async () => {
  expect(description.socketUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/);
  expect(description.webUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(socketLine).toContain(description.socketUrl);
  expect(webLine).toContain(
    `${description.webUrl}   channel id ${description.channelId}, chatroom id ${description.chatroomId}`,
  );
  const lookup = await call(description.webUrl, 'GET', '/api/v2/channels/sandbox-streamer');
  expect(lookup.json).toMatchObject({ id: description.channelId, chatroom: { id: description.chatroomId } });

  const url = new URL(description.socketUrl);
  const pusher = new Pusher(PUSHER_APP_KEY, {
    cluster: 'us2',
    wsHost: url.hostname,
    wsPort: Number(url.port),
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
  });
  try {
    const channel = pusher.subscribe(`chatrooms.${description.chatroomId}.v2`);
    await new Promise((resolve) => channel.bind('pusher:subscription_succeeded', resolve));
    const got = new Promise<{ content: string }>((resolve) => channel.bind('App\\Events\\ChatMessageEvent', resolve));
    const fired = await call(description.adminUrl, 'POST', '/trigger/chat.message.sent', {
      headers: { authorization: `Bearer ${description.adminToken}` },
      body: { overrides: { content: 'standalone and live' } },
    });
    expect(fired.status, fired.text).toBe(200);
    expect((await got).content).toBe('standalone and live');
  } finally {
    pusher.disconnect();
  }
});
