/**
 * The same event resent under a new message id, after the body-hash window (10 s), over real HTTP against
 * the webhook service: recognised by Kick's own id for the event (a chat line's `message_id`, a redemption's
 * `id` and status) for as long as message ids are remembered, across a restart too
 * (docs/design-notes.md, "Kick's own event ids"). The clock is the sandbox's, moved by the test.
 */
import { describe, expect, it } from 'vitest';
import { payloads, startWorld, useCleanup, type Run, type World } from './own-channel-world';

useCleanup();

const WINDOW_PASSED_MS = 11_000;

async function started(): Promise<{ world: World; run: Run }> {
  const world = await startWorld();
  const run = await world.start();
  await run.manage();
  return { world, run };
}

describe("an event resent under a new message id, recognised by Kick's own id", () => {
  it('a chat line resent 11 s later under a new message id is shown once', async () => {
    const { world, run } = await started();
    const subscriptionId = world.subscriptionOf('chat.message.sent');
    const first = world.signed('chat.message.sent', payloads['chat.message.sent'], { subscriptionId });
    expect((await world.post(run, first)).status).toBe(200);
    world.sandbox.ctx.clock.advance(WINDOW_PASSED_MS);
    const again = world.signed('chat.message.sent', first.body, { subscriptionId });
    expect(again.messageId).not.toBe(first.messageId);
    expect((await world.post(run, again)).status).toBe(200);
    await run.service.bus.idle();
    expect(run.live.map((e) => e.messageId)).toEqual([first.messageId]);
    expect(run.service.health().counters).toMatchObject({ accepted: 1, duplicates: 1 });
  });

  it('the same chat message id with a different body (re-serialised) is the same line', async () => {
    const { world, run } = await started();
    const subscriptionId = world.subscriptionOf('chat.message.sent');
    const chat = payloads['chat.message.sent'];
    expect((await world.post(run, world.signed('chat.message.sent', chat, { subscriptionId }))).status).toBe(200);
    world.sandbox.ctx.clock.advance(60_000);
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(chat).reverse()));
    expect((await world.post(run, world.signed('chat.message.sent', reordered, { subscriptionId }))).status).toBe(200);
    await run.service.bus.idle();
    expect(run.live).toHaveLength(1);
  });

  it('is still recognised after a restart, from the journal', async () => {
    const { world, run } = await started();
    const subscriptionId = world.subscriptionOf('chat.message.sent');
    const first = world.signed('chat.message.sent', payloads['chat.message.sent'], { subscriptionId });
    expect((await world.post(run, first)).status).toBe(200);
    await run.stop();
    world.sandbox.ctx.clock.advance(3_600_000);
    const next = await world.start();
    expect((await world.post(next, world.signed('chat.message.sent', first.body, { subscriptionId }))).status).toBe(
      200,
    );
    await next.service.bus.idle();
    expect(next.live).toEqual([]);
    expect(next.service.health().counters.duplicates).toBe(1);
  });

  it("a redemption resent is shown once; the streamer's accepting it is news", async () => {
    const { world, run } = await started();
    const subscriptionId = world.subscriptionOf('channel.reward.redemption.updated');
    const pending = payloads['channel.reward.redemption.updated'];
    const post = (body: unknown) =>
      world.post(run, world.signed('channel.reward.redemption.updated', body, { subscriptionId }));
    expect((await post(pending)).status).toBe(200);
    world.sandbox.ctx.clock.advance(WINDOW_PASSED_MS);
    expect((await post(pending)).status).toBe(200);
    expect((await post({ ...pending, status: 'accepted' })).status).toBe(200);
    await run.service.bus.idle();
    expect(run.live.map((e) => (e.payload as { status: string }).status)).toEqual(['pending', 'accepted']);
  });

  it('a follow, which carries no id of its own, shows again after the window (a real re-follow)', async () => {
    const { world, run } = await started();
    const subscriptionId = world.subscriptionOf('channel.followed');
    const follow = world.signed('channel.followed', payloads['channel.followed'], { subscriptionId });
    expect((await world.post(run, follow)).status).toBe(200);
    world.sandbox.ctx.clock.advance(WINDOW_PASSED_MS);
    expect((await world.post(run, world.signed('channel.followed', follow.body, { subscriptionId }))).status).toBe(200);
    await run.service.bus.idle();
    expect(run.live).toHaveLength(2);
  });
});
