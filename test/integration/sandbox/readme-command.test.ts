/**
 * The README's command for starting a standalone sandbox, run exactly as written there (through npm and a
 * shell): the first line on stdout is the JSON description, nothing before it. npm prints its own
 * `> greenroom@… sandbox` banner on stdout for `npm run` unless told to be silent, so the command the README
 * gives must be one that keeps stdout clean.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxDescription } from '../../../sandbox/index';
import { call } from '../../helpers/sandbox';

/** The README's line that promises the JSON first: the command before its `#` comment. */
function readmeServeCommand(): string {
  const readme = readFileSync('README.md', 'utf8');
  const line = readme.split('\n').find((l) => /^npm run .*sandbox -- --port 0\b/.test(l) && /JSON/.test(l));
  if (!line) {
    throw new Error('README.md has no `npm run … sandbox -- --port 0` line that mentions its JSON');
  }
  return line.split('#')[0]!.trim();
}

let child: ChildProcess | null = null;
let dataDir: string | null = null;

afterEach(async () => {
  const running = child;
  child = null;
  if (running && running.exitCode === null && running.signalCode === null) {
    const exited = new Promise((resolve) => running.once('close', resolve));
    // The shell leads its own process group (detached): SIGINT to the group reaches npm and the sandbox,
    // as Ctrl+C does; whatever is left after a while is killed.
    process.kill(-running.pid!, 'SIGINT');
    const timer = setTimeout(() => process.kill(-running.pid!, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  if (dataDir) {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

describe('the README command for a standalone sandbox', () => {
  it('prints the JSON description as the very first line of stdout', async () => {
    const command = readmeServeCommand();
    expect(command).toMatch(/^npm run (-s |--silent )?sandbox -- --port 0$/);
    dataDir = mkdtempSync(join(tmpdir(), 'greenroom-readme-sandbox-'));
    const env: NodeJS.ProcessEnv = { ...process.env, GREENROOM_DATA_DIR: dataDir };
    // The test runner itself may run under npm, which exports its settings to children; a user's shell has none.
    for (const key of Object.keys(env)) {
      if (key.toLowerCase().startsWith('npm_config_')) {
        delete env[key];
      }
    }
    child = spawn('sh', ['-c', command], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    // Every stdout line up to the first that looks like JSON (by then the sandbox runs and can be stopped).
    const lines = await new Promise<string[]>((resolve, reject) => {
      let out = '';
      child!.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const seen = out.split('\n').slice(0, -1);
        const json = seen.findIndex((l) => l.startsWith('{'));
        if (json >= 0) {
          resolve(seen.slice(0, json + 1));
        }
      });
      child!.once('close', (code) => reject(new Error(`exited with ${code} before its JSON: ${JSON.stringify(out)}`)));
    });
    expect(lines.slice(0, -1), 'stdout before the JSON').toEqual([]);
    const firstLine = lines[0]!;
    const description = JSON.parse(firstLine) as SandboxDescription;
    expect(description).toMatchObject({
      apiUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      adminUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      adminToken: expect.any(String),
    });
    expect((await call(description.apiUrl, 'GET', '/public/v1/public-key')).status).toBe(200);
  }, 60_000);
});
