/**
 * Small helper processes for the whole-app benchmarks, each a plain Node script in its own process (so it
 * never shares an event loop with what it measures), talking over stdin/stdout one line at a time:
 * - the verify-only floor: a node:http server that reads the body, verifies the RSA signature once and
 *   answers 200, beside a bare responder that verifies nothing (for scale);
 * - a dock: one panel connected over the panel server's WebSocket, counting the events pushed to it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ROOT } from './app-process';

export interface SideProcess {
  /** The first line the script printed (its ports, or `ready`). */
  greeting: string;
  /** Its process id (for CPU accounting, `process-cpu.ts`). */
  pid: number | undefined;
  /** Writes one line and resolves with the next line the script prints. */
  ask(line: string): Promise<string>;
  close(): Promise<void>;
}

async function startScript(script: string, env: Record<string, string>): Promise<SideProcess> {
  // cwd is the repository, so the script's require('ws') finds the project's copy.
  const child: ChildProcess = spawn(process.execPath, ['-e', script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: AsyncIterator<string, undefined> = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async (): Promise<string> => {
    const { value, done } = await lines.next();
    if (done) {
      throw new Error('a benchmark helper process exited early');
    }
    return value;
  };
  const greeting = await next();
  return {
    greeting,
    pid: child.pid,
    ask(line) {
      child.stdin!.write(`${line}\n`);
      return next();
    },
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const FLOOR_SCRIPT = `
const http = require('node:http');
const { createPublicKey, verify, constants } = require('node:crypto');
const key = createPublicKey(process.env.FLOOR_PUBLIC_KEY);
const serve = (check) => http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let ok = true;
    if (check) {
      const id = String(req.headers['kick-event-message-id']);
      const ts = String(req.headers['kick-event-message-timestamp']);
      const signed = Buffer.concat([Buffer.from(id + '.' + ts + '.'), ...chunks]);
      const signature = Buffer.from(String(req.headers['kick-event-signature']), 'base64');
      ok = verify('sha256', signed, { key, padding: constants.RSA_PKCS1_PADDING }, signature);
    }
    res.writeHead(ok ? 200 : 400, { 'content-type': 'text/plain; charset=utf-8', 'content-length': '2' });
    res.end(ok ? 'OK' : 'NO');
  });
});
const floor = serve(true), bare = serve(false);
floor.listen(0, '127.0.0.1', () => bare.listen(0, '127.0.0.1', () =>
  process.stdout.write(floor.address().port + ' ' + bare.address().port + '\\n')));
`;

/** The verify-only floor and the bare responder, on their own ports in one process. */
export async function startFloorProcess(
  publicKeyPem: string,
): Promise<{ floorUrl: string; bareUrl: string; pid: number | undefined; close: () => Promise<void> }> {
  const side = await startScript(FLOOR_SCRIPT, { FLOOR_PUBLIC_KEY: publicKeyPem });
  const [floor, bare] = side.greeting.split(' ');
  return {
    floorUrl: `http://127.0.0.1:${floor}/kick/webhook`,
    bareUrl: `http://127.0.0.1:${bare}/kick/webhook`,
    pid: side.pid,
    close: () => side.close(),
  };
}

const DOCK_SCRIPT = `
const WebSocket = require('ws');
const page = new URL(process.env.DOCK_PANEL_URL);
const socket = new WebSocket('ws://' + page.host + '/ws', { origin: page.origin });
let ready = false, events = 0, bytes = 0;
socket.on('open', () => socket.send(JSON.stringify({ type: 'hello', token: page.searchParams.get('token') })));
socket.on('message', (data) => {
  if (!ready) {
    ready = data.toString().includes('"ready"');
    if (ready) process.stdout.write('ready\\n');
    return;
  }
  // Counted, not parsed: a dock's parsing is the browser's cost, not the app's.
  events++;
  bytes += data.length;
});
socket.on('close', (code) => { process.stderr.write('dock: panel socket closed (' + code + ')\\n'); process.exit(1); });
require('node:readline').createInterface({ input: process.stdin }).on('line', () =>
  process.stdout.write(events + ' ' + bytes + '\\n'));
`;

/** One dock on the panel socket; `counts()` answers the frames (and bytes) pushed to it so far. */
export async function startDockProcess(panelUrl: string): Promise<{
  counts: () => Promise<{ frames: number; bytes: number }>;
  pid: number | undefined;
  close: () => Promise<void>;
}> {
  const side = await startScript(DOCK_SCRIPT, { DOCK_PANEL_URL: panelUrl });
  if (side.greeting !== 'ready') {
    throw new Error(`the dock did not connect: ${side.greeting}`);
  }
  return {
    async counts() {
      const [frames, bytes] = (await side.ask('count')).split(' ').map(Number);
      return { frames: frames!, bytes: bytes! };
    },
    pid: side.pid,
    close: () => side.close(),
  };
}
