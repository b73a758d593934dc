/**
 * Journey: `kill -9` in the middle of a chat storm. The built app takes a storm of a thousand chat messages
 * and twenty follows from a standalone Kick sandbox, through a reverse proxy that records the app's answers;
 * at the 300th acknowledgement the app is killed with SIGKILL (no flush, no close). Kick (the sandbox) keeps
 * retrying what was not acknowledged. The app is started again on the same data dir and port; once the
 * retries are through, every acknowledged delivery is in chat or the feed exactly once, every message of
 * the storm is there, and nothing the retries brought again is doubled. It runs twice: with Kick's live chat
 * connection on, as Greenroom starts, so the storm comes first from the socket and a webhook waits for its
 * line's journal write; and with it off, every line on the webhook path.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_FILE_NAME } from '../../electron/app/settings';
import { expectAllShownOnce } from './acknowledged';
import { type AppRun, killLeftovers, startApp } from './app-process';
import { exited } from './output-lines';
import { connectPanel, launchChromium, newContext, openPanel, signInFromPanel, value } from './panel';
import { type StandaloneSandbox, startStandaloneSandbox } from './sandbox-admin';
import { freePort, startWebhookRecorder, type WebhookRecorder } from './webhook-recorder';

const WAIT = { timeout: 20_000 };
const STORM = 1000;
/**
 * Fewer than the sandbox has viewers, so each follow is a new follower: a second follow by the same viewer
 * carries a byte-identical body, which the receiver treats as Kick's duplicate delivery.
 */
const FOLLOWS = 20;
const KILL_AT = 300;
/** Longer than the sandbox's first three retry delays (1 s, 5 s, 30 s: sandbox/webhooks/retry-policy.ts). */
const RETRY_ADVANCE_SECONDS = 40;

describe.each([
  { path: "Kick's live chat connection and the webhooks", socket: true },
  { path: 'the webhooks alone', socket: false },
])('journey: kill -9 during a chat storm loses nothing acknowledged and doubles nothing ($path)', ({ socket }) => {
  let dataDir: string;
  let recorder: WebhookRecorder;
  let sandbox: StandaloneSandbox;
  let browser: Browser;
  let app: AppRun;
  const stormIds: string[] = [];
  let acknowledgedAtKill = 0;

  const start = async (): Promise<AppRun> =>
    startApp({ dataDir, env: { ...sandbox.appEnv, GREENROOM_WEBHOOK_PORT: '' } });

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'greenroom-journey-kill-'));
    const webhookPort = await freePort();
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    recorder = await startWebhookRecorder(`http://127.0.0.1:${webhookPort}/kick/webhook`);
    sandbox = await startStandaloneSandbox({ redirectUri, webhookUrl: recorder.url, autoApprove: true });
    // Room for the whole storm in chat (the default keeps the last 1,000 lines); Kick's live chat connection set,
    // not left to the default.
    writeFileSync(
      join(dataDir, `${SETTINGS_FILE_NAME}.json`),
      JSON.stringify({
        version: 2,
        redirectUri,
        webhookPort,
        chatScrollback: 5000,
        liveSocket: { enabled: socket, channelId: null, chatroomId: null, idsFor: null },
      }),
    );
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await sandbox?.close();
    await recorder?.close();
    await killLeftovers();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is killed with SIGKILL while the storm is being delivered', async () => {
    app = await start();
    const page = await openPanel(await newContext(browser), app);
    await signInFromPanel(page, app);
    await expect.poll(async () => (await sandbox.admin.counts()).eventSubscriptions, WAIT).toBe(10);
    const panel = connectPanel(app);
    const connection = async () => (await value(panel.api.health.snapshot())).liveSocket?.state;
    await expect.poll(connection, WAIT).toBe(socket ? 'connected' : 'off');
    panel.close();
    await page.context().close();

    const killed = app;
    recorder.onDelivery(() => {
      if (acknowledgedAtKill === 0 && recorder.acknowledged().length >= KILL_AT) {
        acknowledgedAtKill = recorder.acknowledged().length;
        killed.child.kill('SIGKILL');
      }
    });
    const storm = await sandbox.admin.trigger('chat.message.sent', { count: STORM });
    stormIds.push(...storm.map((payload) => String(payload.message_id)));
    await sandbox.admin.trigger('channel.followed', { count: FOLLOWS });
    expect(await exited(killed.child)).toEqual({ code: null, signal: 'SIGKILL' });
    // Killed mid-storm: some acknowledged, the rest still to come.
    expect(acknowledgedAtKill).toBeGreaterThanOrEqual(KILL_AT);
    expect(acknowledgedAtKill).toBeLessThan(STORM);
  });

  it('after a restart and Kick’s retries, shows every acknowledged delivery and every storm message once', async () => {
    app = await start();
    const panel = connectPanel(app);
    try {
      // Kick retries on its own schedule; the sandbox's clock is moved on so the retries come now.
      for (let round = 0; round < 5 && (await sandbox.admin.counts()).pendingDeliveries > 0; round++) {
        await sandbox.admin.call('POST', '/clock/advance', { seconds: RETRY_ADVANCE_SECONDS });
      }
      await expect.poll(async () => (await sandbox.admin.counts()).pendingDeliveries, WAIT).toBe(0);

      const chat = await value(panel.api.chat.history());
      const feed = await value(panel.api.feed.history());
      const checked = expectAllShownOnce(recorder.acknowledged(), { chat, feed });
      // Every acknowledged chat delivery, before the kill and after: each is one storm message, shown once.
      expect(checked.chat).toBeGreaterThanOrEqual(STORM);
      expect(chat.map((m) => m.messageId).sort()).toEqual([...stormIds].sort());
      expect(feed.filter((item) => item.kind === 'follow')).toHaveLength(FOLLOWS);

      // The streamer's panel shows the end of the storm.
      const page = await openPanel(await newContext(browser), app);
      await page
        .getByRole('log', { name: 'Chat messages' })
        .locator(`article[data-message-id="${chat.at(-1)!.messageId}"]`)
        .waitFor(WAIT);
    } finally {
      panel.close();
    }
  });
});
