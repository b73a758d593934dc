/**
 * Debian's real OBS Studio, headless, for the tests that must talk to the real thing
 * (docs/obs.md#testing-against-a-real-obs): its own Xvfb display, a fresh HOME with a clean profile and
 * scene collection, its own port and password, started and waited for until its websocket identifies.
 *
 * OBS costs about a quarter of a core idle and more while recording, on a machine shared by every test:
 * each harness stops what it started on `close()`, and a watchdog plus an exit hook kill OBS and Xvfb when
 * the test process ends any other way (a failed test, a timeout, a killed worker).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { OBSWebSocket } from 'obs-websocket-js/json';
import { freePort } from './free-port';
import {
  OBS_COLLECTION,
  OBS_PROFILE,
  obsConfigDir,
  writeObsCollection,
  writeObsGlobalAndProfile,
} from './obs-profile/obs-config';

/** How long OBS may take to answer on its websocket (measured 2.3–3.9 s idle; a busy CI machine is slower). */
const READY_DEADLINE_MS = 40_000;
const POLL_MS = 300;
/** SIGTERM stops OBS in 0.1–0.3 s (docs/obs.md#obs-wire-facts); past this it is killed. */
const STOP_GRACE_MS = 5_000;

export interface ObsProcessOptions {
  /** The websocket password: a random one when absent, none at all (no auth) when null. */
  password?: string | null;
  /** The websocket port: a free loopback port when absent. */
  port?: number;
}

export interface ObsProcess {
  /** `ws://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Null when OBS asks for no password. */
  readonly password: string | null;
  /** The X display OBS draws on, `:N` (a Chromium window on it can be captured by `xshm_input`). */
  readonly display: string;
  /** OBS's HOME (its config is under `.config/obs-studio`). */
  readonly home: string;
  /** Where OBS writes recordings. */
  readonly recordingDir: string;
  /** SIGKILL: OBS crashed. Resolves once it is gone. */
  kill(): Promise<void>;
  /** SIGTERM: OBS quit. Resolves once it is gone. */
  stop(): Promise<void>;
  /** Starts OBS again (after kill or stop, or stopping it first) on the same HOME, port, password and display. */
  restart(options?: { freshCollection?: boolean }): Promise<void>;
  /** Stops OBS and Xvfb and removes the temp dir. */
  close(): Promise<void>;
}

function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, command)));
}

/** One line saying why tests that need OBS are skipped here, or null when OBS can run. */
export function obsSkipReason(): string | null {
  const missing = ['obs', 'Xvfb'].filter((command) => !onPath(command));
  if (missing.length === 0) {
    return null;
  }
  return `OBS Studio is not installed (missing ${missing.join(', ')}; apt obs-studio xvfb xauth libgl1-mesa-dri); skipped`;
}

/** Everything any harness in this process started, killed when the process exits however it exits. */
const live = new Set<{ pids: () => number[]; dir: string }>();
let exitHookInstalled = false;

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) {
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

function installExitHook(): void {
  if (exitHookInstalled) {
    return;
  }
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const entry of live) {
      for (const pid of entry.pids()) {
        killGroup(pid, 'SIGKILL');
      }
      rmSync(entry.dir, { recursive: true, force: true });
    }
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve();
  }
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** The last lines of what OBS wrote: its own log file when it made one, else its stdout and stderr. */
function logTail(home: string, outputFile: string, lines = 20): string {
  const logs = join(obsConfigDir(home), 'logs');
  let file = outputFile;
  if (existsSync(logs)) {
    const newest = readdirSync(logs)
      .map((name) => join(logs, name))
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
    file = newest ?? outputFile;
  }
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const tail = text.trimEnd().split('\n').slice(-lines).join('\n');
  return tail === '' ? '(OBS wrote nothing)' : `last lines of ${file}:\n${tail}`;
}

/** Starts Xvfb on a display it picks itself (`-displayfd`: no race with another harness for a number). */
async function startXvfb(): Promise<{ child: ChildProcess; display: string }> {
  const child = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x720x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const display = await new Promise<string>((resolve, reject) => {
    let out = '';
    const fd3 = child.stdio[3] as NodeJS.ReadableStream;
    fd3.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) {
        resolve(`:${out.trim()}`);
      }
    });
    child.once('error', (error) => reject(new Error(`Xvfb could not start: ${error.message}`)));
    child.once('exit', (code) =>
      reject(new Error(`Xvfb exited (${code}) before it chose a display: ${stderr.trim()}`)),
    );
  });
  child.removeAllListeners('exit');
  return { child, display };
}

/** Polls OBS's websocket until it identifies, OBS exits, or the deadline passes. */
async function waitIdentified(url: string, password: string | null, obs: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_DEADLINE_MS;
  let lastError = 'no answer yet';
  while (Date.now() < deadline) {
    if (obs.exitCode !== null || obs.signalCode !== null) {
      throw new Error(`OBS exited (${obs.exitCode ?? obs.signalCode}) before its websocket answered`);
    }
    const client = new OBSWebSocket();
    try {
      await client.connect(url, password ?? undefined);
      await client.call('GetVersion');
      await client.disconnect();
      return;
    } catch (error) {
      lastError =
        error instanceof Error && error.message
          ? error.message
          : `close code ${String((error as { code?: unknown }).code)}`;
      await client.disconnect().catch(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new Error(`OBS's websocket did not identify within ${READY_DEADLINE_MS / 1000} s (last: ${lastError})`);
}

/** Starts Xvfb and OBS on a fresh HOME and resolves once OBS's websocket identifies. */
export async function startObs(options: ObsProcessOptions = {}): Promise<ObsProcess> {
  const reason = obsSkipReason();
  if (reason !== null) {
    throw new Error(reason);
  }
  installExitHook();
  const dir = mkdtempSync(join(tmpdir(), 'greenroom-obs-'));
  const home = join(dir, 'home');
  const recordingDir = join(dir, 'recordings');
  const outputFile = join(dir, 'obs-output.log');
  const port = options.port ?? (await freePort());
  const password = options.password === undefined ? randomBytes(12).toString('base64url') : options.password;
  const url = `ws://127.0.0.1:${port}`;
  writeObsGlobalAndProfile({ home, port, password, recordingDir });
  writeObsCollection(home);

  let xvfb: ChildProcess | null = null;
  let obs: ChildProcess | null = null;
  let watchdog: ChildProcess | null = null;
  const entry = { pids: () => [obs?.pid, xvfb?.pid, watchdog?.pid].filter((p) => p !== undefined), dir };
  live.add(entry);

  async function launch(): Promise<void> {
    const args = [
      '--multi',
      '--disable-updater',
      '--disable-missing-files-check',
      '--profile',
      OBS_PROFILE,
      '--collection',
      OBS_COLLECTION,
      '--websocket_port',
      String(port),
      ...(password === null ? [] : ['--websocket_password', password]),
    ];
    const out = openSync(outputFile, 'a');
    obs = spawn('obs', args, {
      cwd: dir,
      detached: true,
      stdio: ['ignore', out, out],
      env: {
        ...process.env,
        HOME: home,
        DISPLAY: display,
        LIBGL_ALWAYS_SOFTWARE: '1',
        XDG_CONFIG_HOME: join(home, '.config'),
      },
    });
    closeSync(out);
    const child = obs;
    writeFileSync(join(dir, 'obs.pid'), String(child.pid));
    try {
      await waitIdentified(url, password, child);
    } catch (error) {
      killGroup(child.pid, 'SIGKILL');
      await exited(child);
      throw new Error(`${(error as Error).message}\n${logTail(home, outputFile)}`, { cause: error });
    }
  }

  async function end(signal: NodeJS.Signals): Promise<void> {
    const child = obs;
    if (child === null) {
      return;
    }
    killGroup(child.pid, signal);
    const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), STOP_GRACE_MS);
    await exited(child);
    clearTimeout(timer);
    obs = null;
  }

  let display = '';
  try {
    const started = await startXvfb();
    xvfb = started.child;
    display = started.display;
    // Kills OBS and Xvfb if this process dies without running its exit hook (SIGKILL, an OOM kill).
    watchdog = spawn(
      'sh',
      [
        '-c',
        'while kill -0 "$1" 2>/dev/null; do sleep 2; done; kill -9 -"$(cat "$3/obs.pid")" -"$2" 2>/dev/null; rm -rf "$3"',
        'watchdog',
        String(process.pid),
        String(xvfb.pid),
        dir,
      ],
      { detached: true, stdio: 'ignore' },
    );
    watchdog.unref();
    await launch();
  } catch (error) {
    await close();
    throw error;
  }

  async function close(): Promise<void> {
    await end('SIGTERM');
    killGroup(xvfb?.pid, 'SIGKILL');
    if (xvfb) {
      await exited(xvfb);
    }
    killGroup(watchdog?.pid, 'SIGKILL');
    live.delete(entry);
    rmSync(dir, { recursive: true, force: true });
  }

  return {
    url,
    port,
    password,
    display,
    home,
    recordingDir,
    kill: () => end('SIGKILL'),
    stop: () => end('SIGTERM'),
    async restart(restartOptions = {}) {
      await end('SIGTERM');
      if (restartOptions.freshCollection) {
        writeObsCollection(home);
      }
      await launch();
    },
    close,
  };
}
