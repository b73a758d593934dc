/**
 * Journey: the recap's moderation figures and its worst webhook lag, each against the sandbox's own record
 * ([history](../../docs/history.md#the-recap)). The built app runs on Node 24 (as Electron 45 runs it, with
 * `node:sqlite`) against a standalone Kick sandbox, signed in from the panel in Chromium.
 *
 * During the stream, through the panel's contract: the streamer bans one viewer, times out another and deletes a
 * line; auto-moderation (a blocked term, delete) removes the lines that trip it; and Kick's webhooks are held back
 * for a few seconds while viewers follow. After offline the recap's actions through Greenroom equal the bans,
 * timeouts and deletions the sandbox recorded as the streamer's, its auto-moderation actions equal the tripping
 * lines the sandbox deleted, and its worst lag lies within the delay the sandbox recorded for what it held.
 * The streamer also runs an ad break from the panel: the recap's ad breaks and their seconds equal the breaks the
 * sandbox recorded in the stream (Kick sends no event for one; Greenroom journals those it ran).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SETTINGS_FILE_NAME } from '../../electron/app/settings';
import { DEFAULT_AUTOMOD_SETTINGS } from '../../shared/automod';
import { KICK_EVENT_TYPES } from '../../shared/kick/scopes';
import { type AppRun, killLeftovers, startApp } from './app-process';
import { connectPanel, launchChromium, newContext, openPanel, type PanelClient, signInFromPanel, value } from './panel';
import { type StandaloneSandbox, startStandaloneSandbox, STREAMER_USER_ID } from './sandbox-admin';
import { freePort } from './webhook-recorder';

/** A ceiling for a busy machine; alone, each wait takes a few seconds. */
const WAIT = { timeout: 60_000, interval: 250 };
/** How long the sandbox holds each webhook while "behind": long enough to stand out from a normal delivery. */
const DELAY_S = 4;
/**
 * Above the held delay, the lag also holds the sandbox's delivery tick, the HTTP round trip and the app's filing
 * on a machine other helpers share: seconds at worst, never half a minute.
 */
const LAG_SLACK_MS = 30_000;
const BANNED = 100101;
const TIMED_OUT = 100102;
const DELETED = 100103;
const SPAMMERS = [100104, 100105, 100106];
/** Kick's shortest ad break: the stream goes on beside it. */
const AD_SECONDS = 7;

interface SandboxChat {
  messages: { message_id: string; sender_user_id: number; deleted: boolean }[];
}
interface SandboxBans {
  bans: { user_id: number; moderator_user_id: number; expires_at: string | null }[];
}
interface SandboxAds {
  breaks: { id: string; break_duration_seconds: number; created_at: string }[];
}
interface HeldDeliveries {
  messages: { event_type: string; due_at: string; payload: Record<string, unknown> }[];
}

/**
 * Kick's time for an event as the history reads it: a time to the whole second is the latest moment of that
 * second ([history](../../docs/history.md#the-recap)), so a held delivery's lag can be up to 999 ms under its delay.
 */
function readAsGreenroom(time: string): number {
  return Date.parse(time) + (/\.\d/.test(time) ? 0 : 999);
}

describe('journey: the recap counts what the app did and how late Kick was, as the sandbox recorded', () => {
  let dataDir: string;
  let sandbox: StandaloneSandbox;
  let browser: Browser;
  let app: AppRun;
  let panel: PanelClient;

  const status = () => value(panel.api.history.status());
  const chatLog = async () =>
    (await sandbox.admin.call<SandboxChat>('GET', `/channels/${STREAMER_USER_ID}/chat?limit=500`)).messages;
  const bans = async () => (await sandbox.admin.call<SandboxBans>('GET', `/channels/${STREAMER_USER_ID}/bans`)).bans;
  const inGreenroom = async (messageId: string) =>
    (await value(panel.api.chat.history())).some((m) => m.messageId === messageId);
  const goLive = async (isLive: boolean) => {
    const [event] = await sandbox.admin.trigger('livestream.status.updated', { overrides: { is_live: isLive } });
    const streamId = isLive ? Date.parse(String(event!.started_at)) : null;
    await expect.poll(async () => (await status()).liveStreamId, WAIT).toBe(streamId);
    return streamId;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'greenroom-journey-recap-figures-'));
    const webhookPort = await freePort();
    const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    const webhookUrl = `http://127.0.0.1:${webhookPort}/kick/webhook`;
    sandbox = await startStandaloneSandbox({ redirectUri, webhookUrl, autoApprove: true });
    writeFileSync(
      join(dataDir, `${SETTINGS_FILE_NAME}.json`),
      JSON.stringify({ version: 2, redirectUri, webhookPort }),
    );
    browser = await launchChromium();
    app = await startApp({ dataDir, node: '24', env: { ...sandbox.appEnv, GREENROOM_WEBHOOK_PORT: '' } });
    panel = connectPanel(app);
    await vi.waitFor(async () => expect((await status()).state).toBe('ready'), WAIT);
    const page = await openPanel(await newContext(browser), app);
    await signInFromPanel(page, app);
    await vi.waitFor(
      async () => expect((await sandbox.admin.counts()).eventSubscriptions).toBe(KICK_EVENT_TYPES.length),
      WAIT,
    );
    await page.context().close();
    const automod = structuredClone(DEFAULT_AUTOMOD_SETTINGS);
    automod.enabled = true;
    automod.dryRun = false;
    automod.blockedTerms.terms = [{ pattern: 'free followers', kind: 'plain' }];
    automod.blockedTerms.action = { kind: 'delete', minutes: 5 };
    await value(panel.api.settings.update({ automod }));
    // Kick runs ad breaks only for a channel enrolled while offline.
    await value(panel.api.ads.enroll());
  }, 180_000);

  afterAll(async () => {
    panel?.close();
    await browser?.close();
    await app?.stop();
    await sandbox?.close();
    await killLeftovers();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('gives the moderation figures and the worst lag the sandbox recorded', async () => {
    const streamId = (await goLive(true))!;

    // The streamer's own actions, each once its target's line is in Greenroom's chat.
    const lines = new Map<number, string>();
    for (const viewer of [BANNED, TIMED_OUT, DELETED]) {
      lines.set(viewer, await sandbox.admin.chat(`hello from ${viewer}`, viewer));
    }
    for (const id of lines.values()) {
      await expect.poll(() => inGreenroom(id), WAIT).toBe(true);
    }
    await value(panel.api.mod.ban({ userId: BANNED }));
    await value(panel.api.mod.timeout({ userId: TIMED_OUT, minutes: 10 }));
    await value(panel.api.chat.delete({ messageId: lines.get(DELETED)! }));
    // An ad break through the panel's contract, as its "Run ad break" sends it.
    const adBreak = await value(panel.api.ads.run({ seconds: AD_SECONDS }));

    // Lines that trip the blocked term, and one that does not.
    const spam = new Set<string>();
    for (const viewer of SPAMMERS) {
      spam.add(await sandbox.admin.chat('get FREE followers at once', viewer));
    }
    const clean = await sandbox.admin.chat('good evening everyone', SPAMMERS[0]!);
    await expect
      .poll(async () => (await chatLog()).filter((m) => spam.has(m.message_id) && m.deleted).length, WAIT)
      .toBe(spam.size);
    await expect.poll(() => inGreenroom(clean), WAIT).toBe(true);

    // Kick's webhooks behind while viewers subscribe, with the live socket cut and kept from reconnecting, so the
    // subs reach the app only by the held webhooks. The sandbox records each held delivery's time and when it is due.
    await sandbox.admin.call('POST', '/live-socket/settings', { connections: 'refused' });
    await sandbox.admin.call('POST', '/live-socket/drop', { code: 'cut' });
    await sandbox.admin.call('POST', '/live-socket/settings', { webhook_delay_seconds: DELAY_S });
    await sandbox.admin.trigger('channel.subscription.new', { count: 3 });
    const held = (await sandbox.admin.call<HeldDeliveries>('GET', '/deliveries/pending')).messages.filter(
      (d) => d.event_type === 'channel.subscription.new',
    );
    expect(held).toHaveLength(3);
    // A follow carries no time of its own (the lag would run from the send), a sub its `created_at`.
    const heldMs = held.map((d) => Date.parse(d.due_at) - readAsGreenroom(String(d.payload.created_at)));
    expect(Math.min(...heldMs)).toBeGreaterThanOrEqual(DELAY_S * 1000 - 999);
    await expect.poll(async () => (await sandbox.admin.counts()).pendingDeliveries, WAIT).toBe(0);
    await expect
      .poll(async () => (await value(panel.api.history.recap({ streamId }))).newSubscribers.length, WAIT)
      .toBe(3);
    await sandbox.admin.call('POST', '/live-socket/settings', { webhook_delay_seconds: 0, connections: 'accepted' });
    await goLive(false);

    // The sandbox's record: what the streamer's token did on Kick, and what it deleted.
    const record = await bans();
    const byStreamer = record.filter((b) => b.moderator_user_id === STREAMER_USER_ID);
    expect(byStreamer.map((b) => [b.user_id, b.expires_at === null]).sort()).toEqual([
      [BANNED, true],
      [TIMED_OUT, false],
    ]);
    const deleted = (await chatLog()).filter((m) => m.deleted);
    const deletedSpam = deleted.filter((m) => spam.has(m.message_id));
    const deletedByHand = deleted.filter((m) => !spam.has(m.message_id));
    expect(deletedByHand.map((m) => m.sender_user_id)).toEqual([DELETED]);
    const { breaks } = await sandbox.admin.call<SandboxAds>('GET', `/channels/${STREAMER_USER_ID}/ads`);
    const breaksInStream = breaks.filter((b) => Date.parse(b.created_at) >= streamId);
    expect(breaksInStream.map((b) => b.id)).toEqual([adBreak.id]);

    const { figures } = await value(panel.api.history.recap({ streamId }));
    expect(figures.greenroomActions).toBe(byStreamer.length + deletedByHand.length);
    expect(figures.automodActions).toBe(deletedSpam.length);
    // Kick's ban events for the streamer's own ban and timeout.
    expect([figures.bans, figures.timeouts]).toEqual([1, 1]);
    expect(figures.adBreaks).toBe(breaksInStream.length);
    expect(figures.adBreakSeconds).toBe(breaksInStream.reduce((sum, b) => sum + b.break_duration_seconds, 0));
    // The lag is the app's arrival time less Kick's time for the event: the held delay plus the sandbox's
    // delivery tick and the trip to the app, which depend on the machine's load, so only bounds can be exact.
    expect(figures.worstWebhookLag?.type).toBe('channel.subscription.new');
    expect(figures.worstWebhookLag!.ms).toBeGreaterThanOrEqual(Math.max(...heldMs));
    expect(figures.worstWebhookLag!.ms).toBeLessThan(Math.max(...heldMs) + LAG_SLACK_MS);
  }, 300_000);
});
