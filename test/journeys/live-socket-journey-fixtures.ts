/**
 * What the live-socket journeys share (docs/settings.md#kicks-live-chat-connection): the overlays world with the
 * panel open in Chromium and a watcher in the page that counts every chat row ever rendered per message id, the
 * sandbox's live-socket status, and the connection's Health as the panel contract reports it.
 */
import type { Page } from 'playwright-core';
import { channelName, LIVE_ROOMS } from '../../sandbox/live-socket/ids';
import type { LiveSocketHealthView } from '../../shared/views';
import { startOverlayWorld, type OverlayWorld } from './overlay-fixtures';
import { openPanel, value } from './panel';
import { type SandboxAdmin, STREAMER_USER_ID } from './sandbox-admin';
import { waitUntil } from './wait';

/**
 * Counts, in the page, the chat rows of the chat column ever rendered, by message id: a line shown twice (two
 * rows at once, or one removed and shown again) counts 2. Installed before the panel's own script runs.
 */
const WATCH_CHAT_ROWS = `
  window.__chatRows = {};
  const seen = new WeakSet();
  new MutationObserver(() => {
    for (const row of document.querySelectorAll('[role="log"][aria-label="Chat messages"] article[data-message-id]')) {
      if (!seen.has(row)) {
        seen.add(row);
        const id = row.getAttribute('data-message-id');
        window.__chatRows[id] = (window.__chatRows[id] ?? 0) + 1;
      }
    }
  }).observe(document, { subtree: true, childList: true });
`;

/** How many chat rows the page ever rendered for each message id. */
export function chatRowsEverShown(page: Page): Promise<Record<string, number>> {
  return page.evaluate<Record<string, number>>('window.__chatRows');
}

/** What the sandbox's `GET /live-socket` answers (the part the journeys read). */
export interface SandboxLiveStatus {
  providers: string[];
  connections: string;
  sessions: { provider: string; channels: string[] }[];
  webhook_delay_seconds: number;
}

export interface LiveWorld {
  world: OverlayWorld;
  panel: Page;
  /** The sandbox's view of its live socket. */
  status(): Promise<SandboxLiveStatus>;
  /** The app's live connection as Health has it (through the panel contract). */
  health(): Promise<LiveSocketHealthView | undefined>;
  /** {@link waitUntilListening} for this world's sandbox. */
  untilListening(): Promise<void>;
  /** A viewer's chat line in the streamer's channel; its message id. */
  chat(content: string, userId?: number): Promise<string>;
  /** The message ids of the webhooks the sandbox still holds. */
  heldChat(): Promise<string[]>;
  /** The chat message ids whose webhook the app acknowledged (through the recorder in front of it). */
  acknowledgedChat(): string[];
}

/**
 * Waits, in a hook or in a test, until one socket session of the sandbox has subscribed to every room of the
 * streamer's; fails with the sessions it last saw. Health says connected once the connection is up, a round trip
 * before its subscriptions are: a chat line or a raid sent in between goes to no socket (a chat line then comes by
 * webhook only, a raid not at all).
 */
export async function waitUntilListening(admin: Pick<SandboxAdmin, 'call'>, timeoutMs = 30_000): Promise<void> {
  const names = LIVE_ROOMS.map((room) => channelName(room, STREAMER_USER_ID));
  await waitUntil(
    "a live socket session subscribed to every room of the streamer's",
    // One failed admin call is a miss, not the end of the wait (as the polls this replaced had it).
    async () => (await admin.call<SandboxLiveStatus>('GET', '/live-socket').catch(() => null))?.sessions ?? [],
    (sessions) => sessions.some((session) => names.every((name) => session.channels.includes(name))),
    timeoutMs,
  );
}

/**
 * The world with the live connection off, whatever the default, and the sandbox's live-socket settings applied
 * (e.g. which providers discovery offers, asked at each connect); then the panel open with the row watcher. The
 * journey switches the connection on itself.
 */
export async function startLiveWorld(sandboxSettings: Record<string, unknown> = {}): Promise<LiveWorld> {
  const world = await startOverlayWorld();
  await value(world.panel.api.settings.update({ liveSocket: { enabled: false } }));
  if (Object.keys(sandboxSettings).length > 0) {
    await world.sandbox.admin.call('POST', '/live-socket/settings', sandboxSettings);
  }
  const context = await world.browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(WATCH_CHAT_ROWS);
  const panel = await openPanel(context, world.app);
  return {
    world,
    panel,
    status: () => world.sandbox.admin.call<SandboxLiveStatus>('GET', '/live-socket'),
    untilListening: () => waitUntilListening(world.sandbox.admin),
    health: async () => (await value(world.panel.api.health.snapshot())).liveSocket,
    chat: (content, userId = 100101) => world.sandbox.admin.chat(content, userId),
    heldChat: async () =>
      (
        await world.sandbox.admin.call<{ messages: { payload: { message_id?: string } }[] }>(
          'GET',
          '/deliveries/pending?limit=1000',
        )
      ).messages.flatMap((m) => (m.payload.message_id ? [m.payload.message_id] : [])),
    acknowledgedChat: () =>
      world.recorder
        .acknowledged()
        .filter((d) => d.type === 'chat.message.sent')
        .map((d) => d.payload.message_id as string),
  };
}
