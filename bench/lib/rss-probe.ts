/**
 * Where the app's memory goes in a chat storm (docs/decisions.md, "Where the app's memory goes in a chat storm"):
 * `npx tsx bench/lib/rss-probe.ts`. Not a benchmark module, it judges nothing: it starts the built app on Node 24
 * with its inspector on loopback, signs it in, turns Kick's live chat connection on, puts a sandbox stream live (so
 * the history writes every line), and sends chat through the embedded sandbox's admin API at 400 lines a second in
 * batches. Before and after the storm it prints the app's resident memory and `process.memoryUsage()` asked over
 * the inspector, read plainly and after a full collection. `GREENROOM_RSS_PROBE_LINES` sets the storm's lines
 * (24,000), `GREENROOM_RSS_PROBE_SNAPSHOTS=<prefix>` writes a heap snapshot after the warm-up and after the storm.
 */
import { execFileSync } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { request } from 'undici';
import WebSocket from 'ws';
import { freePort } from '../../test/helpers/free-port';
import { adminCall, type AdminApi, ROOT, startAppProcess } from './app-process';
import { inspectFlag } from './node-inspector';
import { connectPanel, signInOverPanel } from './panel-client';

const LINES = Number(process.env.GREENROOM_RSS_PROBE_LINES ?? 24_000);
const SNAPSHOTS = process.env.GREENROOM_RSS_PROBE_SNAPSHOTS;
const RATE = 400;
/** Lines per admin call: the sandbox takes at most 1,000 at once. */
const BATCH = 100;

const note = (line: string): void => console.error(`rss-probe: ${line}`);
const mb = (bytes: number): string => (bytes / 1_048_576).toFixed(1);
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function rssMbOf(pid: number): number {
  const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

interface Inspector {
  call(method: string, params?: Record<string, unknown>): Promise<{ result?: unknown; error?: { message: string } }>;
  onEvent(listener: (method: string, params: Record<string, unknown>) => void): void;
  close(): void;
}

async function openInspector(port: number): Promise<Inspector> {
  const res = await request(`http://127.0.0.1:${port}/json/list`);
  const targets = (await res.body.json()) as { webSocketDebuggerUrl?: string }[];
  const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl!, { maxPayload: 2 ** 30 });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let nextId = 0;
  const pending = new Map<number, (answer: { result?: unknown; error?: { message: string } }) => void>();
  const listeners: ((method: string, params: Record<string, unknown>) => void)[] = [];
  socket.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString('utf8')) as {
      id?: number;
      method?: string;
      params?: Record<string, unknown>;
      result?: unknown;
      error?: { message: string };
    };
    if (message.id !== undefined) {
      pending.get(message.id)?.(message);
      pending.delete(message.id);
    } else if (message.method) {
      for (const listener of listeners) {
        listener(message.method, message.params ?? {});
      }
    }
  });
  return {
    call: (method, params = {}) =>
      new Promise((resolve) => {
        const id = ++nextId;
        pending.set(id, resolve);
        socket.send(JSON.stringify({ id, method, params }));
      }),
    onEvent: (listener) => listeners.push(listener),
    // An open inspector session keeps the app from exiting: close it before stopping the app.
    close: () => socket.close(),
  };
}

async function reading(inspector: Inspector, pid: number, label: string, collect: boolean): Promise<void> {
  if (collect) {
    await inspector.call('HeapProfiler.collectGarbage');
  }
  const answer = (await inspector.call('Runtime.evaluate', {
    expression: 'JSON.stringify(process.memoryUsage())',
    returnByValue: true,
  })) as { result?: { result?: { value?: string } } };
  const usage = JSON.parse(answer.result?.result?.value ?? '{}') as Record<string, number>;
  note(
    `${label}${collect ? ', after a full collection' : ''}: resident ${rssMbOf(pid).toFixed(1)} MB, heap used ` +
      `${mb(usage.heapUsed ?? NaN)} of ${mb(usage.heapTotal ?? NaN)} MB, external ${mb(usage.external ?? NaN)} MB, ` +
      `array buffers ${mb(usage.arrayBuffers ?? NaN)} MB`,
  );
}

async function snapshot(inspector: Inspector, file: string): Promise<void> {
  const out = createWriteStream(file);
  inspector.onEvent((method, params) => {
    if (method === 'HeapProfiler.addHeapSnapshotChunk') {
      out.write(String(params.chunk));
    }
  });
  await inspector.call('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  await new Promise<void>((resolve) => out.end(resolve));
  note(`heap snapshot: ${file}`);
}

async function storm(admin: AdminApi, lines: number): Promise<void> {
  const start = Date.now();
  for (let sent = 0; sent < lines;) {
    const due = Math.min(lines, Math.floor(((Date.now() - start) / 1000) * RATE));
    while (sent + BATCH <= due || (due === lines && sent < lines)) {
      const count = Math.min(BATCH, lines - sent);
      await adminCall(admin, 'POST', '/trigger/chat.message.sent', { count, chatters: 1000 });
      sent += count;
    }
    await pause(50);
  }
}

async function main(): Promise<void> {
  const node24 = execFileSync('bash', ['scripts/ensure-node24.sh'], { cwd: ROOT, encoding: 'utf8' })
    .trim()
    .split('\n')
    .at(-1)!;
  const port = await freePort();
  const app = await startAppProcess({}, undefined, [inspectFlag(port)], node24);
  let inspector: Inspector | null = null;
  try {
    const pid = app.child.pid!;
    const admin = await app.admin();
    const panel = await connectPanel(app.panelUrl);
    await signInOverPanel(panel, async () => (await app.waitForLine(/^Open this link to continue: (\S+)/))[1]!);
    if (!(await panel.invoke('settings:update', [{ liveSocket: { enabled: true } }])).ok) {
      throw new Error('the app refused to switch Kick’s live chat connection on');
    }
    const startedAt = new Date(Date.now() - 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    await adminCall(admin, 'POST', '/trigger/livestream.status.updated', {
      overrides: { is_live: true, started_at: startedAt },
    });
    inspector = await openInspector(port);
    await storm(admin, 200);
    await pause(5000);
    await reading(inspector, pid, 'after the warm-up', false);
    await reading(inspector, pid, 'after the warm-up', true);
    if (SNAPSHOTS) {
      await snapshot(inspector, `${SNAPSHOTS}-warm.heapsnapshot`);
    }
    await storm(admin, LINES);
    note(`${LINES} lines sent; the panel socket carried ${panel.events.get('kick:event') ?? 0} chat events`);
    // The sandbox's webhook copies trail the socket's lines: let them arrive before reading.
    await pause(15_000);
    await reading(inspector, pid, 'after the storm', false);
    await reading(inspector, pid, 'after the storm', true);
    if (SNAPSHOTS) {
      await snapshot(inspector, `${SNAPSHOTS}-storm.heapsnapshot`);
    }
    await panel.close();
  } finally {
    inspector?.close();
    await app.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
