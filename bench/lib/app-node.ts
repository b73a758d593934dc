/**
 * The Node the app's main process runs on. The desktop app runs on Electron 45, whose Node is 24; the benchmarks
 * stand it in with the project's Node 24 (`scripts/ensure-node24.sh`), whatever Node runs the bench runner
 * itself (the system's may be 20). A figure about what main pays is measured on it: the whole app's storms, the
 * history (which needs its `node:sqlite`) and the rule engine's own time per message (bench/README.md).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchResult } from '../types';

/** Node's major version on Electron 45, the app's runtime. */
export const APP_NODE_MAJOR = 24;

let path: string | null = null;

/** The path of the project's Node 24, installed into `.tools/` on first use. */
export function appNode(): string {
  const script = fileURLToPath(new URL('../../scripts/ensure-node24.sh', import.meta.url));
  path ??= execFileSync('bash', [script], { encoding: 'utf8' }).trim().split('\n').at(-1)!;
  return path;
}

/** Whether this process already runs on the app's Node major. */
export function onAppNodeAlready(): boolean {
  return Number(process.versions.node.split('.')[0]) === APP_NODE_MAJOR;
}

/**
 * Runs the bench module at `moduleUrl` again on the app's Node, with `childEnv` set to 1, and reads back what it
 * prints as its last line of standard output (JSON). The module prints it when it sees `childEnv`.
 */
export function onAppNode<T>(moduleUrl: string, childEnv: string, what: string): T {
  const tsx = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));
  const child = spawnSync(appNode(), [tsx, fileURLToPath(moduleUrl)], {
    env: { ...process.env, [childEnv]: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (child.error || child.status !== 0) {
    const why = child.error?.message ?? `exit ${child.status ?? child.signal}`;
    throw new Error(`${what} on Node ${APP_NODE_MAJOR} failed (${why})`);
  }
  const last = child.stdout.trim().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(last) as T;
  } catch {
    throw new Error(
      `${what} on Node ${APP_NODE_MAJOR} printed no figures (last line: ${JSON.stringify(last.slice(0, 200))})`,
    );
  }
}

/** `onAppNode` for a module that prints its figures. */
export function figuresOnAppNode(moduleUrl: string, childEnv: string, what: string): BenchResult[] {
  return onAppNode<BenchResult[]>(moduleUrl, childEnv, what);
}
