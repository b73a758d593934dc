/**
 * Late events through the real app (docs/design-notes.md#late-events): signed webhooks, posted to the app's
 * own receiver as Kick posts them, whose `created_at` or `Kick-Event-Message-Timestamp` is older than the
 * streamer's "late" age. They are recorded in the feed, marked late, and one digest lists them; the bot does
 * not thank them, no alert plays, OBS does nothing. An event on time afterwards still gets all three, which
 * shows the gates are what held the late ones back.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../../../electron/app/config';
import { createApp } from '../../../electron/app/create-app';
import { openSettings } from '../../../electron/app/settings';
import { systemClock, toRfc3339Seconds } from '../../../electron/core/clock';
import { createAppWebhookPort } from '../../../electron/app/webhook-port';
import { MemorySecretStore, SECRET_KEYS } from '../../../electron/secrets/secret-store';
import { DEFAULT_CHAT_BOT_SETTINGS } from '../../../shared/chat-bot';
import { obsActionsSettingsSchema } from '../../../shared/obs-actions';
import { DEFAULT_OVERLAY_SETTINGS } from '../../../shared/overlays';
import type { FeedItem } from '../../../shared/views';
import { FakeObs } from '../../helpers/fake-obs';
import { buildDelivery, postDelivery, samplePayloads } from '../../helpers/webhook-signing';
import { PASSWORD } from '../../unit/electron/obs/obs-connection-fixtures';
import { appPosts, fx, invoke, mark, STREAMER_USER_ID } from './chat-bot-fixtures';

const MINUTE = 60_000;
const fake = new FakeObs();
const obsChanges = () => fake.requests.filter((r) => r.type === 'SetSceneItemEnabled');

/** Signs `payload` with the sandbox's key for the app's own subscription, posts it, waits for its feed entry. */
async function deliver(type: string, payload: object, headerAtMs = Date.now()): Promise<FeedItem> {
  const subscription = [...fx.sandbox.ctx.state.subscriptions.values()].find((s) => s.event === type)!;
  const delivery = buildDelivery({
    type,
    payload,
    privateKey: fx.sandbox.ctx.keys.privateKey,
    subscriptionId: subscription.id,
    timestamp: toRfc3339Seconds(headerAtMs),
  });
  const seen = new Promise<FeedItem>((resolve) => {
    const off = fx.app.events.on('kick:event', (e) => {
      if (e.kind !== 'chat' && !e.item.lateDigest && e.item.eventType === type) {
        off();
        resolve(e.item);
      }
    });
  });
  const answer = await postDelivery(fx.app.snapshot().health.receiver.url!, delivery);
  expect(answer.status).toBe(200);
  return seen;
}

const payloads = samplePayloads();
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const sub = (createdAt: string) => ({ ...payloads['channel.subscription.new'], created_at: createdAt });
const redemption = (id: string, redeemedAt: string, rewardId = 'rw-confetti') => ({
  ...payloads['channel.reward.redemption.updated'],
  id,
  redeemed_at: redeemedAt,
  reward: { ...payloads['channel.reward.redemption.updated'].reward, id: rewardId },
});
/** Every OBS source Greenroom asked about, in order: an action looks its source up first. */
const obsSources = () =>
  fake.requests.filter((r) => r.type === 'GetSceneItemId').map((r) => (r.data as { sourceName: string }).sourceName);

beforeAll(async () => {
  fx.dir = mkdtempSync(join(tmpdir(), 'greenroom-late-events-'));
  const settings = openSettings(fx.dir, { randomBytes });
  const chatBot = structuredClone(DEFAULT_CHAT_BOT_SETTINGS);
  chatBot.replies.follow = { ...chatBot.replies.follow, enabled: true, combineSec: 0 };
  chatBot.replies.subscription = { ...chatBot.replies.subscription, enabled: true, combineSec: 0 };
  const overlays = structuredClone(DEFAULT_OVERLAY_SETTINGS);
  // Alerts may play up to an hour late here, so only the "late" age can hold one back.
  overlays.queue.maxAgeSec = 3600;
  settings.update({ redirectUri: 'http://127.0.0.1:0/callback', chatBot, overlays, lateAfterSec: 120 });
  settings.setObs({ enabled: true, host: '127.0.0.1', port: 4455 });
  settings.update({
    obsActions: obsActionsSettingsSchema.parse({
      rewards: [
        { rewardId: 'rw-confetti', rewardTitle: 'Confetti!', source: 'Confetti', scene: 'Main', seconds: 5 },
        { rewardId: 'rw-balloons', rewardTitle: 'Balloons!', source: 'Balloons', scene: 'Main', seconds: 5 },
      ],
    }),
  });
  const studio = fake.link();
  await studio.connect({ url: fake.url, password: PASSWORD });
  await studio.call('CreateScene', { sceneName: 'Main' });
  for (const inputName of ['Confetti', 'Balloons']) {
    await studio.call('CreateInput', {
      sceneName: 'Main',
      inputName,
      inputKind: 'color_source_v3',
      sceneItemEnabled: false,
    });
  }
  const secretStore = new MemorySecretStore();
  await secretStore.set(SECRET_KEYS.obsPassword, PASSWORD);
  const config = resolveConfig({
    env: {
      GREENROOM_SANDBOX_AUTO_APPROVE: String(STREAMER_USER_ID),
      GREENROOM_SANDBOX_ACTIVITY: 'off',
      GREENROOM_WEBHOOK_PORT: '0',
    },
    settings: settings.values(),
    storedClientSecret: null,
    dataDir: fx.dir,
  });
  fx.app = await createApp(config, {
    clock: systemClock,
    openExternal: async (url) => {
      const authorize = await request(url);
      await authorize.body.text();
      await (await request(authorize.headers.location as string)).body.text();
    },
    secretStore,
    webhooks: createAppWebhookPort,
    log: () => undefined,
    dataDir: fx.dir,
    settings,
    obsLink: fake.link,
  });
  fx.sandbox = fx.app.sandbox!;
  await fx.app.start();
  const subscribed = new Promise<void>((resolve) => {
    const off = fx.app.events.on('health:changed', (health) => {
      if (health.subscriptions.length > 0 && health.subscriptions.every((s) => s.state === 'active')) {
        off();
        resolve();
      }
    });
  });
  const signedIn = await invoke('auth:start-login', {});
  if (!signedIn.ok) {
    throw new Error(`sign-in failed: ${signedIn.error.message}`);
  }
  await subscribed;
  await vi.waitFor(async () =>
    expect(await invoke('obs:status')).toMatchObject({ ok: true, value: { connection: { kind: 'connected' } } }),
  );
  fake.requests.length = 0;
}, 30_000);

afterAll(async () => {
  await fx.app?.stop();
  rmSync(fx.dir, { recursive: true, force: true });
});

describe('late webhooks in the app', () => {
  it('records late events marked late, lists them in one digest, and neither thanks, alerts nor acts on them', async () => {
    const since = mark();
    // Late by its own created_at, sent just now; late by the send-time header (a follow has no created_at).
    const lateSub = await deliver('channel.subscription.new', sub(ago(10 * MINUTE)));
    const lateFollow = await deliver('channel.followed', payloads['channel.followed'], Date.now() - 10 * MINUTE);
    const lateRedemption = await deliver(
      'channel.reward.redemption.updated',
      redemption('red-late', ago(5 * MINUTE), 'rw-balloons'),
    );
    expect([lateSub.late, lateFollow.late, lateRedemption.late]).toEqual([true, true, true]);

    // On time: the same kinds are thanked, alerted and acted on, so the gates are what held the late ones.
    const onTime = await deliver('channel.subscription.new', {
      ...sub(ago(1000)),
      subscriber: payloads['channel.subscription.renewal'].subscriber,
    });
    expect(onTime.late).toBeUndefined();
    await deliver('channel.reward.redemption.updated', redemption('red-now', ago(1000)));
    await vi.waitFor(() => expect(appPosts(since).length).toBeGreaterThan(0), { timeout: 10_000 });
    await vi.waitFor(() => expect(obsChanges().length).toBeGreaterThan(0), { timeout: 10_000 });

    const replies = appPosts(since).map((m) => m.content);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toContain(onTime.username!);
    // The late redemption's lookup would have gone out before the on-time one's: only Confetti was asked for.
    expect(obsSources()).toEqual(['Confetti']);
    expect(obsChanges()).toHaveLength(1);
    const alerts = await invoke('alerts:status');
    // The on-time sub and the on-time redemption, nothing else.
    expect(alerts.ok && alerts.value.waiting + (alerts.value.current ? 1 : 0)).toBe(2);
    // The late ones are listed with the alerts too old to play, so the streamer sees what was held back.
    expect(alerts.ok && alerts.value.tooOld.count).toBe(3);

    const history = await invoke('feed:history');
    const items = history.ok ? history.value : [];
    const digests = items.filter((i) => i.lateDigest);
    expect(digests).toHaveLength(1);
    expect(digests[0]!.text).toBe("3 events arrived late while Kick's webhooks were behind");
    expect(digests[0]!.lateDigest!.entries.map((e) => e.id)).toEqual([lateSub.id, lateFollow.id, lateRedemption.id]);
    expect(items.filter((i) => i.late).map((i) => i.id)).toEqual([lateSub.id, lateFollow.id, lateRedemption.id]);
  });

  it('a second episode, after webhooks caught up, gets its own digest', async () => {
    await deliver('channel.subscription.new', {
      ...sub(ago(30 * MINUTE)),
      subscriber: payloads['channel.subscription.gifts'].giftees[0]!,
    });
    const history = await invoke('feed:history');
    const digests = (history.ok ? history.value : []).filter((i) => i.lateDigest);
    expect(digests.map((d) => d.lateDigest!.count)).toEqual([3, 1]);
  });

  it('takes the late age from Settings, refusing one outside its limits by name', async () => {
    for (const bad of [29, 3601, 90.5, '120']) {
      const answer = await invoke('settings:update', { lateAfterSec: bad });
      expect(answer.ok).toBe(false);
      expect(answer.ok ? '' : answer.error.message).toMatch(/30 seconds|3600 seconds|whole number|lateAfterSec/);
    }
    expect(fx.app.snapshot().settings.lateAfterSec).toBe(120);
    expect((await invoke('settings:update', { lateAfterSec: 1800 })).ok).toBe(true);
    expect(fx.app.snapshot().settings.lateAfterSec).toBe(1800);
    // Ten minutes late is on time against half an hour.
    const since = mark();
    const item = await deliver(
      'channel.followed',
      { ...payloads['channel.followed'], follower: payloads['channel.subscription.renewal'].subscriber },
      Date.now() - 10 * MINUTE,
    );
    expect(item.late).toBeUndefined();
    // The bot posts at most one message every 1.5 s (electron/kick/wire-assumptions.ts).
    await vi.waitFor(() => expect(appPosts(since)).toHaveLength(1), { timeout: 10_000 });
  });
});

describe('the late age beside the alert box’s age (docs/overlays.md#alerts-and-the-late-age)', () => {
  const alertCount = async () => {
    const alerts = await invoke('alerts:status');
    return alerts.ok
      ? { queued: alerts.value.waiting + (alerts.value.current ? 1 : 0), tooOld: alerts.value.tooOld.count }
      : null;
  };

  it('ages a renewal by its send time, not by a created_at that may be when the subscription began', async () => {
    expect((await invoke('settings:update', { lateAfterSec: 120 })).ok).toBe(true);
    const before = (await alertCount())!;
    const item = await deliver('channel.subscription.renewal', {
      ...payloads['channel.subscription.renewal'],
      created_at: ago(180 * 24 * 60 * MINUTE),
    });
    expect(item.late).toBeUndefined();
    expect(await alertCount()).toEqual({ queued: before.queued + 1, tooOld: before.tooOld });
  });

  it('holds an alert back by the shorter limit; the bot answers whatever the alert box’s limit', async () => {
    const overlays = structuredClone(fx.app.snapshot().settings.overlays);
    overlays.queue.maxAgeSec = 30;
    expect((await invoke('settings:update', { overlays, lateAfterSec: 120 })).ok).toBe(true);
    // An empty line, so this alert is at the front when its age is read (alerts leave in arrival order).
    expect((await invoke('alerts:clear')).ok).toBe(true);
    const before = (await alertCount())!;
    const since = mark();
    // A minute old: on time for the late age, too old for the alert box.
    const item = await deliver('channel.subscription.new', {
      ...sub(ago(MINUTE)),
      subscriber: payloads['channel.subscription.gifts'].giftees[1] ?? payloads['channel.followed'].follower,
    });
    expect(item.late).toBeUndefined();
    await vi.waitFor(() => expect(appPosts(since)).toHaveLength(1), { timeout: 10_000 });
    expect(await alertCount()).toEqual({ queued: before.queued, tooOld: before.tooOld + 1 });
  });
});
