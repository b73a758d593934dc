/**
 * Greenroom as a streamer runs it without Electron: the built `out/main/panel.js` (what `npm start` falls
 * back to) in its own process, on a data dir the journey chooses, reading nothing from this process but
 * the environment given here, on a Node started with the app's memory settings as the launcher starts it
 * (`scripts/app-node-flags.mjs`). The journey learns the panel's URL, the webhook receiver's and the embedded
 * sandbox's from what the app prints, as a streamer would.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { APP_NODE_FLAGS, appNodeEnv } from '../../scripts/app-node-flags.mjs';
import { exited, OutputLines } from './output-lines';

export const ROOT = join(import.meta.dirname, '..', '..');
const PANEL_JS = join(ROOT, 'out', 'main', 'panel.js');

/** One running app. */
export interface AppRun {
  child: ChildProcess;
  stdout: OutputLines;
  stderr: OutputLines;
  dataDir: string;
  /** The printed panel URL (with its token). */
  panelUrl: string;
  /** The printed `Webhook receiver:` URL. */
  receiverUrl: string;
  /** Stdout lines printed before the panel URL: the start-up notices. */
  notices: string[];
  /** SIGTERM, as Ctrl+C or a service manager would; resolves with how it exited. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL: no chance to flush or close anything. */
  kill(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface AppOptions {
  dataDir: string;
  /** Added to the journey defaults (free ports, no tunnel, no simulated activity). */
  env?: Record<string, string>;
  /**
   * Runs the app through another command (`unshare -m sh -c …` for a read-only or full data dir); the
   * app's command line is appended to `args`.
   */
  wrap?: { command: string; args: string[] };
  /**
   * `24`: runs the app on Node 24 (`scripts/ensure-node24.sh`), as Electron 45 runs it, so what needs a newer Node
   * than the test runner's (the stream history's `node:sqlite`) runs too. Default: the test runner's own Node.
   */
  node?: 'runner' | '24';
}

let node24: string | null = null;

/** The Node 24 binary, installed into `.tools/` on first use (once per test process). */
export function node24Path(): string {
  node24 ??= execFileSync('bash', [join(ROOT, 'scripts', 'ensure-node24.sh')], { cwd: ROOT, encoding: 'utf8' })
    .trim()
    .split('\n')
    .at(-1)!;
  return node24;
}

/** Every process a journey started and has not seen exit, so a failed journey leaves none behind. */
const running = new Set<ChildProcess>();

/** Kills whatever a journey left running (call in afterEach/afterAll). */
export async function killLeftovers(): Promise<void> {
  const left = [...running];
  for (const child of left) {
    child.kill('SIGKILL');
  }
  await Promise.all(left.map((child) => exited(child)));
}

/** The environment without this shell's own Greenroom or Electron settings. */
export function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('GREENROOM_') && !key.startsWith('ELECTRON_')) {
      env[key] = value;
    }
  }
  return { ...env, ...extra };
}

/** Starts a tracked child process with line readers on both streams. */
export function spawnTracked(
  command: string,
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; stdout: OutputLines; stderr: OutputLines } {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return { child, stdout: new OutputLines(child.stdout), stderr: new OutputLines(child.stderr) };
}

/** Starts the built app and waits until it prints its panel and receiver URLs (or fails, with its output). */
export async function startApp(options: AppOptions): Promise<AppRun> {
  const env = appNodeEnv(
    cleanEnv({
      GREENROOM_DATA_DIR: options.dataDir,
      GREENROOM_PANEL_PORT: '0',
      GREENROOM_WEBHOOK_PORT: '0',
      GREENROOM_TUNNEL: 'off',
      GREENROOM_SANDBOX_ACTIVITY: 'off',
      ...options.env,
    }),
  ) as Record<string, string>;
  const appArgs = [options.node === '24' ? node24Path() : process.execPath, ...APP_NODE_FLAGS, PANEL_JS];
  const { child, stdout, stderr } = options.wrap
    ? spawnTracked(options.wrap.command, [...options.wrap.args, ...appArgs], env)
    : spawnTracked(appArgs[0]!, appArgs.slice(1), env);
  const describe = (): string => `stdout:\n${stdout.lines.join('\n')}\nstderr:\n${stderr.lines.join('\n')}`;
  const exit = exited(child).then(({ code, signal }) => {
    throw new Error(`the app exited (${code ?? signal}) before it was up; ${describe()}`);
  });
  const panel = await Promise.race([stdout.waitFor(/^Greenroom panel: (\S+)$/, { describe }), exit]);
  const receiver = await Promise.race([stdout.waitFor(/^Webhook receiver: (\S+)$/, { describe }), exit]);
  exit.catch(() => undefined);
  const panelIndex = stdout.lines.findIndex((line) => line.startsWith('Greenroom panel: '));
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(name);
    }
    return exited(child);
  };
  return {
    child,
    stdout,
    stderr,
    dataDir: options.dataDir,
    panelUrl: panel[1]!,
    receiverUrl: receiver[1]!,
    notices: stdout.lines.slice(0, panelIndex),
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
  };
}
