/**
 * `npm run sandbox` as a real child process: the first stdout line is the JSON description, the servers
 * answer, a `trigger` subcommand reaches the admin API, bad arguments exit 2, and SIGINT closes cleanly.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxDescription } from '../../../electron/sandbox/index';
import { call } from '../../helpers/sandbox';

const TSX = 'node_modules/.bin/tsx';
const CLI = 'electron/sandbox/cli.ts';

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function waitForExit(child: ChildProcess): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

/** Runs the CLI to completion (subcommands, --help, bad arguments). */
function runCli(args: string[], env: Record<string, string> = {}): Promise<Finished> {
  const child = spawn(TSX, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return waitForExit(child);
}

let server: ChildProcess;
let serverExit: Promise<Finished>;
let description: SandboxDescription;

beforeAll(async () => {
  server = spawn(TSX, [CLI, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = createInterface({ input: server.stdout! });
  const firstLine = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    server.once('exit', (code) => reject(new Error(`sandbox exited early with ${code}`)));
  });
  lines.close();
  serverExit = waitForExit(server);
  description = JSON.parse(firstLine) as SandboxDescription;
}, 30_000);

afterAll(() => {
  if (server.exitCode === null && server.signalCode === null) {
    server.kill('SIGKILL');
  }
});

describe('npm run sandbox', () => {
  it('prints its description as the first stdout line', () => {
    expect(description).toMatchObject({
      authUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      apiUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      adminUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      clientId: expect.any(String),
      clientSecret: expect.any(String),
      broadcasterUserId: 100001,
      redirectUris: expect.any(Array),
      publicKey: expect.stringContaining('-----BEGIN PUBLIC KEY-----'),
    });
  });

  it('serves the API and the admin API it describes', async () => {
    const key = await call(description.apiUrl, 'GET', '/public/v1/public-key');
    expect(key.status).toBe(200);
    expect(key.json.data.public_key).toBe(description.publicKey);
    const root = await call(description.adminUrl, 'GET', '/');
    expect(root.status).toBe(200);
    expect(root.json).toMatchObject(description);
  });

  it('fires an event with the trigger subcommand', async () => {
    const result = await runCli(['trigger', 'chat.message.sent', '--duplicate', 'content=hello from the cli'], {
      GREENROOM_SANDBOX_ADMIN_URL: description.adminUrl,
    });
    expect(result.code, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout);
    expect(answer).toMatchObject({ fired: 1, events: [{ type: 'chat.message.sent', delivery: { duplicates: 1 } }] });
    const chat = await call(description.adminUrl, 'GET', `/channels/${description.broadcasterUserId}/chat`);
    expect((chat.json.messages as { content: string }[]).at(-1)).toMatchObject({ content: 'hello from the cli' });
  }, 30_000);

  it('advances the clock with the advance subcommand', async () => {
    const before = (await call(description.adminUrl, 'GET', '/clock')).json.now_ms as number;
    const result = await runCli(['advance', '3600', '--admin-url', description.adminUrl]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).now_ms - before).toBeGreaterThanOrEqual(3_600_000);
  }, 30_000);

  it('reports an admin error and exits 1', async () => {
    const result = await runCli([
      'trigger',
      'chat.message.sent',
      '--broadcaster',
      '424242',
      '--admin-url',
      description.adminUrl,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('sandbox: 400: broadcaster_user_id: no channel for broadcaster 424242');
  }, 30_000);

  it('exits 2 with one line on bad arguments, and prints usage on --help', async () => {
    const bad = await runCli(['trigger', 'chat.message.sent', '--count', 'many']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim().split('\n')).toEqual([
      'sandbox: --count: expected an integer from 1, got "many" (see --help)',
    ]);
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage:/);
  }, 30_000);

  it('closes cleanly on SIGINT', async () => {
    server.kill('SIGINT');
    const result = await serverExit;
    expect(result.code).toBe(0);
    await expect(call(description.adminUrl, 'GET', '/')).rejects.toThrow();
  }, 30_000);
});
