/**
 * Webhook ingest throughput against the floor the [design notes](../docs/design-notes.md#event-path-the-hot-path)
 * set: verification is the floor, so the rest of the pipeline must stay small beside it.
 *
 * `webhook-ingest-ratio` is measured like a user's machine (issue 10): the whole built app in its own
 * process (`out/main/panel.js` in sandbox mode, signed in, file journal, event bus, services, one dock
 * connected to the panel socket in another process), the verify-only floor (read the body, one RSA
 * verification, 200) in its own process, and this process as the load generator. Both get the same
 * pre-signed chat deliveries, signed with the key the app trusts (the embedded sandbox's signing key,
 * written into the data dir before the app starts), 16 in flight over keep-alive connections. Seven
 * rounds, each measuring both back to back (which goes first alternates); the ratio is the median of the
 * rounds' ratios, the absolute figures the best round of each. The app keeps its dedup memory between
 * rounds, so each round posts deliveries it has not seen.
 *
 * `webhook-ingest-module-ratio` is the receiver module alone (in-memory journal, in this process) against
 * an in-process floor, as before: where the module's own overhead shows without the app around it.
 */
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { systemClock, toRfc3339Seconds } from '../electron/core/clock';
import { createDeliveryDedup } from '../electron/webhooks/dedup';
import { createPublicKeyCache } from '../electron/webhooks/public-key-cache';
import { createWebhookReceiver } from '../electron/webhooks/receiver';
import { MemoryJournal } from '../test/helpers/memory-journal';
import { buildDelivery, createTestKey, samplePayloads, type TestDelivery } from '../test/helpers/webhook-signing';
import { ensureBuilt, prepareDataDir, startAppProcess } from './lib/app-process';
import { freePort } from '../test/helpers/free-port';
import { startFloor } from './lib/floor-receiver';
import { CpuLedger, THIS_PROCESS } from './lib/process-cpu';
import { connectPanel, signInOverPanel } from './lib/panel-client';
import { startDockProcess, startFloorProcess } from './lib/side-process';
import { median } from './lib/stats';
import type { BenchResult } from './types';

/** Deliveries per round. */
const DELIVERIES = 2000;
const CONCURRENCY = 16;
const ROUNDS = 7;

const note = (line: string): void => console.error(`webhook-ingest: ${line}`);

/** Posts every delivery with `CONCURRENCY` in flight; returns deliveries per second. Throws on a non-200. */
async function drive(url: string, deliveries: readonly TestDelivery[]): Promise<number> {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections: CONCURRENCY, pipelining: 1 });
  try {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < deliveries.length) {
        const d = deliveries[next++]!;
        const res = await pool.request({ path: target.pathname, method: 'POST', headers: d.headers, body: d.body });
        const text = await res.body.text();
        if (res.statusCode !== 200) {
          throw new Error(`${url} answered ${res.statusCode} ${text.slice(0, 200)}`);
        }
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return deliveries.length / ((performance.now() - started) / 1000);
  } finally {
    await pool.close();
  }
}

// --- The whole app, in its own process ---

/** `count` chat deliveries with distinct ids and bodies, signed on the thread pool. */
async function signChat(privateKey: KeyObject, count: number, tag: string): Promise<TestDelivery[]> {
  const chat = samplePayloads()['chat.message.sent'];
  const timestamp = toRfc3339Seconds(Date.now());
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const messageId = `01BENCH${tag}${String(i).padStart(8, '0')}`;
      const body = Buffer.from(
        JSON.stringify({
          ...chat,
          message_id: `${tag}-${i}`,
          content: `message ${tag} ${i} [emote:37226:KEKW] that was a clean play`,
          created_at: new Date().toISOString(),
        }),
        'utf8',
      );
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
          'Kick-Event-Subscription-Id': '01BENCHSUBSCR1PT10N00000000',
          'Kick-Event-Signature': signature,
          'Kick-Event-Message-Timestamp': timestamp,
          'Kick-Event-Type': 'chat.message.sent',
          'Kick-Event-Version': '1',
        },
      };
    }),
  );
}

interface WholeApp {
  ratio: number;
  appRate: number;
  floorRate: number;
  bareRate: number;
}

async function runWholeApp(): Promise<WholeApp> {
  ensureBuilt(note);
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
  const dataDir = prepareDataDir();
  // The embedded sandbox keeps its signing key here (sandbox/index.ts loadOrCreateSigningKeys), and
  // the app trusts the public key its sandbox serves: so these deliveries verify as the sandbox's own.
  writeFileSync(join(dataDir, 'sandbox-signing-key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }), {
    mode: 0o600,
  });
  const port = await freePort();
  const app = await startAppProcess({ GREENROOM_WEBHOOK_PORT: String(port) }, dataDir);
  const receiverUrl = `http://127.0.0.1:${port}/kick/webhook`;
  const floor = await startFloorProcess(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  let dock: Awaited<ReturnType<typeof startDockProcess>> | null = null;
  try {
    const panel = await connectPanel(app.panelUrl);
    await signInOverPanel(panel, async () => (await app.waitForLine(/^Open this link to continue: (\S+)/))[1]!);
    await panel.close();
    dock = await startDockProcess(app.panelUrl);

    const warmUp = await signChat(privateKey, 500, 'W');
    const rounds: TestDelivery[][] = [];
    for (let r = 0; r < ROUNDS; r++) {
      rounds.push(await signChat(privateKey, DELIVERIES, `R${r}`));
    }
    await drive(receiverUrl, warmUp);
    await drive(floor.floorUrl, warmUp);
    await drive(floor.bareUrl, warmUp);

    // Where each delivery's CPU goes, per process (stderr): the cores are shared by all of them.
    const ledger = new CpuLedger();
    const appSide = { app: app.child.pid, dock: dock.pid, 'load generator': THIS_PROCESS } as const;
    const floorSide = { floor: floor.pid, 'load generator': THIS_PROCESS } as const;
    const ratios: number[] = [];
    let appRate = 0;
    let floorRate = 0;
    let bareRate = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const deliveries = rounds[r]!;
      let ours: number;
      let theirs: number;
      const driveApp = (): Promise<number> =>
        ledger.measure('the app', appSide, deliveries.length, () => drive(receiverUrl, deliveries));
      const driveFloor = (): Promise<number> =>
        ledger.measure('the floor', floorSide, deliveries.length, () => drive(floor.floorUrl, deliveries));
      if (r % 2 === 0) {
        theirs = await driveFloor();
        ours = await driveApp();
      } else {
        ours = await driveApp();
        theirs = await driveFloor();
      }
      ratios.push(ours / theirs);
      appRate = Math.max(appRate, ours);
      floorRate = Math.max(floorRate, theirs);
      bareRate = Math.max(bareRate, await drive(floor.bareUrl, deliveries));
    }
    for (const line of ledger.lines()) {
      note(line);
    }
    const pushed = await dock.counts();
    const posted = warmUp.length + ROUNDS * DELIVERIES;
    note(
      `the dock was pushed ${pushed.frames} frames (${Math.round(pushed.bytes / 1024)} KiB) for ${posted} deliveries`,
    );
    // Pushes may be batched, so frames need not match deliveries one for one; none at all means no dock.
    if (pushed.frames === 0) {
      throw new Error(`the dock received nothing for ${posted} accepted deliveries`);
    }
    return { ratio: median(ratios), appRate, floorRate, bareRate };
  } finally {
    await dock?.close();
    await floor.close();
    await app.stop();
  }
}

// --- The receiver module alone, in this process ---

/** One round against a fresh receiver (fresh dedup and journal, so every delivery is new to it). */
async function runReceiverRound(publicKeyPem: string, deliveries: readonly TestDelivery[]): Promise<number> {
  const journal = new MemoryJournal();
  let published = 0;
  const publicKey = createPublicKeyCache({ clock: systemClock, fetchPublicKey: () => Promise.resolve(publicKeyPem) });
  await publicKey.get();
  const receiver = createWebhookReceiver({
    port: 0,
    clock: systemClock,
    publicKey,
    journal,
    dedup: createDeliveryDedup(),
    onEvent: () => published++,
    log: () => undefined,
  });
  const { url } = await receiver.start();
  try {
    const rate = await drive(url, deliveries);
    if (journal.records.length !== deliveries.length || published !== deliveries.length) {
      throw new Error(`receiver kept ${journal.records.length} and published ${published} of ${deliveries.length}`);
    }
    return rate;
  } finally {
    await receiver.stop();
  }
}

async function runModule(): Promise<{ ratio: number; rate: number }> {
  const key = createTestKey();
  const chat = samplePayloads()['chat.message.sent'];
  const now = systemClock.now();
  const deliveries = Array.from({ length: DELIVERIES }, (_, i) =>
    buildDelivery({
      type: 'chat.message.sent',
      payload: { ...chat, message_id: `bench-${i}`, content: `message ${i} [emote:37226:KEKW] gg` },
      privateKey: key.privateKey,
      atMs: now,
    }),
  );
  const floor = await startFloor(key.publicKey);
  let best = 0;
  // Each round measures the floor and ours back to back; the median of those pairwise ratios is robust to
  // the machine's load drifting between rounds (best-of on each side was not).
  const ratios: number[] = [];
  try {
    await drive(floor.url, deliveries.slice(0, 200)); // warm-up: JIT and sockets
    await runReceiverRound(key.publicKeyPem, deliveries.slice(0, 200));
    for (let round = 0; round < ROUNDS; round++) {
      const floorRate = await drive(floor.url, deliveries);
      const ourRate = await runReceiverRound(key.publicKeyPem, deliveries);
      ratios.push(ourRate / floorRate);
      best = Math.max(best, ourRate);
    }
  } finally {
    await floor.close();
  }
  return { ratio: median(ratios), rate: best };
}

export async function run(): Promise<BenchResult[]> {
  const whole = await runWholeApp();
  const module = await runModule();
  const twoDecimals = (x: number): number => Math.round(x * 100) / 100;
  return [
    { name: 'webhook-ingest-ratio', value: twoDecimals(whole.ratio), unit: 'x', target: { op: '>=', value: 0.8 } },
    {
      // Five times the 400 messages/s chat storm the design notes plan for.
      name: 'webhook-ingest-throughput',
      value: Math.round(whole.appRate),
      unit: 'deliveries/s',
      target: { op: '>=', value: 2000 },
    },
    {
      // The same load against the floor in its own process: body read, one RSA verification, 200.
      name: 'webhook-ingest-floor-throughput',
      value: Math.round(whole.floorRate),
      unit: 'deliveries/s',
      target: { op: '>=', value: 2000 },
    },
    {
      // For scale only: a node:http responder in its own process that reads the body and answers.
      name: 'webhook-ingest-bare-http-throughput',
      value: Math.round(whole.bareRate),
      unit: 'deliveries/s',
      target: { op: '>=', value: 2000 },
    },
    {
      // The receiver module alone (in-memory journal) against an in-process floor, same load generator.
      name: 'webhook-ingest-module-ratio',
      value: twoDecimals(module.ratio),
      unit: 'x',
      target: { op: '>=', value: 0.8 },
    },
  ];
}
