/**
 * `npm run sandbox` as a real child process: the first stdout line is the JSON description, the servers
 * answer, subcommands reach the admin API (named by flags or the environment, or found through the file
 * the sandbox writes into the data dir), bad arguments exit 2, and SIGINT closes cleanly and removes the
 * file. Every process here gets its own temporary GREENROOM_DATA_DIR.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STANDALONE_SANDBOX_FILE } from '../../../sandbox/discovery';
import type { SandboxDescription } from '../../../sandbox/index';
import { call } from '../../helpers/sandbox';

const TSX = 'node_modules/.bin/tsx';
const CLI = 'sandbox/cli.ts';

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

/** The environment without any sandbox variables from the developer's shell. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.GREENROOM_SANDBOX_ADMIN_URL;
  delete env.GREENROOM_SANDBOX_ADMIN_TOKEN;
  return { ...env, ...extra };
}

/** Runs the CLI to completion (subcommands, --help, bad arguments), in the server's data dir unless told. */
function runCli(args: string[], env: Record<string, string> = {}): Promise<Finished> {
  const child = spawn(TSX, [CLI, ...args], {
    env: cleanEnv({ GREENROOM_DATA_DIR: dataDir, ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return waitForExit(child);
}

let dataDir: string;
let server: ChildProcess;
let serverExit: Promise<Finished>;
let description: SandboxDescription;
const admin = (): { authorization: string } => ({ authorization: `Bearer ${description.adminToken}` });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'greenroom-sandbox-cli-'));
  server = spawn(TSX, [CLI, '--port', '0'], {
    env: cleanEnv({ GREENROOM_DATA_DIR: dataDir }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run sandbox', () => {
  it('prints its description as the first stdout line', () => {
    expect(description).toMatchObject({
      authUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      apiUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      adminUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      adminToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
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
    const root = await call(description.adminUrl, 'GET', '/', { headers: admin() });
    expect(root.status).toBe(200);
    expect(root.json).toMatchObject(description);
    expect((await call(description.adminUrl, 'GET', '/')).status).toBe(401);
  });

  it('publishes its admin URL and token in the data dir, readable by the user only', () => {
    const file = join(dataDir, STANDALONE_SANDBOX_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const published = JSON.parse(readFileSync(file, 'utf8')) as { pid: number };
    // tsx runs the script in a child process: the pid is that process's, alive while the sandbox runs.
    expect(published).toEqual({
      adminUrl: description.adminUrl,
      adminToken: description.adminToken,
      pid: expect.any(Number),
    });
    expect(() => process.kill(published.pid, 0)).not.toThrow();
  });

  it('fires an event with the trigger subcommand, the sandbox named by the environment', async () => {
    const result = await runCli(['trigger', 'chat.message.sent', '--duplicate', 'content=hello from the cli'], {
      GREENROOM_DATA_DIR: join(dataDir, 'elsewhere'),
      GREENROOM_SANDBOX_ADMIN_URL: description.adminUrl,
      GREENROOM_SANDBOX_ADMIN_TOKEN: description.adminToken,
    });
    expect(result.code, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout);
    expect(answer).toMatchObject({ fired: 1, events: [{ type: 'chat.message.sent', delivery: { duplicates: 1 } }] });
    const chat = await call(description.adminUrl, 'GET', `/channels/${description.broadcasterUserId}/chat`, {
      headers: admin(),
    });
    expect((chat.json.messages as { content: string }[]).at(-1)).toMatchObject({ content: 'hello from the cli' });
  }, 30_000);

  it('finds the running sandbox without flags', async () => {
    const result = await runCli(['trigger', 'channel.followed']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ fired: 1 });
    expect(result.stderr).toContain(`using the running npm run sandbox at ${description.adminUrl}`);
  }, 30_000);

  it('advances the clock with the advance subcommand, taking the token of the sandbox at --admin-url', async () => {
    const before = (await call(description.adminUrl, 'GET', '/clock', { headers: admin() })).json.now_ms as number;
    const result = await runCli(['advance', '3600', '--admin-url', description.adminUrl]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).now_ms - before).toBeGreaterThanOrEqual(3_600_000);
  }, 30_000);

  it('says so when the admin API refuses a wrong token', async () => {
    const result = await runCli(['advance', '1', '--admin-url', description.adminUrl, '--admin-token', 'wrong']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(/^sandbox: refused \(HTTP 401\): the admin API needs its token/);
  }, 30_000);

  it('says plainly when no sandbox is running, ignoring a stale file', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'greenroom-sandbox-none-'));
    try {
      const none = await runCli(['scenario', 'chat-storm'], { GREENROOM_DATA_DIR: empty });
      expect(none.code).toBe(1);
      expect(none.stdout).toBe('');
      expect(none.stderr.trim()).toBe(
        `sandbox: no running Greenroom app or npm run sandbox found in ${empty}; start one, ` +
          'or pass --admin-url and --admin-token',
      );
      // A file left by a sandbox that was killed: its process is gone, so it is not used.
      const deadPid = 2 ** 22 + 12_345; // above Linux's pid_max ceiling, so no process can have it
      writeFileSync(
        join(empty, 'sandbox.json'),
        JSON.stringify({ adminUrl: description.adminUrl, adminToken: description.adminToken, pid: deadPid }),
      );
      const stale = await runCli(['scenario', 'chat-storm'], { GREENROOM_DATA_DIR: empty });
      expect(stale.code).toBe(1);
      expect(stale.stderr).toContain(`its process ${deadPid} is gone`);
      expect(stale.stderr).toContain('no running Greenroom app or npm run sandbox found');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
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
    expect(result.stderr.trim()).toBe(
      'sandbox: refused (HTTP 400): broadcaster_user_id: no channel for broadcaster 424242',
    );
  }, 30_000);

  it('exits 2 with one line on bad arguments, and prints usage on --help', async () => {
    const bad = await runCli(['trigger', 'chat.message.sent', '--count', 'many']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr.trim().split('\n')).toEqual([
      'sandbox: --count: expected an integer from 1, got "many" (see --help)',
    ]);
    // The admin API's own limit, said at the flag before anything is sent.
    const fast = await runCli(['trigger', 'chat.message.sent', '--count', '2400', '--rate', '400']);
    expect(fast.code).toBe(2);
    expect(fast.stderr.trim().split('\n')).toEqual([
      'sandbox: --rate: expected a number above 0 up to 100, got "400" (see --help)',
    ]);
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage:/);
  }, 30_000);

  it('closes cleanly on SIGINT and removes its file', async () => {
    server.kill('SIGINT');
    const result = await serverExit;
    expect(result.code).toBe(0);
    await expect(call(description.adminUrl, 'GET', '/')).rejects.toThrow();
    expect(existsSync(join(dataDir, STANDALONE_SANDBOX_FILE))).toBe(false);
  }, 30_000);
});
