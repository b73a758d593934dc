/**
 * The chat storm: a raid's chat through the whole app as a streamer runs it.
 *
 * The built app runs in its own process (`out/main/panel.js`, file journal), the panel in headless Debian
 * Chromium through the panel server, and Kick is a standalone sandbox in a third process (`lib/storm-sandbox.ts`),
 * the app pointed at it by its environment as at real Kick. Not the app's embedded sandbox: that one signs 400
 * webhooks a second, keeps its attempt and frame logs and serves the live socket on the app's own event loop,
 * work a streamer's app never does, so the app's CPU, memory and latency figures carried the simulated Kick's.
 * (`GREENROOM_BENCH_STORM_KICK=embedded` runs the storm on the embedded sandbox again, to compare.)
 * The benchmark injects chat through the sandbox's admin API (`POST /trigger/chat.message.sent` with content, sender and reply overrides): 400 messages/s for
 * 60 s by default (`GREENROOM_BENCH_STORM_RATE`, `GREENROOM_BENCH_STORM_S` for quick runs). Kick's live chat
 * connection is on, as a streamer runs the app: the sandbox sends each message on its live socket at once and
 * then signs and delivers its webhook to the app's receiver like Kick, so every message comes twice
 * (`GREENROOM_BENCH_STORM_PATH=webhook`: the connection off, the webhooks alone; `lib/storm-socket.ts`). Figures:
 * - `chat-frame-p95-ms`: rAF frame intervals in the page from the first message sent to the last shown, each
 *   counted in whole frames of the 60 Hz display (Chromium's rAF clock is coarsened to 100 µs with jitter,
 *   so an on-time frame reads 16.6–16.9 ms): 16.7 is a frame on time, 33.3 one frame dropped. The raw
 *   intervals' spread goes to stderr.
 * - `chat-latency-p99-ms`: from the sandbox sending the message's socket frame (`sent_at_ms`, polled from
 *   `GET /live-socket/frames`) to the message's row being in the DOM (the page's MutationObserver). On the
 *   webhook path, from the sandbox handing the delivery over (its first attempt's `attempted_at_ms`, polled from
 *   `GET /deliveries`), matched to its chat message through the app's journal (webhook message id → body's
 *   `message_id`). Both ends read the same machine clock. A message the log scrolled past without ever
 *   drawing it (it renders only rows in view) counts as shown when the first message after it was.
 * - `chat-heap-growth`: the page's JS heap after a forced GC at the end over the same after the first
 *   10,000 messages (40% of a storm shorter than 20,000).
 * - `chat-delivered`: storm messages that reached the page over the panel socket, of those sent;
 *   `chat-auto-pauses`: times chat stopped following live with nobody touching the page.
 * - `chat-duplicates`: storm messages shown twice, counted in the page (`lib/storm-duplicates.ts`), once every
 *   webhook copy has been delivered.
 * - `chat-janky-frames-pct`: the share of those frames that took two frames of the display or more (33.3 ms);
 *   `chat-app-rss-growth-mb`: the app process's resident memory (its /proc status, not this process's) at the
 *   end over the same after the warm-up, in MB (`lib/storm-figures.ts`).
 * - The budget per message (`lib/storm-budget.ts`): `chat-app-cpu-us-per-message`, the app process's CPU time
 *   (user plus kernel, from /proc) from the storm's first message until every webhook copy was delivered, over
 *   the messages; `chat-renderer-cpu-us-per-message`, the same for the panel's renderer process;
 *   `chat-main-thread-ms-per-frame`, the CPU time of the page's main thread (the renderer's main thread, from
 *   /proc) over the frames it drew while the messages were being sent. CPU time, not Chromium's `TaskDuration`:
 *   a task's wall time counts the moments it waited for a core, several times its CPU on a loaded machine.
 * A breakdown (send → frame or handover → app receipt → DOM, rows never shown, and the CPU the app, Chromium
 * and this process used, in cores: the two cores are shared by all three) goes to stderr. The storm runs
 * in rounds, 5 by default (`GREENROOM_BENCH_STORM_ROUNDS`), each figure held to its worst round
 * (`lib/storm-rounds.ts`).
 *
 * The app runs on Node 24 with the stream history on, as Electron 45 runs it (docs/history.md): a sandbox stream
 * goes live before the warm-up, so every storm line is written to the history store and counted in its stream's
 * roll-ups while the figures are taken; the stream's line count in the history goes to stderr at the end.
 * `GREENROOM_BENCH_STORM_HISTORY=off` runs the same Node 24 with `node:sqlite` turned off (so no history), to compare.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Pool } from 'undici';
import { type AdminApi, adminCall, ensureBuilt, prepareDataDir, startAppProcess } from './lib/app-process';
import { appNode } from './lib/app-node';
import { KICK_EVENT_TYPES } from '../shared/kick/scopes';
import { descendants, ownCpuMs, processCpuMs, processesCpuMs, rendererPids } from './lib/process-cpu';
import { type CdpPage, openPage } from './lib/cdp-page';
import { PAGE_PROBE, type ProbeDrain, ProbeFindings } from './lib/page-probe';
import { connectPanel, type PanelClient, signInOverPanel } from './lib/panel-client';
import { raidMessage, raidSenders, rememberLine, seededRandom } from './lib/raid-chat';
import { quantile, round } from './lib/stats';
import { budgetFigures } from './lib/storm-budget';
import { startStormSandbox, stormKick } from './lib/storm-sandbox';
import {
  appRssMb,
  jankyFramesPct,
  measuredStormFigures,
  onFrameGrid,
  residentByKind,
  stormFigures,
} from './lib/storm-figures';
import { inRounds, STORM_ROUNDS } from './lib/storm-rounds';
import { describeBusy, describeFrames, rendererBusy, stormTimings } from './lib/storm-timings';
import { runSender } from './lib/storm-sender';
import { type Attempt, readJournal, sendChat } from './lib/storm-traffic';
import { countDuplicates, ROW_PROBE, type RowDrain, RowFindings } from './lib/storm-duplicates';
import { pollChatFrames, stormPath, waitForChatroomSocket } from './lib/storm-socket';
import type { AutomodSettings } from '../shared/automod';
import type { HistoryStatusView, HistoryStreamItem } from '../shared/history';
import type { BenchResult } from './types';

const STORM_S = Number(process.env.GREENROOM_BENCH_STORM_S ?? 60);
const RATE = Number(process.env.GREENROOM_BENCH_STORM_RATE ?? 400);
const SENDERS = 2000;
/** Admin requests in flight at most; the generator never waits on the app beyond this. */
const SEND_CONCURRENCY = 32;
const HEAP_BASELINE_MESSAGES = 10_000;
/** How often the sandbox's attempt log is read during the storm; it keeps the last 10,000 or more. */
const ATTEMPT_POLL_MS = 1000;

const note = (line: string): void => console.error(`chat-storm: ${line}`);

/** History on (the default), or off: the same Node 24 without `node:sqlite`, so only the history differs. */
const HISTORY = process.env.GREENROOM_BENCH_STORM_HISTORY !== 'off';
const HISTORY_NODE_ARGS = HISTORY ? [] : ['--no-experimental-sqlite'];

/** Waits until the sandbox holds a subscription for each of Kick's event types; throws after 30 s. */
async function subscribed(admin: AdminApi): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { counts } = await adminCall<{ counts: { eventSubscriptions: number } }>(admin, 'GET', '/');
    if (counts.eventSubscriptions >= KICK_EVENT_TYPES.length) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(`the app subscribed to ${counts.eventSubscriptions} of Kick's ${KICK_EVENT_TYPES.length} events`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until the app's history answers `ready` and `test` holds for its status; throws after 30 s. */
async function historyStatus(panel: PanelClient, test: (status: HistoryStatusView) => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const answer = await panel.invoke<HistoryStatusView>('history:status');
    if (answer.ok && answer.value?.state === 'ready' && test(answer.value)) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error(`the app's stream history is not on and live: ${JSON.stringify(answer.value ?? answer.error)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const describe = (label: string, values: number[]): string =>
  `${label} p50 ${round(quantile(values, 0.5), 1)} p99 ${round(quantile(values, 0.99), 1)} ms (n=${values.length})`;

export const run = (): Promise<BenchResult[]> => inRounds(STORM_ROUNDS, () => runStorm({}), note);

/** What `run` gives, printed as NaN with the reason when the storm cannot run (bench/run.ts). */
export const figures = stormFigures(Math.round(STORM_S * RATE));

/** The storm; with `automod`, those rules are on in the app before the first message (bench/automod.ts). */
export async function runStorm(options: { automod?: AutomodSettings }): Promise<BenchResult[]> {
  ensureBuilt(note);
  const path = stormPath();
  const socket = path === 'socket';
  const kick = stormKick() === 'standalone' ? await startStormSandbox() : null;
  const dataDir = kick ? prepareDataDir(kick.appSettings) : undefined;
  const app = await startAppProcess(kick?.appEnv ?? {}, dataDir, HISTORY_NODE_ARGS, appNode()).catch(
    async (error: unknown) => {
      await kick?.close();
      throw error;
    },
  );
  let page: CdpPage | null = null;
  let pool: Pool | null = null;
  try {
    const admin = kick?.admin ?? (await app.admin());
    const panel = await connectPanel(app.panelUrl);
    await signInOverPanel(panel, async () => (await app.waitForLine(/^Open this link to continue: (\S+)/))[1]!);
    // Set either way, so the storm does not depend on the app's default.
    if (!(await panel.invoke('settings:update', [{ liveSocket: { enabled: socket } }])).ok) {
      throw new Error('the app refused to switch Kick’s live chat connection');
    }
    if (options.automod && !(await panel.invoke('settings:update', [{ automod: options.automod }])).ok) {
      throw new Error('the app refused the benchmark’s auto-moderation rules');
    }
    if (HISTORY) {
      // A stream live on the sandbox, so the storm's lines belong to it in the history, as in a real raid.
      await historyStatus(panel, () => true);
      // Kick sends the live status only to an app subscribed to it: sign-in subscribes after it returns.
      await subscribed(admin);
      const startedAt = new Date(Date.now() - 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      await adminCall(admin, 'POST', '/trigger/livestream.status.updated', {
        overrides: { is_live: true, started_at: startedAt },
      });
      await historyStatus(panel, (status) => status.liveStreamId !== null);
      note('history: on (the app on Node 24), a sandbox stream live');
    } else {
      note('history: off (the app on Node 24 without node:sqlite)');
    }
    await panel.close();
    if (socket) {
      await waitForChatroomSocket(admin);
    }
    note(`path: ${socket ? 'live socket, every message also delivered by webhook' : 'webhooks alone'}`);

    page = await openPage({
      url: app.panelUrl,
      width: 1280,
      height: 860,
      initScripts: [PAGE_PROBE, ROW_PROBE],
      extraArgs: ['--enable-precise-memory-info'],
    });
    const cdp = page;
    await page.waitFor(`document.querySelector('[role="log"][aria-label="Chat messages"]')`, 30_000);

    pool = new Pool(new URL(admin.url).origin, { connections: SEND_CONCURRENCY });
    const rng = seededRandom(10);
    const senders = raidSenders(rng, SENDERS);
    const recent: string[] = [];

    const findings = new ProbeFindings();
    const rows = new RowFindings();
    const drain = async (): Promise<void> => {
      const drained = await cdp.evaluate<{ probe: ProbeDrain; rows: RowDrain }>(
        '({ probe: globalThis.__benchProbe.drain(), rows: globalThis.__benchRows.drain() })',
      );
      findings.add(drained.probe);
      rows.add(drained.rows);
    };

    // Until the app's chat subscription is in place, triggered chat goes nowhere: probe until one shows.
    const probeDeadline = Date.now() + 30_000;
    for (;;) {
      const { id } = await sendChat(pool, admin, { content: 'storm warm-up [emote:37226:KEKW]' });
      await new Promise((resolve) => setTimeout(resolve, 500));
      await drain();
      if (findings.dom.has(id)) {
        break;
      }
      if (Date.now() > probeDeadline) {
        throw new Error('no chat reached the panel within 30 s of signing in (no chat subscription?)');
      }
    }
    // Warm-up: moderate chat (JIT, sockets, emote images), not measured.
    for (let i = 0; i < 200; i++) {
      rememberLine(recent, (await sendChat(pool, admin, raidMessage(rng, senders, recent))).id);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await drain();
    const warmUpReceived = findings.received.size;
    if (process.env.GREENROOM_BENCH_SCREENSHOT) {
      // What the page looks like as the storm starts (to check nothing covers the chat).
      await cdp.screenshot(process.env.GREENROOM_BENCH_SCREENSHOT);
    }

    // --- The storm ---
    const total = Math.round(STORM_S * RATE);
    const baselineAt = total >= 2 * HEAP_BASELINE_MESSAGES ? HEAP_BASELINE_MESSAGES : Math.floor(total * 0.4);
    const sent = new Map<string, number>();
    const attempts = new Map<string, number>();
    /** Time from the event's creation in the sandbox to the handover: the sandbox's own queueing. */
    const queued = new Map<string, number>();
    /** Attempts the app did not answer 2xx in time (each counted once across polls). */
    const failedAttempts = new Set<string>();
    /** Chat webhooks the app took (2xx) from the storm's start: with the socket on, every one a copy. */
    const chatWebhooks = new Set<string>();
    /** Chat message id → when its socket frame went out (the socket path's start). */
    const frames = new Map<string, number>();
    let stormStartMs = Number.POSITIVE_INFINITY;
    let pending = 0;
    const pollAttempts = async (limit: number): Promise<void> => {
      const answer = await adminCall<{ attempts: Attempt[]; pending: number }>(
        admin,
        'GET',
        `/deliveries?limit=${limit}`,
      );
      pending = answer.pending;
      if (socket) {
        await pollChatFrames(admin, limit, frames);
      }
      // The first attempt is the handover: a copy the app failed to take in time still started the clock.
      for (const a of answer.attempts) {
        if (a.delivered && a.event_type === 'chat.message.sent' && a.attempted_at_ms >= stormStartMs) {
          chatWebhooks.add(a.message_id);
        }
        const known = attempts.get(a.message_id);
        if (known === undefined || a.attempted_at_ms < known) {
          attempts.set(a.message_id, a.attempted_at_ms);
          queued.set(a.message_id, a.attempted_at_ms - a.event_at_ms);
        }
        if (!a.delivered) {
          failedAttempts.add(`${a.message_id} ${a.attempted_at_ms}`);
        }
      }
    };
    const heapAfterGc = async (): Promise<number> => {
      await cdp.send('HeapProfiler.collectGarbage');
      return (await cdp.send<{ usedSize: number }>('Runtime.getHeapUsage')).usedSize;
    };
    await cdp.evaluate('globalThis.__benchProbe.recording = true; globalThis.__benchRows.recording = true');
    await cdp.send('Performance.enable');
    const framesSeen = (): Promise<number> => cdp.evaluate<number>('globalThis.__benchProbe.framesSeen');
    // GREENROOM_BENCH_PAGE_PROFILE=<file>: a CPU profile of the panel's page over the storm's sending.
    const pageProfile = process.env.GREENROOM_BENCH_PAGE_PROFILE;
    if (pageProfile) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    const busyAtStart = await rendererBusy(cdp);
    const framesAtStart = await framesSeen();
    // Who uses the two cores during the storm: the app, Kick (the sandbox), Chromium (all its processes), this
    // benchmark.
    const appPids = app.child.pid === undefined ? [] : [app.child.pid, ...descendants(app.child.pid)];
    const kickPids = kick?.pid === undefined ? [] : [kick.pid, ...descendants(kick.pid)];
    const chromiumPids = descendants(process.pid).filter((pid) => !appPids.includes(pid) && !kickPids.includes(pid));
    // The panel's main thread on its own: its CPU time, unlike its busy share, does not count the moments a
    // task waited for a core.
    const renderers = rendererPids(chromiumPids);
    const pageMainCpuMs = (): number => renderers.reduce((sum, pid) => sum + (processCpuMs(pid, pid) ?? 0), 0);
    const cpuNow = (): number[] => [
      processesCpuMs(appPids),
      processesCpuMs(chromiumPids),
      ownCpuMs(),
      pageMainCpuMs(),
      processesCpuMs(kickPids),
      processesCpuMs(renderers),
    ];
    const cpuAtStart = cpuNow();
    // The app's own resident memory after the warm-up, against the same at the end (its /proc files).
    const readText = (file: string): string => readFileSync(file, 'utf8');
    const rssAfterWarmUp = appRssMb(app.child.pid, readText);
    // Which kind of memory a storm grows (V8's heap and malloc's other arenas are anonymous, malloc's main arena
    // `[heap]`) says where a bad round's growth went.
    const kindsAfterWarmUp = residentByKind(app.child.pid, readText);
    const stormStart = performance.now();
    stormStartMs = Date.now();
    // Beside the sender: drain the page's findings every second, read the sandbox's attempts every few,
    // take the heap baseline once enough has arrived.
    const watching = { on: true, baselineHeap: null as number | null };
    const watcher = (async () => {
      let nextPoll = stormStart + ATTEMPT_POLL_MS;
      while (watching.on) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        await drain();
        if (performance.now() >= nextPoll) {
          nextPoll += ATTEMPT_POLL_MS;
          await pollAttempts(Math.ceil((RATE * ATTEMPT_POLL_MS) / 1000) * 2);
        }
        if (watching.baselineHeap === null && findings.received.size - warmUpReceived >= baselineAt) {
          watching.baselineHeap = await heapAfterGc();
        }
      }
    })();
    // The chatters' side, on a thread below the app and the panel (lib/storm-sender.ts says why).
    const job = { admin, count: total, rate: RATE, concurrency: SEND_CONCURRENCY, seed: 11, senders, recent };
    const sending = runSender(job, ({ id, sentAtMs }) => sent.set(id, sentAtMs)).then(
      () => null,
      (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
    );
    // Held until the watcher stops, so a failed send does not leave it running.
    const sendError = await sending;
    const sendSeconds = (performance.now() - stormStart) / 1000;
    if (pageProfile) {
      writeFileSync(pageProfile, JSON.stringify((await cdp.send<{ profile: unknown }>('Profiler.stop')).profile));
    }
    const busyAtEnd = await rendererBusy(cdp);
    const framesAtEnd = await framesSeen();
    note(describeBusy(busyAtStart, busyAtEnd, sendSeconds));
    const cpuAtSendEnd = cpuNow();
    const cores = cpuAtSendEnd.map((ms, i) => round((ms - cpuAtStart[i]!) / 1000 / sendSeconds, 2));
    note(
      `CPU in cores during the storm: app ${cores[0]}, Kick (the sandbox) ${cores[4]}, Chromium ${cores[1]} ` +
        `(the panel's renderer ${cores[5]}, its main thread ${cores[3]}), this benchmark ${cores[2]}`,
    );
    // Everything sent has arrived (and its row had a few frames to be drawn), or 30 s have passed.
    const arrivalDeadline = Date.now() + 30_000;
    while (!sendError && [...sent.keys()].some((id) => !findings.received.has(id))) {
      if (Date.now() > arrivalDeadline) {
        note('not every message reached the panel within 30 s of the last send');
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
    watching.on = false;
    await watcher;
    if (sendError) {
      throw sendError;
    }
    // Every webhook copy delivered (and a few frames to show what it would show) before counting duplicates.
    const copiesDeadline = Date.now() + 30_000;
    for (await pollAttempts(10_000); pending > 0; await pollAttempts(10_000)) {
      if (Date.now() > copiesDeadline) {
        note(`${pending} webhook deliveries still waiting 30 s after the last message`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Every message's work is done: the budget's CPU stretch ends here.
    const cpuAtEnd = cpuNow();
    await cdp.evaluate('globalThis.__benchProbe.recording = false; globalThis.__benchRows.recording = false');
    await drain();
    const stopAtMs = findings.lastAtMs;
    const baselineHeap = watching.baselineHeap;
    const endHeap = await heapAfterGc();
    const rssAtEnd = appRssMb(app.child.pid, readText);
    const kindsAtEnd = residentByKind(app.child.pid, readText);
    await pollAttempts(10_000);
    if (HISTORY) {
      const reader = await connectPanel(app.panelUrl);
      const streams = await reader.invoke<HistoryStreamItem[]>('history:streams');
      await reader.close();
      const live = streams.value?.find((s) => s.endedAtMs === null);
      note(
        `history: the live stream holds ${live?.figures.messages ?? 'no'} chat lines (storm ${total}, warm-up and probes besides)`,
      );
    }
    await page.close();
    page = null;
    await app.stop(true);
    const journal = readJournal(app.dataDir);

    // --- Figures ---
    const {
      latency,
      sendToStart,
      sandboxQueue,
      startToReceipt,
      receiptToDom,
      receiptToPage,
      pageToDom,
      sendToDom,
      delivered,
      undrawn,
    } = stormTimings({ sent, findings, stopAtMs, journal, attempts, queued, frames: socket ? frames : undefined });
    const dupes = countDuplicates(sent.keys(), rows.entries, findings.arrived, findings.received);
    const start = socket ? 'frame' : 'handover';
    note(`${total} messages in ${round(sendSeconds, 1)} s (${round(total / sendSeconds)}/s), ${SENDERS} senders`);
    if (total / sendSeconds < RATE * 0.9) {
      // The targets assume the rate asked for; a machine too busy to send it measures itself, not the app.
      note(
        `the sender reached ${round(total / sendSeconds)} of the ${RATE} messages a second asked for: too busy a machine to judge the figures by`,
      );
    }
    note(describe(`send → ${start}`, sendToStart));
    if (!socket) {
      note(describe('  of which the sandbox: event → handover', sandboxQueue));
    }
    note(describe(`${start} → app receipt`, startToReceipt));
    note(describe('app receipt → DOM', receiptToDom));
    note(describe('  app receipt → page socket', receiptToPage));
    note(describe('  page socket → DOM', pageToDom));
    note(describe('send → DOM', sendToDom));
    note(
      `latency matched for ${latency.length} of ${total} (${socket ? `socket frames seen ${frames.size}, ` : ''}` +
        `deliveries seen ${attempts.size}, journal ${journal.size}, failed attempts ${failedAttempts.size}); ` +
        `received but scrolled past undrawn ${undrawn}; frames ${findings.frames.length}, ` +
        `p50 ${round(quantile(findings.frames, 0.5), 1)} ms`,
    );
    if (socket) {
      const viaSocket = [...journal.keys()].filter((id) => id.startsWith('live-socket:')).length;
      note(
        `chat webhooks the app took during the storm ${chatWebhooks.size} (of ${total} messages, each a copy); ` +
          `lines journaled from the socket ${viaSocket}, from a webhook that came first ${journal.size - viaSocket}`,
      );
      if (chatWebhooks.size < total) {
        note('not every message was also delivered by webhook: the duplicate count is partial');
      }
    }
    note(
      `duplicates: ${dupes.total} messages shown twice (rows shown again ${dupes.rowsAgain}, received by the page ` +
        `again ${dupes.receivedAgain}; rows seen ${rows.entries.length})` +
        (dupes.examples.length > 0 ? `, e.g. ${dupes.examples.join(', ')}` : ''),
    );
    note(describeFrames(findings.frames));
    note(
      `heap ${round((baselineHeap ?? Number.NaN) / 1048576, 1)} MB after ${baselineAt}, ${round(endHeap / 1048576, 1)} MB at the end`,
    );
    if (quantile(sandboxQueue, 0.99) > 100) {
      // Kick keeps sending whatever the receiver's pace; the sandbox caps what is in flight. When it had to
      // hold deliveries back, part of the app's delay sits before the handover and this latency misses it.
      note('the sandbox held deliveries back (its in-flight cap was full): the app answered too slowly');
    }
    if (latency.length < total * 0.9) {
      note('fewer than 90% of messages could be matched to their delivery: the latency figure is partial');
    }

    note(`app resident memory ${round(rssAfterWarmUp, 1)} MB after the warm-up, ${round(rssAtEnd, 1)} MB at the end`);
    note(`app resident memory by kind (MB): after the warm-up ${kindsAfterWarmUp}; at the end ${kindsAtEnd}`);
    const budget = budgetFigures(
      {
        start: { appCpuMs: cpuAtStart[0]!, rendererCpuMs: cpuAtStart[5]! },
        end: { appCpuMs: cpuAtEnd[0]!, rendererCpuMs: cpuAtEnd[5]! },
      },
      {
        start: { mainThreadCpuMs: cpuAtStart[3]!, framesSeen: framesAtStart },
        end: { mainThreadCpuMs: cpuAtSendEnd[3]!, framesSeen: framesAtEnd },
      },
      total,
    );
    const drawn = framesAtEnd - framesAtStart;
    const taskMs = ((busyAtEnd.TaskDuration ?? Number.NaN) - (busyAtStart.TaskDuration ?? Number.NaN)) * 1000;
    const perMessage = (i: number): number => round(((cpuAtEnd[i]! - cpuAtStart[i]!) * 1000) / total);
    note(
      `budget: CPU per message from the first message until every copy was delivered: app ` +
        `${budget['chat-app-cpu-us-per-message']} µs, Kick (the sandbox) ${perMessage(4)} µs, the panel's renderer ` +
        `${budget['chat-renderer-cpu-us-per-message']} µs (its main thread ${perMessage(3)} µs); while sending, ` +
        `${drawn} frames drawn, the main thread's CPU ${budget['chat-main-thread-ms-per-frame']} ms per frame, its ` +
        `tasks' wall time (TaskDuration, waits for a core included) ${drawn > 0 ? round(taskMs / drawn, 2) : Number.NaN} ms per frame`,
    );

    return measuredStormFigures(total, {
      'chat-frame-p95-ms': round(quantile(findings.frames.map(onFrameGrid), 0.95), 1),
      'chat-janky-frames-pct': jankyFramesPct(findings.frames),
      'chat-latency-p99-ms': round(quantile(latency, 0.99)),
      'chat-heap-growth': baselineHeap === null ? Number.NaN : round(endHeap / baselineHeap, 2),
      'chat-app-rss-growth-mb': round(rssAtEnd - rssAfterWarmUp, 1),
      'chat-delivered': delivered,
      'chat-auto-pauses': findings.pauses,
      'chat-duplicates': dupes.total,
      ...budget,
    });
  } finally {
    await pool?.close();
    await page?.close();
    await app.stop();
    await kick?.close();
  }
}
