/**
 * Journey: a streamer's session, then a restart. Greenroom (the built app, its own process) talks to a
 * standalone Kick sandbox, which outlives the app as Kick does; its webhooks reach the app's fixed webhook
 * port through a reverse proxy that records the app's answers. The streamer signs in from the panel in
 * Chromium, viewers chat, follow, subscribe, gift KICKs and redeem a reward, the streamer deletes a message
 * and times a viewer out from the panel; then the app is stopped (SIGTERM) and started again on the same
 * data dir. Chat, the activity feed and the mod log must come back exactly as they were, item by item,
 * each acknowledged delivery once, nothing doubled; the redemption queue names the viewer. It runs twice: with
 * Kick's live chat connection on, as Greenroom starts, so most lines come first from the socket and their webhooks
 * are copies; and with it off, every line on the webhook path.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_FILE_NAME } from '../../electron/app/settings';
import type { ChatMessageView, FeedItem, ModAction } from '../../shared/views';
import { expectAllShownOnce } from './acknowledged';
import { type AppRun, killLeftovers, startApp } from './app-process';
import { connectPanel, launchChromium, newContext, openPanel, type PanelClient, signInFromPanel, value } from './panel';
import { type StandaloneSandbox, startStandaloneSandbox, STREAMER_USER_ID } from './sandbox-admin';
import { freePort, startWebhookRecorder, type WebhookRecorder } from './webhook-recorder';

const WAIT = { timeout: 15_000 };
/** Viewers of the sandbox world (sandbox/world.ts). */
const VIEWERS = [100100, 100101, 100102, 100103, 100104, 100105, 100106, 100107];
const CHAT_COUNT = 40;
/** The ten event types Greenroom subscribes to by default. */
const WANTED_EVENTS = 10;

interface Shown {
  chat: ChatMessageView[];
  feed: FeedItem[];
  modLog: ModAction[];
}

async function shown(panel: PanelClient): Promise<Shown> {
  const [chat, feed, modLog] = await Promise.all([
    value(panel.api.chat.history()),
    value(panel.api.feed.history()),
    value(panel.api.mod.log()),
  ]);
  return { chat, feed, modLog };
}

describe.each([
  { path: "Kick's live chat connection and the webhooks", socket: true },
  { path: 'the webhooks alone', socket: false },
])('journey: restart keeps chat, the feed and the mod log ($path)', ({ socket }) => {
  let dataDir: string;
  let webhookPort: number;
  let recorder: WebhookRecorder;
  let sandbox: StandaloneSandbox;
  let browser: Browser;
  let app: AppRun;
  let page: Page;
  let panel: PanelClient;
  const chatIds: string[] = [];
  let before: Shown;

  const start = async (): Promise<void> => {
    // GREENROOM_WEBHOOK_PORT left unset: the port comes from the settings file, as on a streamer's machine.
    app = await startApp({ dataDir, env: { ...sandbox.appEnv, GREENROOM_WEBHOOK_PORT: '' } });
    panel = connectPanel(app);
    page = await openPanel(await newContext(browser), app);
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'greenroom-journey-restart-'));
    webhookPort = await freePort();
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    recorder = await startWebhookRecorder(`http://127.0.0.1:${webhookPort}/kick/webhook`);
    sandbox = await startStandaloneSandbox({ redirectUri, webhookUrl: recorder.url });
    // What the streamer set up: the redirect URI registered with their Kick app, and the webhook port their
    // reverse proxy forwards to. Kick's live chat connection is set, not left to the default.
    writeFileSync(
      join(dataDir, `${SETTINGS_FILE_NAME}.json`),
      JSON.stringify({
        version: 2,
        redirectUri,
        webhookPort,
        liveSocket: { enabled: socket, channelId: null, chatroomId: null, idsFor: null },
      }),
    );
    browser = await launchChromium();
  });

  afterAll(async () => {
    panel?.close();
    await browser?.close();
    await app?.stop();
    await sandbox?.close();
    await recorder?.close();
    await killLeftovers();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts on the webhook port from its settings, prints it, and signs in from the panel', async () => {
    await start();
    expect(app.receiverUrl).toBe(`http://127.0.0.1:${webhookPort}/kick/webhook`);
    await signInFromPanel(page, app);
    // After sign-in Greenroom subscribes to its events at Kick.
    await expect.poll(async () => (await sandbox.admin.counts()).eventSubscriptions, WAIT).toBe(WANTED_EVENTS);
    const connection = async () => (await value(panel.api.health.snapshot())).liveSocket?.state;
    if (socket) {
      await expect.poll(connection, WAIT).toBe('connected');
    } else {
      expect(await connection()).toBe('off');
    }
  });

  it('acknowledges chat, follows, subs, KICKs and a redemption, and shows them', async () => {
    for (let i = 0; i < CHAT_COUNT; i++) {
      chatIds.push(await sandbox.admin.chat(`restart journey line ${i + 1}`, VIEWERS[i % VIEWERS.length]!));
    }
    await sandbox.admin.trigger('channel.followed', { count: 3 });
    await sandbox.admin.trigger('channel.subscription.new', { count: 2 });
    await sandbox.admin.trigger('channel.subscription.gifts');
    await sandbox.admin.trigger('kicks.gifted');
    await sandbox.admin.call('POST', `/channels/${STREAMER_USER_ID}/redemptions`, {
      user_id: VIEWERS[0],
      user_input: 'play the restart song',
    });
    await expect.poll(() => recorder.acknowledged().length, WAIT).toBe(CHAT_COUNT + 8);
    expect(recorder.deliveries.filter((d) => d.status !== 200)).toEqual([]);
    const log = page.getByRole('log', { name: 'Chat messages' });
    await log.locator(`article[data-message-id="${chatIds.at(-1)}"]`).waitFor(WAIT);
    // With the socket on, its lines came first: their webhooks, answered 200 like any, were copies.
    const trail = (await value(panel.api.health.snapshot())).liveSocket?.webhookTrail?.samples ?? 0;
    if (socket) {
      expect(trail).toBeGreaterThan(0);
    } else {
      expect(trail).toBe(0);
    }
  });

  it('deletes a message and times a viewer out from the panel', async () => {
    const log = page.getByRole('log', { name: 'Chat messages' });
    const act = async (id: string, username: string, action: string): Promise<void> => {
      const line = log.locator(`article[data-message-id="${id}"]`);
      await line.scrollIntoViewIfNeeded();
      await line.getByRole('button', { name: username, exact: true }).focus();
      await line.getByRole('button', { name: action, exact: true }).click();
      await page.mouse.move(1, 1);
    };
    // Two of the newest lines, which are on screen.
    const deleted = chatIds[CHAT_COUNT - 3]!;
    const timedOut = chatIds[CHAT_COUNT - 2]!;
    const nameOf = async (id: string): Promise<string> =>
      (await value(panel.api.chat.history())).find((m) => m.messageId === id)!.sender.username;
    await act(deleted, await nameOf(deleted), 'Delete message');
    const timedOutName = await nameOf(timedOut);
    await act(timedOut, timedOutName, `Time out ${timedOutName} for 10m`);
    await expect.poll(async () => (await value(panel.api.mod.log())).length, WAIT).toBe(2);
    // Kick sends moderation.banned for the time-out: it is acknowledged like any event.
    await expect.poll(() => recorder.acknowledged().filter((d) => d.type === 'moderation.banned').length, WAIT).toBe(1);
  });

  it('has shown every acknowledged delivery exactly once before the restart', async () => {
    before = await shown(panel);
    const checked = expectAllShownOnce(recorder.acknowledged(), before);
    expect(checked).toEqual({ chat: CHAT_COUNT, feed: 9 });
    // Deliveries run in parallel, as Kick's do, and the socket comes first, so chat is in arrival order: the
    // same messages, not the same order.
    expect(before.chat.map((m) => m.messageId).sort()).toEqual([...chatIds].sort());
    expect(before.chat.find((m) => m.messageId === chatIds[CHAT_COUNT - 3])?.deleted).toBe(true);
    expect(before.modLog.map((a) => [a.kind, a.ok])).toEqual(
      expect.arrayContaining([
        ['delete', true],
        ['timeout', true],
      ]),
    );
  });

  it('brings chat, the feed and the mod log back after SIGTERM and a restart, one by one', async () => {
    panel.close();
    await page.context().close();
    expect(await app.stop()).toEqual({ code: 0, signal: null });
    await start();

    const after = await shown(panel);
    expectAllShownOnce(recorder.acknowledged(), after);
    // One by one: the same messages in the same order with the same state, the same feed, the same mod log.
    expect.soft(after.chat).toEqual(before.chat);
    expect.soft(after.feed).toEqual(before.feed);
    expect.soft(after.modLog).toEqual(before.modLog);

    // And the streamer sees it: the last line, the deleted one marked, the mod log and the feed.
    const log = page.getByRole('log', { name: 'Chat messages' });
    await log.locator(`article[data-message-id="${chatIds.at(-1)}"]`).waitFor(WAIT);
    await log
      .locator(`article[data-message-id="${chatIds[CHAT_COUNT - 3]}"]`)
      .getByText('(deleted)')
      .waitFor(WAIT);
    await page.getByRole('tab', { name: 'Mod log' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Mod log' }).getByRole('listitem').count(), WAIT).toBe(2);
  });

  it('names the viewer in the redemption queue after the restart', async () => {
    await page.getByRole('tab', { name: /^Redemptions/ }).click();
    await page.getByRole('button', { name: "Accept pixelpanda's redemption" }).waitFor(WAIT);
    await expect.poll(() => page.getByText(/user #\d+/).count()).toBe(0);
  });
});
