/**
 * The start-up window of the own-channel rule (docs/design-notes.md, "Only the signed-in channel's
 * events"): before Greenroom knows its subscriptions, a delivery it cannot judge is neither dropped nor
 * acted on. It waits for the subscription list (and is judged by it), or is answered 503 so Kick sends it
 * again. What a run held is saved, so the next run judges at once.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashBody } from '../../../electron/webhooks/dedup/dedup';
import { HELD_SUBSCRIPTIONS_FILE } from '../../../electron/webhooks/subscriptions/held-subscriptions-file';
import { createFileJournal } from '../../../electron/webhooks/journal/journal';
import { call, mintAppToken } from '../../helpers/sandbox';
import { saveHeld } from './own-channel-fixtures';
import { forChannel, OTHER_CHANNEL_ID, payloads, STREAMER_USER_ID, startWorld, useCleanup } from './own-channel-world';

useCleanup();

describe('before the subscription list is known', () => {
  it('a first run answers 503 to a delivery it cannot judge yet, and takes Kick’s retry once it can', async () => {
    const world = await startWorld();
    const run = await world.start({ holdMs: 100 });
    // An earlier install subscribed already; this run has not listed anything yet (nobody signed in).
    const subscribed = await call(world.sandbox.urls.api, 'POST', '/public/v1/events/subscriptions', {
      token: mintAppToken(world.sandbox),
      body: {
        method: 'webhook',
        broadcaster_user_id: STREAMER_USER_ID,
        events: [{ name: 'chat.message.sent', version: 1 }],
      },
    });
    expect(subscribed.status, subscribed.text).toBe(200);
    const chat = world.signed('chat.message.sent', payloads['chat.message.sent'], {
      subscriptionId: world.subscriptionOf('chat.message.sent'),
    });
    const first = await world.post(run, chat);
    expect(first.status, first.text).toBe(503);
    expect(JSON.parse(first.text)).toMatchObject({ error: 'WebhookNotReady' });
    expect(run.live).toEqual([]);

    await run.manage();
    const retry = await world.post(run, chat);
    expect(retry.status, retry.text).toBe(200);
    await run.service.bus.idle();
    expect(run.live.map((e) => e.messageId)).toEqual([chat.messageId]);
  });

  it('a delivery that arrives while the list loads waits for it and is judged by it', async () => {
    const world = await startWorld();
    const run = await world.start({ holdMs: 20_000 });
    await call(world.sandbox.urls.api, 'POST', '/public/v1/events/subscriptions', {
      token: mintAppToken(world.sandbox),
      body: {
        method: 'webhook',
        broadcaster_user_id: STREAMER_USER_ID,
        events: [{ name: 'channel.followed', version: 1 }],
      },
    });
    const ours = world.signed('channel.followed', payloads['channel.followed'], {
      subscriptionId: world.subscriptionOf('channel.followed'),
    });
    const unknown = world.signed('chat.message.sent', payloads['chat.message.sent'], {
      subscriptionId: '01JNEVERCREATEDBYGREENR00M',
    });
    const elsewhere = world.signed('channel.followed', forChannel('channel.followed', OTHER_CHANNEL_ID), {
      subscriptionId: '01JANOTHERAPPSSUBSCR1PT10N',
    });
    const answers = [ours, unknown, elsewhere].map((delivery) => world.post(run, delivery));
    await run.manage();
    expect((await Promise.all(answers)).map((a) => a.status)).toEqual([200, 200, 200]);
    await run.service.bus.idle();
    expect(run.live.map((e) => e.messageId)).toEqual([ours.messageId]);
    expect(run.service.health().counters).toMatchObject({ accepted: 1, foreign: 2 });
  });
});

describe('across a restart', () => {
  it('the held subscriptions are saved, so the next run acts on its own deliveries before it lists again', async () => {
    const world = await startWorld();
    const first = await world.start();
    await first.manage();
    await first.stop();
    const saved = JSON.parse(readFileSync(join(world.dataDir, HELD_SUBSCRIPTIONS_FILE), 'utf8')) as {
      broadcasterUserId: number;
      subscriptionIds: string[];
    };
    expect(saved.broadcasterUserId).toBe(STREAMER_USER_ID);
    expect(saved.subscriptionIds).toContain(world.subscriptionOf('chat.message.sent'));

    // No sign-in yet in this run, and a short hold: only the saved list can let the chat through.
    const second = await world.start({ holdMs: 100 });
    const chat = world.signed('chat.message.sent', payloads['chat.message.sent'], {
      subscriptionId: world.subscriptionOf('chat.message.sent'),
    });
    expect((await world.post(second, chat)).status).toBe(200);
    const elsewhere = world.signed('chat.message.sent', forChannel('chat.message.sent', OTHER_CHANNEL_ID), {
      subscriptionId: world.subscriptionOf('chat.message.sent'),
    });
    expect((await world.post(second, elsewhere)).status).toBe(200);
    await second.service.bus.idle();
    expect(second.live.map((e) => e.messageId)).toEqual([chat.messageId]);

    // Neither run journaled the other channel's chat.
    await second.stop();
    const third = await world.start();
    expect(third.restored.map((e) => e.messageId)).toEqual([chat.messageId]);
  });

  it('a damaged saved file is moved aside with one line, and the run waits for the list', async () => {
    const world = await startWorld();
    writeFileSync(join(world.dataDir, HELD_SUBSCRIPTIONS_FILE), '{"version":1,"broadcasterUserId":');
    const run = await world.start({ holdMs: 100 });
    expect(run.logs.filter((line) => line.includes(HELD_SUBSCRIPTIONS_FILE))).toEqual([
      expect.stringMatching(/was damaged and was moved to .*\.damaged-/),
    ]);
    expect(readdirSync(world.dataDir).filter((name) => name.includes('.damaged-'))).toHaveLength(1);
    await run.manage();
    const chat = world.signed('chat.message.sent', payloads['chat.message.sent'], {
      subscriptionId: world.subscriptionOf('chat.message.sent'),
    });
    expect((await world.post(run, chat)).status).toBe(200);
    await run.service.bus.idle();
    expect(run.live).toHaveLength(1);
  });

  it("a journal written before the rule, holding another channel's follow, does not bring it back", async () => {
    const world = await startWorld();
    saveHeld(world.dataDir, []);
    // What the code before the rule journaled after acknowledging the probe's delivery.
    const journal = await createFileJournal({ dir: join(world.dataDir, 'journal'), fsync: 'never' });
    const spoofed = world.signed('channel.followed', forChannel('channel.followed', OTHER_CHANNEL_ID));
    const own = world.signed('channel.followed', payloads['channel.followed']);
    for (const d of [spoofed, own]) {
      await journal.append({
        messageId: d.messageId,
        subscriptionId: d.headers['Kick-Event-Subscription-Id']!,
        type: 'channel.followed',
        version: '1',
        timestamp: d.timestamp,
        receivedAtMs: world.sandbox.ctx.clock.now(),
        bodyHash: hashBody(d.body),
        body: d.body.toString('utf8'),
      });
    }
    await journal.close();
    const run = await world.start();
    expect(run.restored.map((e) => e.messageId)).toEqual([own.messageId]);
    expect(run.logs).toContainEqual(
      expect.stringMatching(/not restored from the journal: 1 delivery for another channel than 100001$/),
    );
  });
});
