/**
 * Where the app's memory goes in a chat storm (docs/decisions.md, "Where the app's memory goes in a chat storm"):
 * `npx tsx bench/lib/rss-probe.ts`. Not a benchmark module, it judges nothing: it starts the built app with its
 * inspector on loopback and Kick as the chat storm has it (a standalone sandbox in its own process, `storm-sandbox.ts`;
 * `GREENROOM_RSS_PROBE_KICK=embedded` for the app's own), signs it in, turns Kick's live chat connection on, puts a
 * sandbox stream live (so the history writes every line), and sends chat through the sandbox's admin API at 400
 * lines a second in batches. Before and after the storm it prints, asked over the inspector: the app's resident
 * memory, `process.memoryUsage()`, V8's heap spaces (each space's committed and used size: which one grew), the
 * memory outside V8's heap (resident minus the heap's committed pages: malloc's arenas, code, stacks), read plainly
 * and after a full collection; and the storm's CPU and garbage collection time per line (Node's `gc` performance
 * entries). `GREENROOM_RSS_PROBE_LINES` sets the storm's lines (24,000); `GREENROOM_RSS_PROBE_NODE=20` runs the app
 * on this process's Node (20: no history) instead of Node 24; `GREENROOM_RSS_PROBE_AUTOMOD=1` turns the auto-moderation
 * rules of `bench -- automod` on first; `GREENROOM_RSS_PROBE_NODE_ARGS` adds Node flags
 * (space-separated, e.g. `--max-semi-space-size=4`); `GREENROOM_RSS_PROBE_SNAPSHOTS=<prefix>` writes a heap
 * snapshot after the warm-up and after the storm; `GREENROOM_RSS_PROBE_ALLOCATIONS=<file>` samples where the storm
 * allocates (V8's sampling heap profiler, every 32 KB, counting what the collector already freed) and prints the
 * 25 places that allocated most; with `GREENROOM_RSS_PROBE_PROMOTED=1` it leaves out what a young collection
 * freed, so it shows what outlived one: what the old generation holds, live or garbage waiting for a full collection.
 */
import { createWriteStream, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { request } from 'undici';
import WebSocket from 'ws';
import { freePort } from '../../test/helpers/free-port';
import { adminCall, type AdminApi, prepareDataDir, startAppProcess } from './app-process';
import { appNode } from './app-node';
import { benchAutomodSettings } from './automod-rules';
import { inspectFlag } from './node-inspector';
import { connectPanel, signInOverPanel } from './panel-client';
import { KICK_EVENT_TYPES } from '../../shared/kick/scopes';
import { processCpuMs } from './process-cpu';
import { residentByKind } from './storm-figures';
import { startStormSandbox, type StormSandbox } from './storm-sandbox';

const LINES = Number(process.env.GREENROOM_RSS_PROBE_LINES ?? 24_000);
const SNAPSHOTS = process.env.GREENROOM_RSS_PROBE_SNAPSHOTS;
const ALLOCATIONS = process.env.GREENROOM_RSS_PROBE_ALLOCATIONS;
const PROMOTED_ONLY = process.env.GREENROOM_RSS_PROBE_PROMOTED === '1';
const NODE = process.env.GREENROOM_RSS_PROBE_NODE ?? '24';
const NODE_ARGS = (process.env.GREENROOM_RSS_PROBE_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
const KICK = process.env.GREENROOM_RSS_PROBE_KICK ?? 'standalone';
const AUTOMOD = process.env.GREENROOM_RSS_PROBE_AUTOMOD === '1';
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
  evaluate<T>(expression: string): Promise<T>;
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
  const call: Inspector['call'] = (method, params = {}) =>
    new Promise((resolve) => {
      const id = ++nextId;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  return {
    call,
    // The expression's value comes back as JSON text: the inspector returns plain values only.
    evaluate: async <T>(expression: string): Promise<T> => {
      const answer = (await call('Runtime.evaluate', {
        expression: `JSON.stringify(${expression})`,
        returnByValue: true,
      })) as { result?: { result?: { value?: string }; exceptionDetails?: { text: string } } };
      if (answer.result?.exceptionDetails) {
        throw new Error(`the app could not evaluate ${expression}: ${answer.result.exceptionDetails.text}`);
      }
      return JSON.parse(answer.result?.result?.value ?? 'null') as T;
    },
    onEvent: (listener) => listeners.push(listener),
    // An open inspector session keeps the app from exiting: close it before stopping the app.
    close: () => socket.close(),
  };
}

/**
 * What the app's process is asked: `process.getBuiltinModule` (Node 20.16 and later) reaches `v8` from the
 * inspector's global scope, where `require` is not defined.
 */
const MEMORY_EXPRESSION = `(() => {
  const v8 = process.getBuiltinModule('v8');
  return {
    usage: process.memoryUsage(),
    heap: v8.getHeapStatistics(),
    spaces: v8.getHeapSpaceStatistics().filter((s) => s.space_size > 0),
  };
})()`;

interface MemoryReading {
  usage: Record<string, number>;
  heap: Record<string, number>;
  spaces: { space_name: string; space_size: number; space_used_size: number; physical_space_size: number }[];
}

async function reading(inspector: Inspector, pid: number, label: string, collect: boolean): Promise<void> {
  if (collect) {
    await inspector.call('HeapProfiler.collectGarbage');
  }
  const { usage, heap, spaces } = await inspector.evaluate<MemoryReading>(MEMORY_EXPRESSION);
  const rss = rssMbOf(pid);
  const outside = rss - (heap.total_physical_size ?? NaN) / 1_048_576;
  note(
    `${label}${collect ? ', after a full collection' : ''}: resident ${rss.toFixed(1)} MB, heap used ` +
      `${mb(usage.heapUsed ?? NaN)} of ${mb(usage.heapTotal ?? NaN)} MB (${mb(heap.total_physical_size ?? NaN)} ` +
      `resident), outside the heap ${outside.toFixed(1)} MB (V8's malloc ${mb(heap.malloced_memory ?? NaN)} MB), ` +
      `external ${mb(usage.external ?? NaN)} MB, array buffers ${mb(usage.arrayBuffers ?? NaN)} MB`,
  );
  note(`  resident by kind (MB): ${residentByKind(pid, (file) => readFileSync(file, 'utf8'))}`);
  note(
    `  spaces (committed/used MB): ${spaces
      .map((space) => `${space.space_name} ${mb(space.space_size)}/${mb(space.space_used_size)}`)
      .join(', ')}`,
  );
}

/** Counts the app's garbage collections and their time from now on (Node's `gc` performance entries). */
const GC_WATCH = `(() => {
  const { PerformanceObserver, constants } = process.getBuiltinModule('perf_hooks');
  const kinds = { [constants.NODE_PERFORMANCE_GC_MINOR]: 'young', [constants.NODE_PERFORMANCE_GC_MAJOR]: 'full',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental', [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak' };
  const tally = (globalThis.__rssProbeGc = {});
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = kinds[entry.detail?.kind ?? entry.kind] ?? 'other';
      const t = (tally[kind] ??= { count: 0, ms: 0 });
      t.count += 1;
      t.ms += entry.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  return true;
})()`;

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

interface SamplingNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}

/**
 * Sums a sampling heap profile's self sizes by function and place, and prints the largest: what the storm
 * allocated, which is what the young generation collects and what survivors promote into the old one.
 */
function printAllocations(head: SamplingNode, lines: number): void {
  const bySite = new Map<string, number>();
  const visit = (node: SamplingNode): void => {
    const { functionName, url, lineNumber } = node.callFrame;
    const site = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|out)\//, '$1/')}:${lineNumber + 1}`;
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    node.children.forEach(visit);
  };
  visit(head);
  const total = [...bySite.values()].reduce((sum, size) => sum + size, 0);
  note(`allocated while sampling: ${(total / lines / 1024).toFixed(1)} KB a line`);
  for (const [site, size] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    note(`  ${(size / lines / 1024).toFixed(2).padStart(6)} KB/line  ${site}`);
  }
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

/** Waits until the sandbox holds `count` event subscriptions (sign-in subscribes after it returns). */
async function subscribed(admin: AdminApi, count: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const { counts } = await adminCall<{ counts: { eventSubscriptions: number } }>(admin, 'GET', '/');
    if (counts.eventSubscriptions >= count) {
      return;
    }
    await pause(100);
  }
  throw new Error('the app did not subscribe to Kick’s events within 30 s');
}

async function main(): Promise<void> {
  const node = NODE === '20' ? process.execPath : appNode();
  const port = await freePort();
  const kick: StormSandbox | null = KICK === 'embedded' ? null : await startStormSandbox();
  const dataDir = kick ? prepareDataDir(kick.appSettings) : undefined;
  const app = await startAppProcess(kick?.appEnv ?? {}, dataDir, [...NODE_ARGS, inspectFlag(port)], node);
  let inspector: Inspector | null = null;
  try {
    const pid = app.child.pid!;
    const admin = kick?.admin ?? (await app.admin());
    const panel = await connectPanel(app.panelUrl);
    await signInOverPanel(panel, async () => (await app.waitForLine(/^Open this link to continue: (\S+)/))[1]!);
    if (!(await panel.invoke('settings:update', [{ liveSocket: { enabled: true } }])).ok) {
      throw new Error('the app refused to switch Kick’s live chat connection on');
    }
    if (AUTOMOD && !(await panel.invoke('settings:update', [{ automod: benchAutomodSettings() }])).ok) {
      throw new Error('the app refused the benchmark’s auto-moderation rules');
    }
    await subscribed(admin, KICK_EVENT_TYPES.length);
    const startedAt = new Date(Date.now() - 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    await adminCall(admin, 'POST', '/trigger/livestream.status.updated', {
      overrides: { is_live: true, started_at: startedAt },
    });
    inspector = await openInspector(port);
    note(`the app on Node ${await inspector.evaluate<string>('process.version')} ${NODE_ARGS.join(' ')}`);
    await storm(admin, 200);
    await pause(5000);
    await reading(inspector, pid, 'after the warm-up', false);
    await reading(inspector, pid, 'after the warm-up', true);
    if (SNAPSHOTS) {
      await snapshot(inspector, `${SNAPSHOTS}-warm.heapsnapshot`);
    }
    await inspector.evaluate(GC_WATCH);
    const cpuBefore = processCpuMs(pid) ?? NaN;
    if (ALLOCATIONS) {
      await inspector.call('HeapProfiler.startSampling', {
        samplingInterval: 32_768,
        includeObjectsCollectedByMajorGC: true,
        // Without those a young collection freed: what outlived one, the old generation's garbage to be.
        includeObjectsCollectedByMinorGC: !PROMOTED_ONLY,
      });
    }
    await storm(admin, LINES);
    note(`${LINES} lines sent; the panel socket carried ${panel.events.get('kick:event') ?? 0} chat events`);
    // The sandbox's webhook copies trail the socket's lines: let them arrive before reading.
    await pause(15_000);
    if (ALLOCATIONS) {
      const answer = (await inspector.call('HeapProfiler.stopSampling')) as {
        result?: { profile: { head: SamplingNode } };
      };
      const profile = answer.result!.profile;
      await writeFile(ALLOCATIONS, JSON.stringify(profile));
      printAllocations(profile.head, LINES);
    }
    const cpuMs = (processCpuMs(pid) ?? NaN) - cpuBefore;
    const gc = await inspector.evaluate<Record<string, { count: number; ms: number }>>('globalThis.__rssProbeGc');
    const gcMs = Object.values(gc).reduce((sum, kind) => sum + kind.ms, 0);
    note(
      `the storm's CPU ${((cpuMs * 1000) / LINES).toFixed(0)} µs a line, of which garbage collection ` +
        `${((gcMs * 1000) / LINES).toFixed(1)} µs (${Object.entries(gc)
          .map(([kind, t]) => `${kind} ${t.count}× ${t.ms.toFixed(0)} ms`)
          .join(', ')})`,
    );
    await reading(inspector, pid, 'after the storm', false);
    await reading(inspector, pid, 'after the storm', true);
    if (SNAPSHOTS) {
      await snapshot(inspector, `${SNAPSHOTS}-storm.heapsnapshot`);
    }
    await panel.close();
  } finally {
    inspector?.close();
    await app.stop();
    await kick?.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
