/**
 * `npm run sandbox -- --state FILE` as a real child process ([sandbox notes](../../../docs/sandbox.md#what-the-saved-world-keeps)):
 * a redemption made and an app token issued in one run are still there in the next (the token as a digest
 * only in the file), and a token and a subscription are there even after a kill -9 right after their answers; without `--state` nothing is written; a file that cannot be used is left as it is, with
 * one line, and the sandbox does not start.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STANDALONE_SANDBOX_FILE } from '../../../sandbox/discovery';
import type { SandboxDescription } from '../../../sandbox/index';
import { STREAMER_USER_ID } from '../../../sandbox/world';

const TSX = 'node_modules/.bin/tsx';
const CLI = 'sandbox/cli.ts';

interface Running {
  child: ChildProcess;
  description: SandboxDescription;
  stderr: () => string;
  /** SIGINT, as Ctrl+C; resolves with the exit code. */
  stop(): Promise<number | null>;
}

let dataDir: string;

/** Runs the CLI and resolves with its first stdout line parsed, or rejects with what it said when it exited. */
function startCli(args: string[]): Promise<Running> {
  const child = spawn(TSX, [CLI, '--port', '0', ...args], {
    env: { ...process.env, GREENROOM_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const lines = createInterface({ input: child.stdout });
  return new Promise((resolve, reject) => {
    lines.once('line', (line) =>
      resolve({
        child,
        description: JSON.parse(line) as SandboxDescription,
        stderr: () => stderr,
        stop: () => {
          child.kill('SIGINT');
          return exited;
        },
      }),
    );
    void exited.then((code) => reject(Object.assign(new Error(`exited ${code}`), { code, stderr })));
  });
}

async function post(url: string, body: Record<string, string> | object, headers: Record<string, string>) {
  const form = headers['content-type'] === 'application/x-www-form-urlencoded';
  const res = await request(url, {
    method: 'POST',
    headers,
    body: form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body),
  });
  return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
}

describe('npm run sandbox -- --state FILE', () => {
  let state: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'greenroom-sandbox-state-'));
    state = join(dataDir, 'world.json');
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps the world and its tokens from one run to the next', async () => {
    const first = await startCli(['--state', state]);
    const { adminUrl, adminToken, authUrl, apiUrl, clientId, clientSecret } = first.description;
    const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
    const made = await post(`${adminUrl}/channels/${STREAMER_USER_ID}/redemptions`, {}, admin);
    expect(made.status).toBe(201);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const grant = { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret };
    const token = (await post(`${authUrl}/oauth/token`, grant, form)).body.access_token as string;
    await expect.poll(() => first.stderr()).toContain(`world         kept in ${state}`);
    expect(await first.stop()).toBe(0);
    const saved = readFileSync(state, 'utf8');
    const redemptionId = (made.body as { id: string }).id;
    expect(saved).toContain(redemptionId);
    expect(saved).not.toContain(token);

    const second = await startCli(['--state', state]);
    await expect.poll(() => second.stderr()).toContain(`world         restored from ${state}`);
    const list = await request(`${second.description.adminUrl}/channels/${STREAMER_USER_ID}/redemptions`, {
      headers: { authorization: `Bearer ${second.description.adminToken}` },
    });
    const { redemptions } = (await list.body.json()) as { redemptions: { id: string }[] };
    expect(redemptions.map((r) => r.id)).toContain(redemptionId);
    const introspect = await post(
      `${second.description.apiUrl}/public/v1/token/introspect`,
      {},
      {
        authorization: `Bearer ${token}`,
      },
    );
    expect(introspect.body).toMatchObject({ data: { active: true } });
    expect(apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:/);
    expect(await second.stop()).toBe(0);
  });

  it('keeps a token and a subscription answered just before a kill -9', async () => {
    const first = await startCli(['--state', state]);
    const { authUrl, apiUrl, clientId, clientSecret } = first.description;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const grant = { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret };
    const token = (await post(`${authUrl}/oauth/token`, grant, form)).body.access_token as string;
    const bearer = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const events = { events: [{ name: 'channel.followed', version: 1 }], method: 'webhook' };
    const made = await post(
      `${apiUrl}/public/v1/events/subscriptions`,
      { ...events, broadcaster_user_id: STREAMER_USER_ID },
      bearer,
    );
    expect(made.status).toBe(200);
    // No Ctrl+C, no chance to save: only what was on disk before the answers survives. The sandbox runs
    // under tsx; its own process is the one it names in its discovery file.
    await expect.poll(() => existsSync(join(dataDir, STANDALONE_SANDBOX_FILE))).toBe(true);
    const { pid } = JSON.parse(readFileSync(join(dataDir, STANDALONE_SANDBOX_FILE), 'utf8')) as { pid: number };
    const gone = new Promise((resolve) => first.child.once('close', resolve));
    process.kill(pid, 'SIGKILL');
    await gone;

    const second = await startCli(['--state', state]);
    try {
      const again = { authorization: `Bearer ${token}` };
      const introspect = await post(`${second.description.apiUrl}/public/v1/token/introspect`, {}, again);
      expect(introspect.body).toMatchObject({ data: { active: true } });
      const list = await request(`${second.description.apiUrl}/public/v1/events/subscriptions`, { headers: again });
      const { data } = (await list.body.json()) as { data: { event: string }[] };
      expect(data.map((sub) => sub.event)).toEqual(['channel.followed']);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it('writes nothing without --state', async () => {
    const run = await startCli([]);
    const admin = { authorization: `Bearer ${run.description.adminToken}`, 'content-type': 'application/json' };
    await post(`${run.description.adminUrl}/channels/${STREAMER_USER_ID}/redemptions`, {}, admin);
    await expect.poll(() => run.stderr()).toContain('world         in memory');
    expect(await run.stop()).toBe(0);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('does not start on a file it cannot use, and leaves the file as it was', async () => {
    writeFileSync(state, '{"version": 1, "apps": [');
    await expect(startCli(['--state', state])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        /the saved sandbox world .*world\.json was damaged \(not valid JSON\); it was left/,
      ),
    });
    expect(readFileSync(state, 'utf8')).toBe('{"version": 1, "apps": [');

    const other = join(dataDir, 'someone-elses.json');
    writeFileSync(other, '{}');
    rmSync(state);
    symlinkSync(other, state);
    await expect(startCli(['--state', state])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('is a link to another place'),
    });
    expect(readFileSync(other, 'utf8')).toBe('{}');
  });
});
