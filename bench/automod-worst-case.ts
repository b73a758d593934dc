/**
 * `automod-worst-case-ms`: the longest auto-moderation keeps main from answering a panel request while the
 * app judges adversarial chat against the largest rule sets Save allows (docs/automod.md#regular-expressions).
 * The built app runs in its own process on the app's Node (`lib/app-node.ts`), signed in to its embedded sandbox;
 * every rule set goes in through the panel socket's `settings:update`, as the panel's Save sends it (the nine
 * catastrophic patterns first: each must be refused, and one that were not would be measured instead). Then
 * 500-character lines built against the rules arrive as signed webhook deliveries at the storm's 400 a second.
 *
 * The figure is read from a CPU profile of the app (`lib/automod-profile.ts`): the most time auto-moderation
 * spent judging within one task of main (a turn's deliveries are judged together), which is what it adds
 * to the wait of a panel request that arrives then. Beside it (stderr), a panel in another process asks
 * `health:snapshot` every 2 ms and times the answers, with the rules on and with auto-moderation off: those
 * waits include everything else the app does with each delivery (verify, journal, chat, pushes) and the
 * machine's own pauses, which the profile shows as the app being stopped.
 */
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { Pool } from 'undici';
import { type AutomodSettings, DEFAULT_AUTOMOD_SETTINGS } from '../shared/automod';
import { toRfc3339Seconds } from '../electron/core/clock';
import { freePort } from '../test/helpers/free-port';
import { samplePayloads } from '../test/helpers/webhook-signing';
import { adversarialLines, CATASTROPHIC, largestRuleSets } from './lib/automod-adversarial';
import { type JudgingTime, judgingTime } from './lib/automod-profile';
import { startProbe } from './lib/automod-probe';
import { adminCall, type AppProcess, ensureBuilt, prepareDataDir, ROOT, startAppProcess } from './lib/app-process';
import { appNode } from './lib/app-node';
import { connectPanel, type PanelClient, signInOverPanel } from './lib/panel-client';
import { quantile, round } from './lib/stats';
import { measuredFigures } from './lib/figures';
import type { BenchFigure, BenchResult } from './types';
import { makeTempDir, removeTempDir } from './lib/started';

const note = (line: string): void => console.error(`automod-worst-case: ${line}`);
const RATE = Number(process.env.GREENROOM_BENCH_WORST_RATE ?? 400);
const SECONDS = Number(process.env.GREENROOM_BENCH_WORST_S ?? 10);
/** Deliveries posted per 10 ms tick. */
const PER_TICK = Math.max(1, Math.round(RATE / 100));

interface Delivery {
  headers: Record<string, string>;
  body: Buffer;
}

/** Chat deliveries carrying `lines`, from many senders, signed as the embedded sandbox signs them. */
async function signLines(
  privateKey: KeyObject,
  lines: readonly string[],
  tag: string,
  subscriptionId: string,
): Promise<Delivery[]> {
  const chat = samplePayloads()['chat.message.sent'];
  const timestamp = toRfc3339Seconds(Date.now());
  return Promise.all(
    lines.map(async (content, i) => {
      const messageId = `01WORST${tag}${String(i).padStart(8, '0')}`;
      const body = Buffer.from(
        JSON.stringify({
          ...chat,
          message_id: `${tag}-${i}`,
          content,
          sender: { ...chat.sender, user_id: 200_000 + (i % 500), username: `raider${i % 500}` },
          created_at: new Date().toISOString(),
        }),
      );
      const signature = await new Promise<string>((resolve, reject) =>
        sign('sha256', Buffer.concat([Buffer.from(`${messageId}.${timestamp}.`), body]), privateKey, (error, sig) =>
          error ? reject(error) : resolve(sig.toString('base64')),
        ),
      );
      return {
        body,
        headers: {
          'Content-Type': 'application/json',
          'Kick-Event-Message-Id': messageId,
          'Kick-Event-Subscription-Id': subscriptionId,
          'Kick-Event-Signature': signature,
          'Kick-Event-Message-Timestamp': timestamp,
          'Kick-Event-Type': 'chat.message.sent',
          'Kick-Event-Version': '1',
        },
      };
    }),
  );
}

/** Posts `deliveries` at `RATE` a second (a tick's worth every 10 ms); throws on a non-200. */
async function pace(url: string, deliveries: readonly Delivery[]): Promise<void> {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections: 16 });
  try {
    const started = performance.now();
    const sent: Promise<void>[] = [];
    for (let at = 0, tick = 0; at < deliveries.length; at += PER_TICK, tick++) {
      const wait = started + tick * 10 - performance.now();
      if (wait > 0) {
        await delay(wait);
      }
      for (const d of deliveries.slice(at, at + PER_TICK)) {
        sent.push(
          pool
            .request({ path: target.pathname, method: 'POST', headers: d.headers, body: d.body })
            .then(async (res) => {
              const text = await res.body.text();
              if (res.statusCode !== 200) {
                throw new Error(`the receiver answered ${res.statusCode} ${text.slice(0, 200)}`);
              }
            }),
        );
      }
    }
    await Promise.all(sent);
  } finally {
    await pool.close();
  }
}

async function save(panel: PanelClient, automod: AutomodSettings): Promise<{ ok: boolean; error?: unknown }> {
  return panel.invoke('settings:update', [{ automod }]);
}

/**
 * The id of the app's chat subscription, once Kick (the sandbox) holds it: the receiver answers deliveries
 * under any other id without handing them to the app (electron/webhooks/receive/channel-gate.ts).
 */
async function chatSubscription(app: AppProcess, panel: PanelClient): Promise<string> {
  for (let tries = 0; tries < 200; tries++) {
    const health = await panel.invoke<{ subscriptions: { type: string; state: string }[] }>('health:snapshot');
    const subscriptions = health.value?.subscriptions ?? [];
    if (subscriptions.length > 0 && subscriptions.every((s) => s.state === 'active')) {
      const { subscriptions: held } = await adminCall<{ subscriptions: { id: string; event: string }[] }>(
        await app.admin(),
        'GET',
        '/subscriptions',
      );
      const chat = held.find((s) => s.event === 'chat.message.sent');
      if (chat) {
        return chat.id;
      }
    }
    await delay(100);
  }
  throw new Error('the app never held a chat subscription');
}

/** `renice -10` (as root); where that is not allowed, the figures say so and carry the machine's noise. */
function raisePriority(...pids: (number | undefined)[]): void {
  const ids = pids.filter((pid): pid is number => pid !== undefined).map(String);
  const result = spawnSync('renice', ['-n', '-10', '-p', ...ids], { encoding: 'utf8' });
  if (result.status !== 0) {
    note(
      `could not raise the app's priority (${(result.stderr || result.error?.message || '').trim()}); other processes' time may show as the app's`,
    );
  }
}

interface Measured {
  /** What the profile says of judging (`lib/automod-profile.ts`). */
  judging: JudgingTime;
  /** Each panel request's wait, ms. */
  waits: number[];
}

/**
 * One fresh app (profiled), signed in; `prepare` may save rules over the panel socket and answers the rule
 * set to measure, or null to measure nothing; then `lines` arrive as deliveries while the probe asks.
 */
async function withApp(
  lines: readonly string[],
  privateKey: KeyObject,
  prepare: (panel: PanelClient) => Promise<AutomodSettings | null>,
): Promise<Measured | null> {
  const dataDir = prepareDataDir();
  // The embedded sandbox signs with this key (sandbox/index.ts), so these deliveries verify as its own.
  writeFileSync(join(dataDir, 'sandbox-signing-key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }), {
    mode: 0o600,
  });
  const profileDir = makeTempDir('greenroom-automod-profile-');
  // The bundle as this app runs it, to read the profile against (another build may replace out/ meanwhile).
  const bundle = join(profileDir, 'panel.js');
  copyFileSync(join(ROOT, 'out', 'main', 'panel.js'), bundle);
  const port = await freePort();
  // On the app's Node: the figure is what judging costs main, so it is read on the engine main runs.
  const app = await startAppProcess(
    { GREENROOM_WEBHOOK_PORT: String(port) },
    dataDir,
    ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=100'],
    appNode(),
  );
  let waits: number[] | null = null;
  try {
    const panel = await connectPanel(app.panelUrl);
    const probe = await startProbe(app.panelUrl);
    // Ahead of other work on a shared machine: a profile samples wall time, and a descheduled app would
    // show the other processes' time as its own (a 95 ms gap between two samples inside one regex).
    raisePriority(app.child.pid, probe.pid);
    try {
      await signInOverPanel(panel, async () => (await app.waitForLine(/^Open this link to continue: (\S+)/))[1]!);
      const subscriptionId = await chatSubscription(app, panel);
      const rules = await prepare(panel);
      if (rules) {
        const saved = await save(panel, rules);
        if (!saved.ok) {
          throw new Error(`Save refused the rule set: ${JSON.stringify(saved.error)}`);
        }
        const deliveries = await signLines(privateKey, lines, 'W', subscriptionId);
        await probe.start();
        await pace(`http://127.0.0.1:${port}/kick/webhook`, deliveries);
        waits = await probe.stop();
      }
    } finally {
      await probe.close();
      await panel.close();
    }
  } finally {
    await app.stop();
  }
  try {
    return waits && { waits, judging: judgingTime(profileDir, bundle) };
  } finally {
    removeTempDir(profileDir);
  }
}

/** What `run` gives, printed as NaN with the reason when the module cannot run (bench/run.ts). */
export const figures: BenchFigure[] = [{ name: 'automod-worst-case-ms', unit: 'ms', target: { op: '<=', value: 10 } }];

export async function run(): Promise<BenchResult[]> {
  ensureBuilt(note);
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
  const lines = adversarialLines(Math.round(RATE * SECONDS));
  const sets = largestRuleSets();
  const off = structuredClone(DEFAULT_AUTOMOD_SETTINGS);
  const runs = [...sets, { name: 'auto-moderation off', rules: off }];
  let worst = 0;
  for (const [i, { name, rules }] of runs.entries()) {
    const measured = await withApp(lines, privateKey, async (panel) => {
      if (i === 0) {
        // The nine first, each as the one regex of a rule set: one Save took would be measured here instead.
        for (const pattern of CATASTROPHIC) {
          const withIt = structuredClone(rules);
          withIt.blockedTerms.terms = [{ pattern, kind: 'regex' }];
          if ((await save(panel, withIt)).ok) {
            note(`Save took the catastrophic pattern ${pattern}: measuring it instead of ${name}`);
            return withIt;
          }
        }
        note(`Save refused each of the ${CATASTROPHIC.length} catastrophic patterns`);
      }
      return rules;
    });
    const { waits, judging } = measured!;
    note(
      `${name}: ${lines.length} lines at ${RATE}/s; judging took ${round(judging.totalMs / lines.length, 3)} ms a ` +
        `line, at most ${round(judging.longestPerTaskMs, 2)} ms of one task of main; the app was stopped ` +
        `${judging.stops} times (longest ${round(judging.longestStopMs, 1)} ms); a panel request waited p50 ` +
        `${round(quantile(waits, 0.5), 2)} ms, p99 ${round(quantile(waits, 0.99), 2)} ms, longest ` +
        `${round(Math.max(...waits), 2)} ms (${waits.length} requests)`,
    );
    if (rules.enabled) {
      worst = Math.max(worst, judging.longestPerTaskMs);
    }
  }
  return measuredFigures(figures, { 'automod-worst-case-ms': round(worst, 2) });
}
