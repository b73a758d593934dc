/**
 * Small helper processes for the whole-app benchmarks, each a plain Node script in its own process (so it
 * never shares an event loop with what it measures), talking over stdin/stdout one line at a time:
 * - the verify-only floor: a node:http server that reads the body, verifies the RSA signature once and
 *   answers 200, beside a bare responder that verifies nothing (for scale), and the durable floor: the least
 *   a receiver that keeps the journal's promise must do (verify, parse, one group-committed write and
 *   `fdatasync` before the 200; docs/decisions.md, "The durable floor");
 * - a dock: one panel connected over the panel server's WebSocket, counting the events pushed to it.
 */
import { appNodeEnv } from '../../scripts/app-node-flags.mjs';
import { appNode } from './app-node';
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ROOT } from './app-process';
import { startedProcess } from './started';

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
  const child: ChildProcess = spawn(appNode(), ['-e', script], {
    cwd: ROOT,
    // The app's environment too (one malloc arena), so the floors differ from the app only in the work they do.
    env: { ...appNodeEnv(), ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  startedProcess(child);
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
const fs = require('node:fs');
const { createPublicKey, verify } = require('node:crypto');
const key = createPublicKey(process.env.FLOOR_PUBLIC_KEY);
const verified = (req, body) => {
  const id = String(req.headers['kick-event-message-id']);
  const ts = String(req.headers['kick-event-message-timestamp']);
  const signed = Buffer.concat([Buffer.from(id + '.' + ts + '.'), body]);
  const signature = Buffer.from(String(req.headers['kick-event-signature']), 'base64');
  // The key alone, as the app verifies (docs/decisions.md#the-app-over-the-durable-floor).
  return verify('sha256', signed, key, signature);
};
const answer = (res, status) => {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': '2' });
  res.end(status === 200 ? 'OK' : 'NO');
};
// The durable floor's journal: lines queued in one turn go out in one write and one fdatasync, and each
// delivery is answered only after the fdatasync that covers it, as the app's journal does.
const fd = fs.openSync(process.env.FLOOR_JOURNAL_FILE, 'a');
let queued = [], flushing = false;
const flush = () => {
  const batch = queued;
  queued = [];
  const bytes = Buffer.concat(batch.map((q) => q.line));
  fs.write(fd, bytes, 0, bytes.length, null, (writeError) => {
    const settle = (error) => {
      for (const q of batch) answer(q.res, error ? 500 : 200);
      if (queued.length > 0) setImmediate(flush); else flushing = false;
    };
    if (writeError) settle(writeError); else fs.fdatasync(fd, settle);
  });
};
const serve = (kind) => http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    if (kind === 'bare') return answer(res, 200);
    if (!verified(req, body)) return answer(res, 400);
    if (kind === 'floor') return answer(res, 200);
    const event = JSON.parse(body.toString('utf8'));
    const record = { id: req.headers['kick-event-message-id'], type: req.headers['kick-event-type'], event };
    queued.push({ line: Buffer.from(JSON.stringify(record) + '\\n'), res });
    if (!flushing) { flushing = true; setImmediate(flush); }
  });
});
const servers = ['floor', 'bare', 'durable'].map(serve);
let listening = 0;
for (const server of servers) server.listen(0, '127.0.0.1', () => {
  if (++listening === servers.length) process.stdout.write(servers.map((s) => s.address().port).join(' ') + '\\n');
});
`;

export interface FloorProcess {
  /** Read the body, verify once, answer. */
  floorUrl: string;
  /** Read the body and answer, for scale. */
  bareUrl: string;
  /** The floor plus a parse and a durable, group-committed journal line before the 200. */
  durableUrl: string;
  pid: number | undefined;
  close: () => Promise<void>;
}

/** The floors and the bare responder, on their own ports in one process; the journal goes in `journalFile`. */
export async function startFloorProcess(publicKeyPem: string, journalFile: string): Promise<FloorProcess> {
  const side = await startScript(FLOOR_SCRIPT, { FLOOR_PUBLIC_KEY: publicKeyPem, FLOOR_JOURNAL_FILE: journalFile });
  const [floor, bare, durable] = side.greeting.split(' ');
  const url = (port: string | undefined): string => `http://127.0.0.1:${port}/kick/webhook`;
  return {
    floorUrl: url(floor),
    bareUrl: url(bare),
    durableUrl: url(durable),
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
