/**
 * Journey: a stream's recap through the real app ([history](../../docs/history.md#in-the-app)), exact across a
 * restart and a `kill -9`. The built app runs on Node 24 (as Electron 45 runs it, with `node:sqlite`) against a
 * standalone Kick sandbox, which, like Kick, outlives the app: what it could not deliver while the app was down it
 * retries. The streamer signs in from the panel in Chromium.
 *
 * An earlier short stream (100 chatters) comes first, so the main stream has returning chatters as well as new.
 * The main stream: follows, new and renewed subs, gifts, KICKs, redemptions and 5,000 chat lines from 300
 * chatters, in three parts; a plain restart after the first, a `kill -9` while the third is being delivered, then
 * bans and offline. The recap read over the panel's socket equals what the sandbox sent, item by item (lists, new
 * and returning chatters, messages, the busiest minute, bans and timeouts), and the CSV export's totals match.
 *
 * Why a standalone sandbox: the embedded one lives in the app's process, so a `kill -9` killed "Kick" too, and
 * with it the world it saves at most once a second. On a busy machine the kill came before the sign-in had been
 * saved; the restarted sandbox knew neither the sign-in nor the event subscriptions and sent nothing more.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SETTINGS_FILE_NAME } from '../../electron/app/settings';
import { KICK_EVENT_TYPES } from '../../shared/kick/scopes';
import type { SandboxEvent } from '../../sandbox/state';
import { expectedRecap, recapLists } from '../integration/app/history-app-fixtures';
import { type AppRun, killLeftovers, startApp } from './app-process';
import { exited } from './output-lines';
import { connectPanel, launchChromium, newContext, openPanel, type PanelClient, signInFromPanel, value } from './panel';
import { type StandaloneSandbox, startStandaloneSandbox, STREAMER_USER_ID } from './sandbox-admin';
import {
  chattersIn,
  csvTotals,
  expectedChatters,
  expectedCsvTotals,
  expectedFigures,
  recapChatters,
  recapFigures,
} from './stream-recap-fixtures';
import { openTab } from './tabs-fixtures';
import { freePort } from './webhook-recorder';

/** A ceiling for a busy machine; alone, each wait takes a few seconds. */
const WAIT = { timeout: 120_000, interval: 250 };
const CHATTERS = 300;
/** The main stream's chat, in three parts: 1,700 + 1,650 + 1,650 = 5,000 lines. */
const PARTS = [1700, 1650, 1650];
/** Longer than the sandbox's first three retry delays (1 s, 5 s, 30 s: sandbox/webhooks/retry-policy.ts). */
const RETRY_ADVANCE_SECONDS = 40;

describe('journey: the recap of a stream, exact across a restart and a kill -9', () => {
  let dataDir: string;
  let sandbox: StandaloneSandbox;
  let browser: Browser;
  let app: AppRun;
  let panel: PanelClient;
  /** Every event the sandbox fired, in order. */
  const fired: SandboxEvent[] = [];

  const fire = async (type: string, body: Record<string, unknown> = {}) => {
    const payloads = await sandbox.admin.trigger(type, body);
    fired.push(...payloads.map((payload) => ({ type, version: 1, broadcasterUserId: STREAMER_USER_ID, payload })));
    return payloads;
  };
  const chat = async (lines: number, chatters: number) => {
    for (let sent = 0; sent < lines; sent += 1000) {
      await fire('chat.message.sent', { count: Math.min(1000, lines - sent), chatters });
    }
  };
  const activity = async (lines: number) => {
    await fire('channel.followed', { count: 5 });
    await fire('channel.subscription.new', { count: 3 });
    await fire('channel.subscription.renewal', { count: 2 });
    await fire('channel.subscription.gifts', { count: 2 });
    await fire('kicks.gifted', { count: 4 });
    await fire('channel.reward.redemption.updated', { count: 3 });
    await chat(lines, CHATTERS);
  };
  const status = () => value(panel.api.history.status());
  const recap = (streamId: number) => value(panel.api.history.recap({ streamId }));
  const goLive = async (isLive: boolean) => {
    const [event] = await fire('livestream.status.updated', { overrides: { is_live: isLive } });
    const streamId = isLive ? Date.parse(String(event!.started_at)) : null;
    await expect.poll(async () => (await status()).liveStreamId, WAIT).toBe(streamId);
    return streamId;
  };
  const start = async () => {
    // GREENROOM_WEBHOOK_PORT left unset: the port comes from the settings file, the same after each start.
    app = await startApp({ dataDir, node: '24', env: { ...sandbox.appEnv, GREENROOM_WEBHOOK_PORT: '' } });
    panel = connectPanel(app);
    await vi.waitFor(async () => expect((await status()).state).toBe('ready'), WAIT);
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'greenroom-journey-recap-'));
    const webhookPort = await freePort();
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    const webhookUrl = `http://127.0.0.1:${webhookPort}/kick/webhook`;
    sandbox = await startStandaloneSandbox({ redirectUri, webhookUrl, autoApprove: true });
    writeFileSync(
      join(dataDir, `${SETTINGS_FILE_NAME}.json`),
      JSON.stringify({ version: 2, redirectUri, webhookPort }),
    );
    browser = await launchChromium();
    await start();
    const page = await openPanel(await newContext(browser), app);
    await signInFromPanel(page, app);
    await vi.waitFor(
      async () => expect((await sandbox.admin.counts()).eventSubscriptions).toBe(KICK_EVENT_TYPES.length),
      WAIT,
    );
    await page.context().close();
  }, 180_000);

  afterAll(async () => {
    panel?.close();
    await browser?.close();
    await app?.stop();
    await sandbox?.close();
    await killLeftovers();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('recaps exactly what the sandbox sent, across a restart and a kill -9 mid-stream', async () => {
    // An earlier stream: its 100 chatters are the main stream's returning ones.
    const earlierId = (await goLive(true))!;
    const earlier = fired.length;
    await chat(120, 100);
    const before = chattersIn(fired.slice(earlier));
    expect(before.size).toBe(100);
    await expect
      .poll(async () => recapLists(await recap(earlierId)), WAIT)
      .toEqual(expectedRecap(fired.slice(earlier)));
    await goLive(false);
    // Between streams: the main one starts at least a second after the earlier one's chat, as streams do; the
    // history tells "seen before the start" to the whole second, the live socket's precision.
    await sandbox.admin.call('POST', '/clock/advance', { seconds: 2 });

    const streamId = (await goLive(true))!;
    const from = fired.length;
    const stream = () => fired.slice(from);
    await activity(PARTS[0]!);
    await expect.poll(async () => recapLists(await recap(streamId)), WAIT).toEqual(expectedRecap(stream()));

    // A plain restart mid-stream: the stream is joined, nothing counted twice.
    panel.close();
    expect(await app.stop()).toEqual({ code: 0, signal: null });
    await start();
    expect((await status()).liveStreamId).toBe(streamId);
    expect(recapLists(await recap(streamId))).toEqual(expectedRecap(stream()));
    await activity(PARTS[1]!);
    await expect.poll(async () => recapLists(await recap(streamId)), WAIT).toEqual(expectedRecap(stream()));

    // kill -9 while the third part is being delivered: Kick retries what the app did not acknowledge.
    panel.close();
    await activity(PARTS[2]!);
    const killed = app;
    await killed.kill();
    expect(await exited(killed.child)).toEqual({ code: null, signal: 'SIGKILL' });
    // Killed mid-delivery: the sandbox still holds deliveries of the third part.
    expect((await sandbox.admin.counts()).pendingDeliveries).toBeGreaterThan(0);
    await start();
    expect((await status()).liveStreamId).toBe(streamId);
    for (let round = 0; round < 6 && (await sandbox.admin.counts()).pendingDeliveries > 0; round++) {
      await sandbox.admin.call('POST', '/clock/advance', { seconds: RETRY_ADVANCE_SECONDS });
    }
    await expect.poll(async () => (await sandbox.admin.counts()).pendingDeliveries, WAIT).toBe(0);
    await fire('moderation.banned', { count: 3 });
    await goLive(false);

    const expected = expectedRecap(stream());
    expect(expected.messages).toBe(5000);
    expect(expected.chatters).toHaveLength(CHATTERS);
    await expect.poll(async () => recapLists(await recap(streamId)), WAIT).toEqual(expected);
    const final = await recap(streamId);
    const chatters = expectedChatters(stream(), before);
    expect(chatters.returningChatters).toHaveLength(100);
    expect(recapChatters(final)).toEqual(chatters);
    expect(recapFigures(final)).toEqual(expectedFigures(stream(), streamId));

    const csv = await value(panel.api.history.exportRecap({ streamId, format: 'csv' }));
    expect(csvTotals(csv.text)).toEqual(expectedCsvTotals(stream(), before));
  }, 600_000);

  it('opens the recap from the Streams tab', async () => {
    const page = await openPanel(await newContext(browser), app);
    await openTab(page, 'Streams');
    await page
      .getByRole('button', { name: /^Open the recap of / })
      .first()
      .click();
    const recapView = page.locator('section.recap');
    for (const { username } of expectedRecap(fired).followers.slice(0, 5)) {
      await recapView.getByText(username, { exact: true }).first().waitFor({ timeout: 30_000 });
    }
  }, 60_000);
});
