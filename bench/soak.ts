/**
 * The soak: a million events through the whole app, as fast as it answers, to show its memory
 * levels off. The built app runs in its own process (sandbox mode, signed in, file journal, a dock on the
 * panel socket in another process); this process signs deliveries with the embedded sandbox's key (written
 * into the data dir first) a chunk ahead and posts them with 16 in flight: nine in ten chat messages, one
 * in ten follows, every one new to the app.
 * - `core-rss-growth-mb`: the app process's resident memory at the end over the same after the first
 *   100,000 events (`/proc/<pid>/status`). Resident memory saws up and down by 20–40 MB with the garbage
 *   collector's cycles, so a plain reading measures where in a cycle it fell. At both points the senders
 *   are idle (between chunks) and the app is asked for a full collection over its inspector
 *   (`lib/node-inspector.ts`) before the reading: the memory the app keeps, not the garbage it has not yet
 *   collected. Plain readings go to stderr too, the lowest over the next (or last) 5% of the events.
 * - `soak-dedup-memory-mb`: what the app's dedup id memory holds in memory for those ids. The app reports
 *   no such figure, so its `dedup/` directory is reopened here after it stops, with the same code
 *   (`IdMemory`), and asked; the target is the cap `electron/webhooks/dedup/id-memory.ts` states.
 * `GREENROOM_BENCH_SOAK_EVENTS` shortens it for a quick run. Progress goes to stderr every 100,000.
 */
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'undici';
import { toRfc3339Seconds } from '../electron/core/clock';
import { DEFAULT_MAX_MEMORY_BYTES, IdMemory } from '../electron/webhooks/dedup/id-memory';
import { freePort } from '../test/helpers/free-port';
import { samplePayloads, type TestDelivery } from '../test/helpers/webhook-signing';
import { ensureBuilt, prepareDataDir, startAppProcess } from './lib/app-process';
import { connectPanel, signInOverPanel } from './lib/panel-client';
import { collectGarbage, inspectFlag } from './lib/node-inspector';
import { startDockProcess } from './lib/side-process';
import { round, rssMb } from './lib/stats';
import { measuredFigure } from './lib/figures';
import type { BenchFigure, BenchResult } from './types';

const EVENTS = Number(process.env.GREENROOM_BENCH_SOAK_EVENTS ?? 1_000_000);
const BASELINE_EVENTS = Math.min(100_000, Math.floor(EVENTS / 10));
const CHUNK = 2000;
const CONCURRENCY = 16;
/** Longer than any soak: the ids stay within the dedup's retention while it is reopened. */
const RETENTION_MS = 48 * 3_600_000;

const note = (line: string): void => console.error(`soak: ${line}`);

const samples = samplePayloads();

/** Deliveries `from` … `from + count - 1`, signed on the thread pool. */
function signChunk(privateKey: KeyObject, from: number): Promise<TestDelivery[]> {
  const timestamp = toRfc3339Seconds(Date.now());
  const createdAt = new Date().toISOString();
  return Promise.all(
    Array.from({ length: Math.min(CHUNK, EVENTS - from) }, async (_, k) => {
      const i = from + k;
      const follow = i % 10 === 9;
      const type = follow ? 'channel.followed' : 'chat.message.sent';
      const payload = follow
        ? {
            ...samples['channel.followed'],
            follower: { ...samples['channel.followed'].follower, user_id: 7_000_000 + i, username: `soaker${i}` },
          }
        : {
            ...samples['chat.message.sent'],
            message_id: `soak-${i}`,
            content: `soak message ${i} [emote:37226:KEKW] still going strong`,
            created_at: createdAt,
          };
      const messageId = `01SOAK${String(i).padStart(12, '0')}`;
      const body = Buffer.from(JSON.stringify(payload), 'utf8');
      const signature = await new Promise<string>((resolve, reject) =>
        sign('sha256', Buffer.concat([Buffer.from(`${messageId}.${timestamp}.`), body]), privateKey, (error, sig) =>
          error ? reject(error) : resolve(sig.toString('base64')),
        ),
      );
      return {
        messageId,
        timestamp,
        body,
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          'User-Agent': 'Go-http-client/1.1',
          'Kick-Event-Message-Id': messageId,
          'Kick-Event-Subscription-Id': '01SOAKSUBSCR1PT10N000000000',
          'Kick-Event-Signature': signature,
          'Kick-Event-Message-Timestamp': timestamp,
          'Kick-Event-Type': type,
          'Kick-Event-Version': '1',
        },
      };
    }),
  );
}

/** What `run` gives, printed as NaN with the reason when the module cannot run (bench/run.ts). */
export const figures: BenchFigure[] = [
  { name: 'core-rss-growth-mb', unit: 'MB', target: { op: '<=', value: 20 } },
  // Measured, the unit also names how many ids the memory held at the end.
  { name: 'soak-dedup-memory-mb', unit: 'MB', target: { op: '<=', value: DEFAULT_MAX_MEMORY_BYTES / (1024 * 1024) } },
];

export async function run(): Promise<BenchResult[]> {
  ensureBuilt(note);
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
  const dataDir = prepareDataDir();
  // The embedded sandbox's key file (see bench/webhook-ingest.ts): the app then trusts these signatures.
  writeFileSync(join(dataDir, 'sandbox-signing-key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }), {
    mode: 0o600,
  });
  const port = await freePort();
  const inspectorPort = await freePort();
  const app = await startAppProcess({ GREENROOM_WEBHOOK_PORT: String(port) }, dataDir, [inspectFlag(inspectorPort)]);
  const pid = app.child.pid!;
  const rss = (): number => rssMb(pid, (path) => readFileSync(path, 'utf8'));
  /** Resident memory right after a full collection, the lowest of three readings a moment apart. */
  const keptRss = async (): Promise<number> => {
    await collectGarbage(inspectorPort);
    const kept: number[] = [];
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      kept.push(rss());
    }
    return Math.min(...kept);
  };
  let dock: Awaited<ReturnType<typeof startDockProcess>> | null = null;
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: CONCURRENCY, pipelining: 1 });
  try {
    const panel = await connectPanel(app.panelUrl);
    await signInOverPanel(panel, async () => (await app.waitForLine(/^Open this link to continue: (\S+)/))[1]!);
    await panel.close();
    dock = await startDockProcess(app.panelUrl);

    let accepted = 0;
    /** Resident memory after each chunk, by events accepted. */
    const readings: { at: number; mb: number }[] = [];
    /** Resident memory after a full collection, at the two points the figure compares. */
    let baselineKept: { at: number; mb: number } | null = null;
    let endRss = Number.NaN;
    const started = performance.now();
    let lastReport = started;
    let lastAccepted = 0;
    let next = signChunk(privateKey, 0);
    for (let from = 0; from < EVENTS; from += CHUNK) {
      const chunk = await next;
      // Sign the next chunk while this one is posted.
      next = from + CHUNK < EVENTS ? signChunk(privateKey, from + CHUNK) : Promise.resolve([]);
      let i = 0;
      const worker = async (): Promise<void> => {
        while (i < chunk.length) {
          const d = chunk[i++]!;
          const res = await pool.request({ path: '/kick/webhook', method: 'POST', headers: d.headers, body: d.body });
          const text = await res.body.text();
          if (res.statusCode !== 200) {
            throw new Error(`the app answered ${res.statusCode} to event ${d.messageId}: ${text.slice(0, 200)}`);
          }
          accepted++;
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      readings.push({ at: accepted, mb: rss() });
      if (baselineKept === null && accepted >= BASELINE_EVENTS) {
        baselineKept = { at: accepted, mb: await keptRss() };
      }
      if (accepted === EVENTS) {
        endRss = await keptRss();
      }
      if (accepted % 100_000 === 0 || accepted === EVENTS) {
        const now = performance.now();
        note(
          `${accepted} events, ${Math.round((accepted - lastAccepted) / ((now - lastReport) / 1000))}/s lately, ` +
            `app RSS ${round(rss(), 1)} MB`,
        );
        lastReport = now;
        lastAccepted = accepted;
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const window = Math.max(CHUNK, Math.round(EVENTS * 0.05));
    const lowest = (from: number, to: number): number =>
      Math.min(...readings.filter((r) => r.at >= from && r.at <= to).map((r) => r.mb));
    const baselineRss = baselineKept?.mb ?? Number.NaN;
    const single = (at: number): number => readings.find((r) => r.at >= at)?.mb ?? Number.NaN;
    note(
      `RSS after a full collection ${round(baselineRss, 1)} MB after ${baselineKept?.at} events, ` +
        `${round(endRss, 1)} MB at the end; without one, lowest ${round(lowest(BASELINE_EVENTS, BASELINE_EVENTS + window), 1)} ` +
        `and ${round(lowest(EVENTS - window, EVENTS), 1)} MB, single ${round(single(BASELINE_EVENTS), 1)} and ` +
        `${round(readings.at(-1)?.mb ?? Number.NaN, 1)} MB`,
    );
    const pushed = await dock.counts();
    note(
      `${EVENTS} events in ${round(seconds)} s (${Math.round(EVENTS / seconds)}/s); the dock got ${pushed.frames} frames`,
    );
    await dock.close();
    dock = null;
    await app.stop(true);

    const ids = new IdMemory({ dir: join(dataDir, 'dedup'), retentionMs: RETENTION_MS });
    const stats = ids.stats();
    ids.close();
    note(`dedup: ${stats.ids} ids, ${stats.runs} runs (${stats.spilledRuns} spilled to disk)`);
    return [
      measuredFigure(figures, 'core-rss-growth-mb', round(endRss - baselineRss, 1)),
      // The unit names the ids the memory held at the end.
      {
        ...measuredFigure(figures, 'soak-dedup-memory-mb', round(stats.memoryBytes / (1024 * 1024), 1)),
        unit: `MB for ${stats.ids} ids`,
      },
    ];
  } finally {
    await pool.close();
    await dock?.close();
    await app.stop();
  }
}
