/**
 * `npm run sandbox -- trigger/scenario` against the running app's embedded sandbox, with no flags: the
 * embedded sandbox publishes its admin URL and per-start token in the data dir's `sandbox.json` (0600),
 * the CLI finds it through GREENROOM_DATA_DIR, and the file goes when the sandbox closes. The CLI runs as a
 * real child process; the embedded sandbox is the one the app starts.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../electron/app/config';
import { type EmbeddedSandbox, startEmbeddedSandbox } from '../../../electron/app/embedded-sandbox';
import { openSettings } from '../../../electron/app/settings';
import { systemClock } from '../../../electron/core/clock';
import { APP_SANDBOX_FILE } from '../../../sandbox/discovery';

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run sandbox -- <args>` as the user types it in another terminal: no admin flags or variables. */
function runCli(args: string[], dataDir: string): Promise<Finished> {
  const env: NodeJS.ProcessEnv = { ...process.env, GREENROOM_DATA_DIR: dataDir };
  delete env.GREENROOM_SANDBOX_ADMIN_URL;
  delete env.GREENROOM_SANDBOX_ADMIN_TOKEN;
  const child = spawn('node_modules/.bin/tsx', ['sandbox/cli.ts', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

let dataDir: string;
let embedded: EmbeddedSandbox | null;

async function startEmbedded(): Promise<EmbeddedSandbox> {
  const settings = openSettings(dataDir, { randomBytes });
  const config = resolveConfig({
    env: { GREENROOM_SANDBOX_ACTIVITY: 'off' },
    settings: settings.values(),
    storedClientSecret: null,
    dataDir,
  });
  return startEmbeddedSandbox(config, { clock: systemClock, log: () => undefined });
}

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'greenroom-embedded-discovery-'));
  embedded = null;
});

afterEach(async () => {
  await embedded?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the embedded sandbox's discovery file", () => {
  it('publishes the admin URL and a per-start token, readable by the user only, and removes it on close', async () => {
    embedded = await startEmbedded();
    const file = join(dataDir, APP_SANDBOX_FILE);
    const described = embedded.sandbox.describe();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      adminUrl: described.adminUrl,
      adminToken: described.adminToken,
      pid: process.pid,
    });
    await embedded.close();
    embedded = null;
    expect(existsSync(file)).toBe(false);

    embedded = await startEmbedded();
    const again = JSON.parse(readFileSync(file, 'utf8')) as { adminToken: string };
    expect(again.adminToken).toBe(embedded.sandbox.describe().adminToken);
    expect(again.adminToken).not.toBe(described.adminToken);
  });

  it('lets `npm run sandbox -- trigger` and `scenario` reach the running app without flags', async () => {
    embedded = await startEmbedded();
    const { sandbox } = embedded;
    let emitted = 0;
    sandbox.ctx.state.onEvent(() => (emitted += 1));
    const trigger = await runCli(['trigger', 'chat.message.sent', 'content=from another terminal'], dataDir);
    expect(trigger.code, trigger.stderr).toBe(0);
    expect(JSON.parse(trigger.stdout)).toMatchObject({ fired: 1 });
    expect(trigger.stderr).toContain(`using the running Greenroom app's sandbox at ${sandbox.urls.admin}`);
    const messages = [...sandbox.ctx.state.chatMessages.values()].map((m) => m.content);
    expect(messages).toContain('from another terminal');

    const scenario = await runCli(['scenario', 'raid', '--immediate'], dataDir);
    expect(scenario.code, scenario.stderr).toBe(0);
    const raid = JSON.parse(scenario.stdout) as { scenario: string; fired: number };
    expect(raid.scenario).toBe('raid');
    expect(raid.fired).toBeGreaterThan(0);
    expect(emitted).toBeGreaterThanOrEqual(1 + raid.fired);
  }, 60_000);

  it('says plainly that no app is running once it has closed', async () => {
    embedded = await startEmbedded();
    await embedded.close();
    embedded = null;
    const result = await runCli(['scenario', 'chat-storm'], dataDir);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim()).toBe(
      `sandbox: no running Greenroom app or npm run sandbox found in ${dataDir}; start one, ` +
        'or pass --admin-url and --admin-token',
    );
  }, 30_000);
});
