import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emitEvent, followPayload } from '../../../electron/sandbox/events/payloads';
import type { Sandbox } from '../../../electron/sandbox/index';
import { MAX_CONCURRENT_ATTEMPTS } from '../../../electron/sandbox/webhooks/delivery';
import { FIRST_VIEWER_USER_ID, STREAMER_USER_ID } from '../../../electron/sandbox/world';
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
  it(`runs at most ${MAX_CONCURRENT_ATTEMPTS} attempts at once within a pass`, async () => {
    const total = 20;
    for (let i = 0; i < total; i++) {
      subscribe(sandbox, 'channel.followed');
    }
    const held: (() => void)[] = [];
    receiver.answer = () => new Promise((resolve) => held.push(() => resolve(200)));
    follow();
    const pass = sandbox.delivery.flush();

    await receiver.waitForRequests(MAX_CONCURRENT_ATTEMPTS);
    // Absence check: with every answer held, no further attempt may start however long we wait.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.requests).toHaveLength(MAX_CONCURRENT_ATTEMPTS);

    receiver.answer = () => 200;
    for (const release of held.splice(0)) {
      release();
    }
    await pass;
    expect(receiver.requests).toHaveLength(total);
    expect(sandbox.delivery.attempts.filter((a) => a.delivered)).toHaveLength(total);
  });
});
