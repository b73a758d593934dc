/**
 * The chat storm's timings (bench/chat-storm.ts): every sent message matched to where its path starts (the
 * webhook's handover, the sandbox's first attempt; or, with the live socket on, its frame leaving the
 * sandbox), its receipt in the app (the journal) and its row in the page's DOM.
 */
import type { CdpPage } from './cdp-page';
import type { ProbeFindings } from './page-probe';

export interface StormRecord {
  /** Chat message id → when the benchmark sent it. */
  sent: ReadonlyMap<string, number>;
  findings: Pick<ProbeFindings, 'dom' | 'received' | 'arrived'>;
  /** When the page's probe stopped recording. */
  stopAtMs: number;
  /** Webhook message id → chat message id and the app's receipt time. */
  journal: ReadonlyMap<string, { chatId: string; receivedAtMs: number }>;
  /** Webhook message id → its first attempt (the handover). */
  attempts: ReadonlyMap<string, number>;
  /** Webhook message id → time from the event's creation to the handover. */
  queued: ReadonlyMap<string, number>;
  /** Chat message id → when its live socket frame went out; given, the latency starts there, not at the handover. */
  frames?: ReadonlyMap<string, number>;
}

export interface StormTimings {
  /** Start (handover or frame) → row in the DOM, per matched message (the latency figure). */
  latency: number[];
  sendToStart: number[];
  sandboxQueue: number[];
  startToReceipt: number[];
  receiptToDom: number[];
  /** App receipt → the panel socket's frame reaching the page (journal, publish, batching, WebSocket). */
  receiptToPage: number[];
  /** The frame reaching the page → the row in the DOM (the panel's batching and rendering). */
  pageToDom: number[];
  sendToDom: number[];
  delivered: number;
  duplicates: number;
  /** Received, but scrolled past before a frame drew them. */
  undrawn: number;
}

export function stormTimings({
  sent,
  findings,
  stopAtMs,
  journal,
  attempts,
  queued,
  frames,
}: StormRecord): StormTimings {
  const { dom, received, arrived } = findings;
  const chatToHandover = new Map<string, number>();
  const sandboxQueue: number[] = [];
  const chatToReceipt = new Map<string, number>();
  for (const [webhookId, { chatId, receivedAtMs }] of journal) {
    const handover = attempts.get(webhookId);
    if (handover !== undefined) {
      chatToHandover.set(chatId, handover);
      sandboxQueue.push(queued.get(webhookId)!);
    }
    // Both copies may be journaled (socket and webhook): the app received the message with the first.
    chatToReceipt.set(chatId, Math.min(receivedAtMs, chatToReceipt.get(chatId) ?? Infinity));
  }
  const startOf = frames ?? chatToHandover;
  // A row the log scrolled past within one frame never enters the DOM (the log renders only what is in
  // view): it counts as shown when the first later message was, the moment the screen moved past it.
  const shownBy = new Map<string, number>();
  let earliestLater = stopAtMs;
  for (const id of [...sent.keys()].reverse()) {
    const at = dom.get(id);
    if (at !== undefined) {
      earliestLater = Math.min(earliestLater, at);
    } else if (received.has(id)) {
      shownBy.set(id, earliestLater);
    }
  }
  const latency: number[] = [];
  const sendToStart: number[] = [];
  const startToReceipt: number[] = [];
  const receiptToDom: number[] = [];
  const receiptToPage: number[] = [];
  const pageToDom: number[] = [];
  let delivered = 0;
  let duplicates = 0;
  for (const [id, sentAtMs] of sent) {
    const times = received.get(id) ?? 0;
    if (times > 0) {
      delivered++;
      duplicates += times - 1;
    }
    const shownAt = dom.get(id) ?? shownBy.get(id);
    const start = startOf.get(id);
    const receipt = chatToReceipt.get(id);
    if (shownAt === undefined) {
      continue;
    }
    if (start !== undefined) {
      latency.push(shownAt - start);
      sendToStart.push(start - sentAtMs);
      if (receipt !== undefined) {
        startToReceipt.push(receipt - start);
      }
    }
    const atPage = arrived.get(id);
    if (receipt !== undefined) {
      receiptToDom.push(shownAt - receipt);
      if (atPage !== undefined) {
        receiptToPage.push(atPage - receipt);
      }
    }
    if (atPage !== undefined) {
      pageToDom.push(shownAt - atPage);
    }
  }
  const sendToDom = [...sent].flatMap(([id, at]) => {
    const shownAt = dom.get(id) ?? shownBy.get(id);
    return shownAt === undefined ? [] : [shownAt - at];
  });
  return {
    latency,
    sendToStart,
    sandboxQueue,
    startToReceipt,
    receiptToDom,
    receiptToPage,
    pageToDom,
    sendToDom,
    delivered,
    duplicates,
    undrawn: shownBy.size,
  };
}

/** Seconds the panel's main thread spent in tasks, scripts, layout and style so far (Chromium's metrics). */
export async function rendererBusy(cdp: Pick<CdpPage, 'send'>): Promise<Record<string, number>> {
  const { metrics } = await cdp.send<{ metrics: { name: string; value: number }[] }>('Performance.getMetrics');
  return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
}

/** The panel's main thread during the storm, as a share of the storm's wall time. */
export function describeBusy(start: Record<string, number>, end: Record<string, number>, seconds: number): string {
  const share = (name: string): string => `${Math.round((((end[name] ?? 0) - (start[name] ?? 0)) / seconds) * 100)}%`;
  return (
    `panel main thread busy ${share('TaskDuration')} of the storm ` +
    `(script ${share('ScriptDuration')}, layout ${share('LayoutDuration')}, style ${share('RecalcStyleDuration')})`
  );
}

/**
 * Where the frame intervals fall: a vsync interval read through Chromium's coarsened clock (100 µs, jittered)
 * reads 16.6–16.8 ms; a dropped frame reads 33 ms or more. The longest is printed too: the p95 counts
 * intervals, not time, so a page that drew nothing for 40 s (seen once, in headless Chromium) still reads 16.7.
 */
export function describeFrames(frames: readonly number[]): string {
  const bands = [16.75, 16.95, 20, 33, Infinity].map(
    (upTo, i, all) => frames.filter((f) => f < upTo && (i === 0 || f >= all[i - 1]!)).length,
  );
  const longest = frames.reduce((most, f) => Math.max(most, f), 0);
  return (
    `frame intervals <16.75 ${bands[0]}, <16.95 ${bands[1]}, <20 ${bands[2]}, <33 ${bands[3]}, ≥33 ${bands[4]} ms; ` +
    `longest ${Math.round(longest)} ms`
  );
}
