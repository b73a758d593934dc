/**
 * What the storm benchmark watches inside the panel page, installed before the panel's own scripts run:
 * - every animation frame's interval (while recording), and a running count of every frame (`framesSeen`), so a
 *   stretch of the storm can be divided into its frames (`storm-budget.ts`);
 * - when each chat message's row first enters the DOM (a MutationObserver; `Date.now()`, the machine clock
 *   the app and the sandbox use too);
 * - which chat messages reached the page over the panel socket, when each first did, and how often each
 *   arrived (duplicates);
 * - how often chat stopped following live by itself: the "N new messages" / "back to live" button
 *   appearing with nobody touching the page. The probe then clicks it, as the streamer would, so the rest
 *   of the storm is still measured on a live chat.
 *
 * Kept as plain browser JavaScript in a string: it runs in the page, not in Node.
 */
export const PAGE_PROBE = `(() => {
  // Findings are drained by the benchmark every second, so they never pile up in the heap it measures.
  const b = (window.__benchProbe = {
    recording: false,
    framesSeen: 0,
    frames: [],
    dom: [],
    received: [],
    arrived: [],
    pauses: 0,
    pausedNow: false,
    drain() {
      const out = { frames: b.frames, dom: b.dom, received: b.received, arrived: b.arrived, pauses: b.pauses, atMs: Date.now() };
      b.frames = [];
      b.dom = [];
      b.received = [];
      b.arrived = [];
      return out;
    },
  });

  // --- Frames, and the live/paused state checked once per frame ---
  let last = 0;
  const pauseButton = () => {
    const log = document.querySelector('[role="log"][aria-label="Chat messages"]');
    const wrap = log && log.parentElement;
    if (!wrap) return null;
    for (const child of wrap.children) {
      if (child === log) continue;
      for (const button of child.querySelectorAll('button')) {
        if (/new message|back to live|paused/i.test(button.textContent || '')) return button;
      }
    }
    return null;
  };
  const frame = (t) => {
    b.framesSeen++;
    if (b.recording && last > 0) b.frames.push(t - last);
    last = t;
    const button = b.recording ? pauseButton() : null;
    if (button && !b.pausedNow) b.pauses++;
    b.pausedNow = !!button;
    if (button) button.click();
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);

  // --- Rows entering the DOM (the benchmark keeps each message's first) ---
  const observer = new MutationObserver((records) => {
    const now = Date.now();
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType !== 1) continue;
        if (node.matches('article[data-message-id]')) b.dom.push(node.getAttribute('data-message-id'), now);
        for (const el of node.querySelectorAll('article[data-message-id]')) {
          b.dom.push(el.getAttribute('data-message-id'), now);
        }
      }
    }
  });
  const observe = () => observer.observe(document.documentElement, { childList: true, subtree: true });
  if (document.documentElement) observe(); else document.addEventListener('DOMContentLoaded', observe);

  // --- Chat messages arriving on the panel socket (whatever the batching: any chat message view) ---
  const walk = (value, depth, at) => {
    if (depth > 8 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item, depth + 1, at);
      return;
    }
    if (typeof value.messageId === 'string' && typeof value.content === 'string' && value.sender && typeof value.sender === 'object') {
      b.received.push(value.messageId);
      b.arrived.push(value.messageId, at);
      return;
    }
    for (const key in value) walk(value[key], depth + 1, at);
  };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        if (typeof event.data !== 'string' || event.data.indexOf('"event"') < 0) return;
        const at = Date.now();
        let frame;
        try { frame = JSON.parse(event.data); } catch { return; }
        if (frame && frame.type === 'event') walk(frame.payload, 0, at);
        if (frame && frame.type === 'events') for (const e of frame.events) walk(e.payload, 0, at);
      });
    }
  };
})();`;

/** One drain of the probe's findings since the last. */
export interface ProbeDrain {
  /** Frame intervals, ms. */
  frames: number[];
  /** Alternating chat message id and epoch ms its row entered the DOM. */
  dom: (string | number)[];
  /** Chat message ids received on the socket, once per receipt. */
  received: string[];
  /** Alternating chat message id and epoch ms its socket frame reached the page. */
  arrived: (string | number)[];
  /** Auto-pauses so far (a running total). */
  pauses: number;
  atMs: number;
}

/** The findings of a whole run, gathered in Node from the drains. */
export class ProbeFindings {
  readonly frames: number[] = [];
  /** First time each message's row entered the DOM. */
  readonly dom = new Map<string, number>();
  /** Times each message was received. */
  readonly received = new Map<string, number>();
  /** First time each message reached the page on the socket. */
  readonly arrived = new Map<string, number>();
  pauses = 0;
  lastAtMs = 0;

  add(drain: ProbeDrain): void {
    for (const frame of drain.frames) {
      this.frames.push(frame);
    }
    for (let i = 0; i < drain.dom.length; i += 2) {
      const id = drain.dom[i] as string;
      if (!this.dom.has(id)) {
        this.dom.set(id, drain.dom[i + 1] as number);
      }
    }
    for (let i = 0; i < drain.arrived.length; i += 2) {
      const id = drain.arrived[i] as string;
      if (!this.arrived.has(id)) {
        this.arrived.set(id, drain.arrived[i + 1] as number);
      }
    }
    for (const id of drain.received) {
      this.received.set(id, (this.received.get(id) ?? 0) + 1);
    }
    this.pauses = drain.pauses;
    this.lastAtMs = drain.atMs;
  }
}
