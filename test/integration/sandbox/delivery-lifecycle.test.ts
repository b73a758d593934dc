import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emitEvent, followPayload } from '../../../sandbox/events/payloads';
import type { Sandbox } from '../../../sandbox/index';
import { MAX_CONCURRENT_ATTEMPTS } from '../../../sandbox/webhooks/delivery';
import { FIRST_VIEWER_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { startSandbox } from '../../helpers/sandbox';
import { startFrozenSandbox, subscribe } from './delivery-fixtures';
import { type Receiver, startReceiver } from './webhook-receiver';

let sandbox: Sandbox;
let receiver: Receiver;

beforeEach(async () => {
  receiver = await startReceiver();
  sandbox = await startFrozenSandbox();
  sandbox.ctx.app.webhookUrl = receiver.url;
});

afterEach(async () => {
  await sandbox.close();
  await receiver.close();
});

function follow(): void {
  const { state } = sandbox.ctx;
  emitEvent(state, 'channel.followed', STREAMER_USER_ID, followPayload(state, STREAMER_USER_ID, FIRST_VIEWER_USER_ID));
}

describe('webhook delivery: engine lifecycle', () => {
  it('delivers on its own timer when tickMs > 0, and stop() unsubscribes and clears the timer', async () => {
    const timed = await startSandbox({ delivery: { tickMs: 10 } });
    try {
      timed.ctx.app.webhookUrl = receiver.url;
      subscribe(timed, 'channel.followed');
      const { state } = timed.ctx;
      emitEvent(
        state,
        'channel.followed',
        STREAMER_USER_ID,
        followPayload(state, STREAMER_USER_ID, FIRST_VIEWER_USER_ID),
      );
      await receiver.waitForRequests(1);
      await vi.waitFor(() => expect(timed.delivery.pendingCount()).toBe(0));

      await timed.delivery.stop();
      emitEvent(
        state,
        'channel.followed',
        STREAMER_USER_ID,
        followPayload(state, STREAMER_USER_ID, FIRST_VIEWER_USER_ID),
      );
      expect(timed.delivery.pendingCount()).toBe(0);
      // Queued by hand: with the timer gone it must stay queued through many would-be ticks.
      timed.delivery.enqueue({
        type: 'channel.followed',
        version: 1,
        broadcasterUserId: STREAMER_USER_ID,
        payload: {},
      });
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(receiver.requests).toHaveLength(1);
      expect(timed.delivery.pendingCount()).toBe(1);
    } finally {
      await timed.close();
    }
  });

  it('stop() waits for an attempt in flight and closes its connections', async () => {
    let release: () => void = () => undefined;
    receiver.answer = () => new Promise((resolve) => (release = () => resolve(200)));
    subscribe(sandbox, 'channel.followed');
    follow();
    const pass = sandbox.delivery.tick();
    await receiver.waitForRequests(1);
    expect(sandbox.delivery.pendingCount()).toBe(1);

    let stopped = false;
    const stopping = sandbox.delivery.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    release();
    await stopping;
    await pass;

    expect(sandbox.delivery.attempts).toHaveLength(1);
    expect(sandbox.delivery.attempts[0]!.delivered).toBe(true);
    expect(sandbox.delivery.pendingCount()).toBe(0);
    await vi.waitFor(async () => expect(await receiver.connectionCount()).toBe(0));
  });
});

describe('webhook delivery: concurrency', () => {
  /** `count` subscriptions to follows, so one follow fans out to `count` messages. */
  function fanOut(target: Sandbox, count: number): void {
    for (let i = 0; i < count; i++) {
      subscribe(target, 'channel.followed');
    }
  }

  /** Holds every answer until `releaseAll()`. */
  function holdAnswers(): { releaseAll: () => void } {
    const held: (() => void)[] = [];
    receiver.answer = () => new Promise((resolve) => held.push(() => resolve(200)));
    return {
      releaseAll: () => {
        receiver.answer = () => 200;
        for (const release of held.splice(0)) {
          release();
        }
      },
    };
  }

  it('runs at most maxConcurrentAttempts attempts at once within a tick', async () => {
    const limited = await startFrozenSandbox(3000, { maxConcurrentAttempts: 3 });
    try {
      limited.ctx.app.webhookUrl = receiver.url;
      const total = 10;
      fanOut(limited, total);
      const { releaseAll } = holdAnswers();
      emitEvent(
        limited.ctx.state,
        'channel.followed',
        STREAMER_USER_ID,
        followPayload(limited.ctx.state, STREAMER_USER_ID, FIRST_VIEWER_USER_ID),
      );
      const pass = limited.delivery.flush();

      await receiver.waitForRequests(3);
      // Absence check without a sleep: the engine holds the other seven back (taken by the tick, not started).
      expect(limited.delivery.pendingCount()).toBe(total);
      await new Promise((resolve) => setImmediate(resolve));
      expect(receiver.requests).toHaveLength(3);

      releaseAll();
      await pass;
      expect(receiver.requests).toHaveLength(total);
      expect(limited.delivery.attempts.filter((a) => a.delivered)).toHaveLength(total);
    } finally {
      await limited.close();
    }
  });

  it('a live engine starts each message as soon as it is queued, without waiting for earlier answers', async () => {
    // A timer far beyond the test: whatever is delivered here was started by the queueing itself.
    const live = await startSandbox({ delivery: { tickMs: 600_000 } });
    try {
      live.ctx.app.webhookUrl = receiver.url;
      const total = 40;
      fanOut(live, total);
      const { releaseAll } = holdAnswers();
      emitEvent(
        live.ctx.state,
        'channel.followed',
        STREAMER_USER_ID,
        followPayload(live.ctx.state, STREAMER_USER_ID, FIRST_VIEWER_USER_ID),
      );
      // Every message is on the wire while none has been answered (the old engine sent 8 per 100 ms pass).
      await receiver.waitForRequests(total);
      expect(live.delivery.attempts).toHaveLength(0);
      expect(live.delivery.pendingMessages()).toHaveLength(0);

      releaseAll();
      await vi.waitFor(() => expect(live.delivery.attempts.filter((a) => a.delivered)).toHaveLength(total));
      expect(live.delivery.pendingCount()).toBe(0);
    } finally {
      await live.close();
    }
  });

  it(`a live engine keeps at most ${MAX_CONCURRENT_ATTEMPTS} attempts in flight by default and drains the rest in order`, async () => {
    const live = await startSandbox({ delivery: { tickMs: 600_000 } });
    try {
      live.ctx.app.webhookUrl = receiver.url;
      const total = MAX_CONCURRENT_ATTEMPTS + 12;
      fanOut(live, total);
      const { releaseAll } = holdAnswers();
      emitEvent(
        live.ctx.state,
        'channel.followed',
        STREAMER_USER_ID,
        followPayload(live.ctx.state, STREAMER_USER_ID, FIRST_VIEWER_USER_ID),
      );
      await receiver.waitForRequests(MAX_CONCURRENT_ATTEMPTS);
      // The twelve beyond the limit are still queued, in fan-out order, not started.
      const queued = live.delivery.pendingMessages();
      expect(queued).toHaveLength(12);
      const queuedSubscriptions = new Set(queued.map((m) => m.subscriptionId));
      const started = new Set(receiver.requests.map((r) => String(r.headers['kick-event-subscription-id'])));
      expect([...queuedSubscriptions].some((id) => started.has(id))).toBe(false);
      expect(receiver.requests).toHaveLength(MAX_CONCURRENT_ATTEMPTS);

      releaseAll();
      await vi.waitFor(() => expect(live.delivery.attempts.filter((a) => a.delivered)).toHaveLength(total));
      expect(receiver.requests).toHaveLength(total);
    } finally {
      await live.close();
    }
  });
});
