/**
 * The chat storm's Kick: a standalone sandbox (`sandbox/cli.ts`) in a process of its own, as the journeys run
 * it, so the app's CPU and event loop carry only what a streamer's app does. Inside the app (sandbox mode) the
 * sandbox signs every webhook (400 RSA signatures a second in a storm), keeps its attempt log and frame log, and
 * serves the live socket on the app's own event loop; real Kick does all of that on Kick's machines
 * ([bench/README.md](../README.md#the-storms-kick-in-its-own-process)).
 *
 * The app is then a Kick-mode app pointed at the sandbox by its environment (the Kick URLs and the app's
 * credentials), with the webhook port and sign-in redirect chosen here and registered with the sandbox before
 * the app starts, and the sandbox as its emote server (as the embedded sandbox is), so no request leaves the
 * machine.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { SandboxDescription } from '../../sandbox/index';
import { freePort } from '../../test/helpers/free-port';
import type { AdminApi } from './app-process';
import { cpuProfileArgs, ROOT } from './app-process';
import { makeTempDir, removeTempDir, startedProcess } from './started';

/**
 * Where the storm's Kick runs: `standalone` (the default, its own process) or `embedded` (inside the app, as
 * before, to compare: `GREENROOM_BENCH_STORM_KICK=embedded`).
 */
export function stormKick(): 'standalone' | 'embedded' {
  const kick = process.env.GREENROOM_BENCH_STORM_KICK ?? 'standalone';
  if (kick !== 'standalone' && kick !== 'embedded') {
    throw new Error(`GREENROOM_BENCH_STORM_KICK must be standalone or embedded, not "${kick}"`);
  }
  return kick;
}

/** The webhook path the app listens on by default (electron/app/config.ts). */
const WEBHOOK_PATH = '/kick/webhook';
/** How long the sandbox may take to print its description (tsx compiles it first). */
const START_TIMEOUT_MS = 60_000;

export interface StormSandbox {
  admin: AdminApi;
  /** Its process id, for CPU accounting (`process-cpu.ts`). */
  pid: number | undefined;
  /** The app's environment for talking to it: the Kick URLs and the app's credentials. */
  appEnv: Record<string, string>;
  /** What the app's settings file must say so the sandbox's registrations match. */
  appSettings: { redirectUri: string; webhookPort: number; emoteHost: string };
  close(): Promise<void>;
}

/** Its first stdout line, the JSON description; rejects with its last words if it exits or stalls first. */
function description(child: ChildProcess, log: string[]): Promise<SandboxDescription> {
  return new Promise((resolve, reject) => {
    const lastWords = (): string =>
      log
        .join('')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .at(-1)
        ?.trim() ?? 'it printed nothing';
    const timer = setTimeout(
      () => reject(new Error(`the storm's sandbox did not start within ${START_TIMEOUT_MS / 1000} s: ${lastWords()}`)),
      START_TIMEOUT_MS,
    );
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (/^\{.*\}$/.test(line)) {
        clearTimeout(timer);
        lines.close();
        resolve(JSON.parse(line) as SandboxDescription);
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`the storm's sandbox exited: ${lastWords()}`));
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`the storm's sandbox could not start: ${error.message}`));
    });
  });
}

/**
 * Starts `sandbox/cli.ts` with sign-in approved at once as the sandbox streamer, no simulated activity, its
 * discovery file in a temp dir of its own (never a streamer's data dir). Everything it starts is on the
 * benchmarks' list (`started.ts`), so a failure anywhere leaves nothing behind.
 */
export async function startStormSandbox(): Promise<StormSandbox> {
  const webhookPort = await freePort();
  const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
  const dir = makeTempDir('greenroom-bench-sandbox-');
  const env: Record<string, string> = { ...(process.env as Record<string, string>), GREENROOM_DATA_DIR: dir };
  // Its own Kick app only: the app's variables must not leak into the sandbox's process.
  for (const name of Object.keys(env).filter(
    (key) => key.startsWith('GREENROOM_KICK_') || key.startsWith('GREENROOM_CLIENT_'),
  )) {
    delete env[name];
  }
  const args = [
    // GREENROOM_BENCH_PROFILE_DIR: the sandbox's profile lands there too, beside the app's.
    ...cpuProfileArgs(),
    '--import',
    'tsx',
    'sandbox/cli.ts',
    '--port',
    '0',
    '--redirect-uri',
    redirectUri,
    '--webhook-url',
    `http://127.0.0.1:${webhookPort}${WEBHOOK_PATH}`,
    '--auto-approve',
  ];
  const child = startedProcess(spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] }));
  const log: string[] = [];
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    log.push(chunk);
    if (log.length > 200) {
      log.splice(0, 100);
    }
  });
  const exit = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
    } else {
      child.once('exit', () => resolve());
      child.once('error', () => resolve());
    }
  });
  const close = async (): Promise<void> => {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
    }
    await exit;
    removeTempDir(dir);
  };
  let described: SandboxDescription;
  try {
    described = await description(child, log);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    admin: { url: described.adminUrl, token: described.adminToken },
    pid: child.pid,
    appEnv: {
      GREENROOM_KICK_API_URL: described.apiUrl,
      GREENROOM_KICK_AUTH_URL: described.authUrl,
      GREENROOM_KICK_SOCKET_URL: described.socketUrl,
      GREENROOM_KICK_WEB_URL: described.webUrl,
      GREENROOM_CLIENT_ID: described.clientId,
      GREENROOM_CLIENT_SECRET: described.clientSecret,
      GREENROOM_WEBHOOK_PORT: String(webhookPort),
    },
    appSettings: { redirectUri, webhookPort, emoteHost: `${new URL(described.apiUrl).origin}/` },
    close,
  };
}
