/**
 * A panel that keeps asking the app something trivial (`health:snapshot`) over the panel socket, one
 * request at a time every 2 ms, and times each answer: how long main kept a panel waiting. In its own
 * process, so the load generator's work never delays it (bench/automod-worst-case.ts).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ROOT } from './app-process';
import { startedProcess } from './started';

const PROBE_SCRIPT = `
const WebSocket = require('ws');
const { performance } = require('node:perf_hooks');
const page = new URL(process.env.PROBE_PANEL_URL);
const socket = new WebSocket('ws://' + page.host + '/ws', { origin: page.origin });
let ready = false, running = false, id = 0, sentAt = 0, waits = [];
const ask = () => {
  if (!running) return;
  id++;
  sentAt = performance.now();
  socket.send(JSON.stringify({ type: 'invoke', id, channel: 'health:snapshot', args: [] }));
};
socket.on('open', () => socket.send(JSON.stringify({ type: 'hello', token: page.searchParams.get('token') })));
socket.on('message', (data) => {
  const text = data.toString();
  if (!ready) {
    ready = text.includes('"ready"');
    if (ready) process.stdout.write('ready\\n');
    return;
  }
  if (!text.startsWith('{"type":"result"')) return;
  const frame = JSON.parse(text);
  if (frame.id !== id) return;
  waits.push(performance.now() - sentAt);
  setTimeout(ask, 2);
});
socket.on('close', (code) => { process.stderr.write('probe: panel socket closed (' + code + ')\\n'); process.exit(1); });
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'start') { waits = []; running = true; ask(); process.stdout.write('started\\n'); }
  else { running = false; process.stdout.write(JSON.stringify(waits) + '\\n'); }
});
`;

export interface Probe {
  pid: number | undefined;
  /** Starts asking; answers once it has. */
  start(): Promise<void>;
  /** Stops asking; each answer's wait in ms, in order. */
  stop(): Promise<number[]>;
  close(): Promise<void>;
}

export async function startProbe(panelUrl: string): Promise<Probe> {
  const child = spawn(process.execPath, ['-e', PROBE_SCRIPT], {
    cwd: ROOT,
    env: { ...process.env, PROBE_PANEL_URL: panelUrl },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  startedProcess(child);
  const lines: AsyncIterator<string, undefined> = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<string> => {
    const { value, done } = await lines.next();
    if (done) {
      throw new Error('the probe exited early');
    }
    return value;
  };
  if ((await next()) !== 'ready') {
    throw new Error('the probe did not connect');
  }
  const ask = (line: string): Promise<string> => {
    child.stdin.write(`${line}\n`);
    return next();
  };
  return {
    pid: child.pid,
    start: async () => void (await ask('start')),
    stop: async () => JSON.parse(await ask('stop')) as number[],
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
