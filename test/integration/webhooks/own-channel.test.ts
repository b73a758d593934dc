/**
 * Only the signed-in channel's events, over real HTTP against the webhook service as the app runs it
 * (docs/design-notes.md, "Only the signed-in channel's events"). Kick signs every app's deliveries with one
 * key, so each delivery here is genuinely signed (the sandbox's key), and each is answered 200 so Kick
 * does not retry it; the question is only whether Greenroom acts on it.
 */
import { describe, expect, it } from 'vitest';
import { FOREIGN_CHANNEL_USER_ID, FOREIGN_CLIENT_ID } from '../../../sandbox/admin/foreign-channel';
import { KICK_EVENT_TYPES } from '../../../shared/kick/scopes';
import { callAdmin } from '../../helpers/sandbox';
import { forChannel, OTHER_CHANNEL_ID, payloads, STREAMER_USER_ID, startWorld, useCleanup } from './own-channel-world';

useCleanup();

const NEVER_CREATED = '01JNEVERCREATEDBYGREENR00M';

/** The lines the service logged about deliveries it did not act on. */
const notActedOn = (logs: string[]): string[] => logs.filter((line) => line.includes('webhook not acted on'));

describe('deliveries for another channel', () => {
  it("another developer's app sends its own channel's signed follow and chat: answered, not acted on, logged once per source", async () => {
    const world = await startWorld();
    const run = await world.start();
    await run.manage();
    const started = await callAdmin(world.sandbox, 'POST', '/scenarios/foreign-channel', {
      body: { immediate: true },
    });
    expect(started.status, started.text).toBe(200);
    expect(started.json).toMatchObject({ scenario: 'foreign-channel', fired: 4 });
    await world.sandbox.delivery.flush();

    const foreign = world.sandbox.delivery.attempts.filter((a) => a.clientId === FOREIGN_CLIENT_ID);
    expect(foreign.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(run.live).toEqual([]);
    expect(run.service.health().counters).toMatchObject({ accepted: 0, foreign: 4 });
    // One line per source (the follow's subscription, the chat's), with the running count.
    const lines = notActedOn(run.logs);
    expect(lines).toHaveLength(2);
    expect(lines.every((line) => line.includes(`"broadcasterUserId":${FOREIGN_CHANNEL_USER_ID}`))).toBe(true);
    expect(lines[1]).toContain('"notActedOn":2');

    // The streamer's own events still come through.
    await callAdmin(world.sandbox, 'POST', '/trigger/channel.followed', { body: {} });
    await world.sandbox.delivery.flush();
    expect(run.live.map((e) => e.type)).toEqual(['channel.followed']);

    // Nothing of the other channel was journaled: a restart restores only the streamer's follow.
    await run.stop();
    const again = await world.start();
    expect(again.restored.map((e) => e.type)).toEqual(['channel.followed']);
  });

  it('a signed follow for broadcaster 999999 under a subscription id Greenroom never created', async () => {
    const world = await startWorld();
    const run = await world.start();
    await run.manage();
    const delivery = world.signed('channel.followed', forChannel('channel.followed', OTHER_CHANNEL_ID), {
      subscriptionId: NEVER_CREATED,
    });
    // Health is pushed when the count moves, so the panel's figure is live.
    const counts: (number | undefined)[] = [];
    run.service.onHealthChange(() => counts.push(run.service.health().counters.foreign));
    for (let i = 0; i < 3; i++) {
      const answer = await world.post(
        run,
        i === 0 ? delivery : world.signed('channel.followed', delivery.body, { subscriptionId: NEVER_CREATED }),
      );
      expect(answer.status, answer.text).toBe(200);
    }
    await run.service.bus.idle();
    expect(run.live).toEqual([]);
    expect(run.service.health().counters).toMatchObject({ accepted: 0, duplicates: 0, foreign: 3 });
    expect(counts).toEqual([1, 2, 3]);
    expect(notActedOn(run.logs)).toHaveLength(1);
    expect(notActedOn(run.logs)[0]).toContain('another channel');
  });

  it("one of the streamer's own subscription ids, but a payload for another channel", async () => {
    const world = await startWorld();
    const run = await world.start();
    await run.manage();
    const delivery = world.signed('chat.message.sent', forChannel('chat.message.sent', OTHER_CHANNEL_ID), {
      subscriptionId: world.subscriptionOf('chat.message.sent'),
    });
    expect((await world.post(run, delivery)).status).toBe(200);
    await run.service.bus.idle();
    expect(run.live).toEqual([]);
    expect(run.service.health().counters.foreign).toBe(1);
  });

  it("the streamer's channel, but a subscription id Greenroom never created (another app subscribed to it)", async () => {
    const world = await startWorld();
    const run = await world.start();
    await run.manage();
    const delivery = world.signed('channel.followed', payloads['channel.followed'], { subscriptionId: NEVER_CREATED });
    expect((await world.post(run, delivery)).status).toBe(200);
    await run.service.bus.idle();
    expect(run.live).toEqual([]);
    expect(notActedOn(run.logs)).toEqual([expect.stringContaining('a subscription Greenroom does not hold')]);
  });

  it('the broadcaster id as a string, or missing, or a body that is not JSON, is not the channel', async () => {
    const world = await startWorld();
    const run = await world.start();
    await run.manage();
    const subscriptionId = world.subscriptionOf('channel.followed');
    const asString = forChannel('channel.followed', String(STREAMER_USER_ID));
    const { broadcaster: _none, ...without } = payloads['channel.followed'];
    for (const body of [asString, without, 'not json at all']) {
      const answer = await world.post(run, world.signed('channel.followed', body, { subscriptionId }));
      expect(answer.status, answer.text).toBe(200);
    }
    await run.service.bus.idle();
    expect(run.live).toEqual([]);
    expect(run.service.health().counters.foreign).toBe(3);
    // The number itself is the channel: the same follow with the integer id is shown.
    const own = world.signed('channel.followed', forChannel('channel.followed', STREAMER_USER_ID), {
      subscriptionId,
    });
    expect((await world.post(run, own)).status).toBe(200);
    await run.service.bus.idle();
    expect(run.live.map((e) => e.type)).toEqual(['channel.followed']);
  });

  it('a subscription of an event type the streamer unticked is not acted on once it is deleted', async () => {
    const world = await startWorld();
    const first = await world.start();
    await first.manage();
    const kicks = world.subscriptionOf('kicks.gifted');
    await first.stop();

    // Unticked in Settings: the next run's reconciler deletes the subscription at Kick.
    const wanted = KICK_EVENT_TYPES.filter((t) => t !== 'kicks.gifted');
    const run = await world.start({ wanted });
    await run.manage();
    expect([...world.sandbox.ctx.state.subscriptions.keys()]).not.toContain(kicks);
    const late = world.signed('kicks.gifted', payloads['kicks.gifted'], { subscriptionId: kicks });
    expect((await world.post(run, late)).status).toBe(200);
    await run.service.bus.idle();
    expect(run.live).toEqual([]);
    expect(run.service.health().counters.foreign).toBe(1);
  });
});
