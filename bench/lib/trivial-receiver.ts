/**
 * A webhook receiver that does nothing but count and answer 200, in its own process so it never competes
 * with the sender for the sender's event loop. Write `expect <n>` to it and it prints `done <ms>` once n
 * more requests have arrived, `ms` counted from the first of them.
 */
import { appNode } from './app-node';
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { startedProcess } from './started';

const SCRIPT = `
const http = require('node:http');
let target = 0, count = 0, first = 0;
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' });
    res.end('OK');
    if (target > 0) {
      if (count === 0) first = performance.now();
      if (++count === target) { process.stdout.write('done ' + (performance.now() - first) + '\\n'); target = 0; }
    }
  });
});
server.keepAliveTimeout = 10000;
server.listen(0, '127.0.0.1', () => process.stdout.write('port ' + server.address().port + '\\n'));
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  const m = /^expect (\\d+)$/.exec(line);
  if (m) { target = Number(m[1]); count = 0; }
});
`;

export interface TrivialReceiver {
  url: string;
  /** Resolves with the milliseconds from the first to the n-th of the next n requests. */
  expect(n: number): Promise<number>;
  close(): Promise<void>;
}

export async function startTrivialReceiver(path = '/kick/webhook'): Promise<TrivialReceiver> {
  const child: ChildProcess = spawn(appNode(), ['-e', SCRIPT], { stdio: ['pipe', 'pipe', 'inherit'] });
  startedProcess(child);
  const lines: AsyncIterator<string, undefined> = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const first = await lines.next();
  const port = /^port (\d+)$/.exec(String(first.value))?.[1];
  if (!port) {
    child.kill();
    throw new Error(`the trivial receiver did not start: ${String(first.value)}`);
  }
  return {
    url: `http://127.0.0.1:${port}${path}`,
    async expect(n) {
      child.stdin!.write(`expect ${n}\n`);
      const { value, done } = await lines.next();
      const ms = /^done (\S+)$/.exec(String(value))?.[1];
      if (done || ms === undefined) {
        throw new Error('the trivial receiver stopped before counting its requests');
      }
      return Number(ms);
    },
    close: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
