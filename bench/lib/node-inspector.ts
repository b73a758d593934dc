/**
 * A full garbage collection in another Node process, asked over its inspector (started with
 * `--inspect=127.0.0.1:<port>`). The soak reads the app's resident memory right after one, so the reading is
 * the memory the app keeps, not wherever the collector's saw happened to be (docs/decisions.md, "The soak reads
 * memory after a full collection").
 */
import { request } from 'undici';
import WebSocket from 'ws';

/** Node's flag for an inspector on loopback only, on `port`. */
export const inspectFlag = (port: number): string => `--inspect=127.0.0.1:${port}`;

/** Runs `HeapProfiler.collectGarbage` in the process whose inspector listens on `port`; resolves once done. */
export async function collectGarbage(port: number, timeoutMs = 30_000): Promise<void> {
  const res = await request(`http://127.0.0.1:${port}/json/list`);
  const targets = (await res.body.json()) as { webSocketDebuggerUrl?: string }[];
  const url = targets[0]?.webSocketDebuggerUrl;
  if (!url) {
    throw new Error(`no inspector target on port ${port}`);
  }
  const socket = new WebSocket(url);
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no garbage collection within ${timeoutMs} ms`)), timeoutMs);
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      socket.once('open', () => socket.send(JSON.stringify({ id: 1, method: 'HeapProfiler.collectGarbage' })));
      socket.on('message', (data: Buffer) => {
        const answer = JSON.parse(data.toString('utf8')) as { id?: number; error?: { message: string } };
        if (answer.id !== 1) {
          return;
        }
        clearTimeout(timer);
        if (answer.error) {
          reject(new Error(`collectGarbage: ${answer.error.message}`));
        } else {
          resolve();
        }
      });
    });
  } finally {
    socket.close();
  }
}
