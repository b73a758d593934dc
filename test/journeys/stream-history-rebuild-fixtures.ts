/**
 * The real app on Node 24 (as Electron 45 runs it, with `node:sqlite`) on a data dir of its own and its embedded
 * sandbox, signed in once from the panel in Chromium and started again as often as a journey wants (the sandbox's
 * world, its subscriptions and the sign-in are kept in the data dir), with what the sandbox sent kept in order.
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { expect, vi } from 'vitest';
import { SETTINGS_FILE_NAME } from '../../electron/app/settings';
import type { HistoryRecapView } from '../../shared/history';
import { KICK_EVENT_TYPES } from '../../shared/kick/scopes';
import type { SandboxEvent } from '../../sandbox/state';
import { type AppRun, startApp } from './app-process';
import { connectPanel, newContext, openPanel, type PanelClient, signInFromPanel, value } from './panel';
import { embeddedSandbox, type SandboxAdmin, STREAMER_USER_ID } from './sandbox-admin';
import { freePort } from './webhook-recorder';

export const WAIT = { timeout: 60_000 };

/** The history's files in the data dir (`electron/app/app-history.ts`). */
export const STORE_FILES = ['history.sqlite', 'history.sqlite-wal', 'history.sqlite-shm'];

/** One data dir's app, started and stopped in turn. */
export class HistoryRun {
  app!: AppRun;
  admin!: SandboxAdmin;
  panel!: PanelClient;
  /** Every event the sandbox sent, in order: the record the recap must equal. */
  readonly fired: SandboxEvent[] = [];

  constructor(
    readonly dataDir: string,
    private readonly env: Record<string, string> = {},
  ) {}

  /** Starts the app and waits for its history to be ready; signs in from the panel on the first start. */
  async start(browser: Browser): Promise<void> {
    const first = !existsSync(join(this.dataDir, `${SETTINGS_FILE_NAME}.json`));
    if (first) {
      writeFileSync(
        join(this.dataDir, `${SETTINGS_FILE_NAME}.json`),
        JSON.stringify({ redirectUri: `http://127.0.0.1:${await freePort()}/callback` }),
      );
    }
    this.app = await startApp({ dataDir: this.dataDir, node: '24', env: this.env });
    this.admin = await embeddedSandbox(this.app);
    this.panel = connectPanel(this.app);
    await vi.waitFor(async () => expect((await this.status()).state).toBe('ready'), WAIT);
    if (first) {
      const page = await openPanel(await newContext(browser), this.app);
      const guide = page.getByRole('dialog', { name: 'Set up Greenroom' });
      await guide.waitFor(WAIT);
      await guide.getByRole('button', { name: 'Close setup' }).click();
      await signInFromPanel(page, this.app);
      await page.context().close();
    }
    await vi.waitFor(
      async () => expect((await this.admin.counts()).eventSubscriptions).toBe(KICK_EVENT_TYPES.length),
      WAIT,
    );
  }

  /** SIGTERM, as a streamer quitting: the store closes level with the journal. */
  async stop(): Promise<void> {
    this.panel.close();
    const exit = await this.app.stop();
    expect(exit.code).toBe(0);
  }

  status() {
    return value(this.panel.api.history.status());
  }

  recap(streamId: number): Promise<HistoryRecapView> {
    return value(this.panel.api.history.recap({ streamId }));
  }

  /** What the panel reads of the history: the streams, the recap, and the cards of everyone in the recap. */
  async everything(streamId: number) {
    const recap = await this.recap(streamId);
    const people = [...recap.followers, ...recap.newChatters, ...recap.returningChatters, ...recap.kicks];
    const ids = [...new Set(people.map((p) => p.userId))].sort((a, b) => a - b);
    const cards = [];
    for (const userId of ids) {
      cards.push(await value(this.panel.api.history.viewer({ userId })));
    }
    return { streams: await value(this.panel.api.history.streams()), recap, cards };
  }

  /** Fires through the sandbox's admin API and keeps what it sent. */
  async fire(type: string, body: Record<string, unknown> = {}): Promise<Record<string, unknown>[]> {
    const payloads = await this.admin.trigger(type, body);
    this.fired.push(...payloads.map((payload) => ({ type, version: 1, broadcasterUserId: STREAMER_USER_ID, payload })));
    return payloads;
  }

  /** Goes live and waits until the history has the stream open; resolves with its id (Kick's start, in ms). */
  async goLive(): Promise<number> {
    const [live] = await this.fire('livestream.status.updated', { overrides: { is_live: true } });
    const streamId = Date.parse(String(live!.started_at));
    await expect.poll(async () => (await this.status()).liveStreamId, WAIT).toBe(streamId);
    return streamId;
  }

  async goOffline(): Promise<void> {
    await this.fire('livestream.status.updated', { overrides: { is_live: false } });
    await expect.poll(async () => (await this.status()).liveStreamId, WAIT).toBeNull();
  }

  /** A little of everything a recap lists, with `chat` lines of chat (from `chatters` viewers, if given). */
  async activity(chat: number, chatters?: number): Promise<void> {
    await this.fire('channel.followed', { count: 5 });
    await this.fire('channel.subscription.new', { count: 3 });
    await this.fire('channel.subscription.renewal', { count: 2 });
    await this.fire('channel.subscription.gifts', { count: 2 });
    await this.fire('kicks.gifted', { count: 4 });
    await this.fire('channel.reward.redemption.updated', { count: 3 });
    for (let left = chat; left > 0; left -= 1000) {
      await this.fire('chat.message.sent', { count: Math.min(1000, left), ...(chatters ? { chatters } : {}) });
    }
  }

  /**
   * Chat in steps of `step` lines, each waited for in the recap: the journal writes what arrives together in one
   * batch and rolls over between batches, so steps make it roll over many times.
   */
  async chatInSteps(streamId: number, total: number, step: number): Promise<void> {
    for (let sent = 0; sent < total; sent += step) {
      await this.fire('chat.message.sent', { count: Math.min(step, total - sent) });
      const lines = this.fired.filter((e) => e.type === 'chat.message.sent').length;
      await expect.poll(async () => (await this.recap(streamId)).figures.messages, WAIT).toBe(lines);
    }
  }

  /** The app's log lines (stderr) that speak of the history. */
  historyLines(): string[] {
    return this.app.stderr.lines.filter((line) => line.startsWith('history: '));
  }

  /** The journal's segment files, oldest first. */
  segments(): string[] {
    return readdirSync(join(this.dataDir, 'journal'))
      .filter((name) => /^journal-\d+\.log$/.test(name))
      .sort();
  }

  /** Removes the journal's segments, as a streamer clearing space would. */
  deleteJournal(): void {
    for (const segment of this.segments()) {
      rmSync(join(this.dataDir, 'journal', segment));
    }
  }

  /** Removes the store's files, as a streamer clearing space or a cleaner tool would. */
  deleteStore(): void {
    for (const file of STORE_FILES) {
      rmSync(join(this.dataDir, file), { force: true });
    }
  }
}
