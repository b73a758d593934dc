import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toRfc3339Seconds } from '../../../electron/core/clock';
import { emitEvent, followPayload } from '../../../sandbox/events/payloads';
import type { Sandbox } from '../../../sandbox/index';
import { FIRST_OTHER_STREAMER_USER_ID, FIRST_VIEWER_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { startSandbox } from '../../helpers/sandbox';
import { addApp, header, signatureVerifies, START_MS, subscribe } from './delivery-fixtures';
import { type Receiver, startReceiver } from './webhook-receiver';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

let sandbox: Sandbox;
let receiver: Receiver;
let logLines: string[];

async function startWith(attemptTimeoutMs = 3000): Promise<void> {
  logLines = [];
  sandbox = await startSandbox({
    clock: { now: () => START_MS },
    delivery: { tickMs: 0, attemptTimeoutMs },
    log: (line) => logLines.push(line),
  });
  sandbox.ctx.app.webhookUrl = receiver.url;
}

beforeEach(async () => {
  receiver = await startReceiver();
});

afterEach(async () => {
  await sandbox.close();
  await receiver.close();
});

function follow(broadcasterUserId = STREAMER_USER_ID): void {
  const { state } = sandbox.ctx;
  emitEvent(
    state,
    'channel.followed',
    broadcasterUserId,
    followPayload(state, broadcasterUserId, FIRST_VIEWER_USER_ID),
  );
}

/** Moves the sandbox clock and delivers whatever became due. */
async function advance(ms: number): Promise<void> {
  sandbox.ctx.clock.advance(ms);
  await sandbox.delivery.flush();
}

/** Walks the clock forward in steps, flushing after each, until `until` (absolute sandbox time). */
async function walkTo(until: number, stepMs = 10 * MINUTE_MS): Promise<void> {
  while (sandbox.ctx.clock.now() < until) {
    await advance(Math.min(stepMs, until - sandbox.ctx.clock.now()));
  }
}

describe('webhook delivery: retries', () => {
  it('retries a failing message at 1 s, 5 s, 30 s, 2 min, 10 min, 30 min, then hourly, under one id', async () => {
    await startWith();
    receiver.answer = () => 500;
    subscribe(sandbox, 'channel.followed');
    follow();
    await sandbox.delivery.flush();
    expect(receiver.requests).toHaveLength(1);
    expect(sandbox.delivery.pendingCount()).toBe(1);

    const delays = [1_000, 5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 3_600_000];
    for (const [i, delay] of delays.entries()) {
      await advance(delay - 1);
      expect(receiver.requests, `not before retry ${i + 1} is due`).toHaveLength(i + 1);
      await advance(1);
      expect(receiver.requests, `retry ${i + 1} at +${delay} ms`).toHaveLength(i + 2);
    }

    const ids = new Set(receiver.requests.map((r) => header(r, 'Kick-Event-Message-Id')));
    expect(ids.size).toBe(1);
    // Every retry is re-signed with its own send time.
    let at = START_MS;
    const expectedTimes = [START_MS, ...delays.map((d) => (at += d))];
    expect(receiver.requests.map((r) => header(r, 'Kick-Event-Message-Timestamp'))).toEqual(
      expectedTimes.map(toRfc3339Seconds),
    );
    for (const request of receiver.requests) {
      expect(signatureVerifies(sandbox.ctx.keys.publicKeyPem, request)).toBe(true);
    }
    expect(sandbox.delivery.attempts.map((a) => [a.attemptNumber, a.status, a.delivered])).toEqual(
      expectedTimes.map((_, i) => [i + 1, 500, false]),
    );
  });

  it('treats redirects and 4xx as failures and any 2xx (such as 204) as delivered', async () => {
    await startWith();
    const answers = [302, 404, 204];
    receiver.answer = () => answers.shift() ?? 500;
    subscribe(sandbox, 'channel.followed');
    follow();
    await sandbox.delivery.flush();
    await advance(1_000);
    await advance(5_000);
    expect(sandbox.delivery.attempts.map((a) => [a.status, a.delivered])).toEqual([
      [302, false],
      [404, false],
      [204, true],
    ]);
    expect(sandbox.delivery.pendingCount()).toBe(0);
    await advance(DAY_MS);
    expect(receiver.requests).toHaveLength(3);
  });

  it('counts a refused connection as a failure and delivers once the receiver is back', async () => {
    await startWith();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    sandbox.ctx.app.webhookUrl = `http://127.0.0.1:${deadPort}/hook`;
    subscribe(sandbox, 'channel.followed');
    follow();

    await sandbox.delivery.flush();
    expect(sandbox.delivery.attempts[0]).toMatchObject({ status: null, delivered: false });
    expect(sandbox.delivery.attempts[0]!.error).toMatch(/ECONNREFUSED/);
    expect(sandbox.delivery.pendingCount()).toBe(1);

    sandbox.ctx.app.webhookUrl = receiver.url;
    await advance(1_000);
    expect(receiver.requests).toHaveLength(1);
    expect(sandbox.delivery.attempts[1]).toMatchObject({ status: 200, delivered: true, attemptNumber: 2 });
    expect(sandbox.delivery.pendingCount()).toBe(0);
  });

  it('cuts a receiver that never answers at the attempt timeout and retries later', async () => {
    await startWith(300);
    receiver.answer = () => 'hang';
    subscribe(sandbox, 'channel.followed');
    follow();
    const started = performance.now();
    await sandbox.delivery.flush();
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(receiver.requests).toHaveLength(1);
    expect(sandbox.delivery.attempts[0]).toMatchObject({
      status: null,
      error: 'timeout after 300 ms',
      delivered: false,
    });
    expect(sandbox.delivery.pendingCount()).toBe(1);

    receiver.answer = () => 200;
    await advance(1_000);
    expect(sandbox.delivery.attempts[1]).toMatchObject({ status: 200, delivered: true });
  });

  it('drops queued retries once their subscription is deleted', async () => {
    await startWith();
    receiver.answer = () => 500;
    const subscription = subscribe(sandbox, 'channel.followed');
    follow();
    await sandbox.delivery.flush();
    expect(sandbox.delivery.pendingCount()).toBe(1);
    sandbox.ctx.state.subscriptions.delete(subscription.id);
    expect(sandbox.delivery.pendingCount()).toBe(0);
    await advance(DAY_MS);
    expect(receiver.requests).toHaveLength(1);
  });
});

describe('webhook delivery: automatic unsubscription after a day of failures', () => {
  it("removes the app's subscriptions to that event type once deliveries have failed for more than a day", async () => {
    await startWith();
    receiver.answer = () => 500;
    const healthy = await startReceiver('/healthy');
    try {
      const otherApp = addApp(sandbox, 'other', healthy.url);
      const followed = subscribe(sandbox, 'channel.followed');
      const followedElsewhere = subscribe(sandbox, 'channel.followed', {
        broadcasterUserId: FIRST_OTHER_STREAMER_USER_ID,
      });
      const chat = subscribe(sandbox, 'chat.message.sent');
      const othersFollowed = subscribe(sandbox, 'channel.followed', { app: otherApp });

      follow();
      await sandbox.delivery.flush();
      expect(sandbox.delivery.failingSince(sandbox.ctx.app.clientId, 'channel.followed')).toBe(START_MS);
      // A second failing event half-way does not restart the window.
      await walkTo(START_MS + DAY_MS / 2);
      follow();
      await sandbox.delivery.flush();
      await walkTo(START_MS + DAY_MS);
      expect(sandbox.ctx.state.subscriptions.has(followed.id)).toBe(true);
      expect(sandbox.delivery.failingSince(sandbox.ctx.app.clientId, 'channel.followed')).toBe(START_MS);

      await walkTo(START_MS + DAY_MS + 2 * 60 * MINUTE_MS);
      const subscriptions = sandbox.ctx.state.subscriptions;
      expect(subscriptions.has(followed.id)).toBe(false);
      expect(subscriptions.has(followedElsewhere.id)).toBe(false);
      expect(subscriptions.has(chat.id)).toBe(true);
      expect(subscriptions.has(othersFollowed.id)).toBe(true);
      expect(sandbox.delivery.pendingCount()).toBe(0);
      expect(healthy.requests).toHaveLength(2);

      const lastAttempt = sandbox.delivery.attempts.at(-1)!;
      expect(lastAttempt.attemptedAtMs).toBeGreaterThan(START_MS + DAY_MS);
      expect(lastAttempt.attemptedAtMs).toBeLessThanOrEqual(START_MS + DAY_MS + 60 * MINUTE_MS);
      expect(logLines.some((l) => l.includes('removed 2 subscription(s)') && l.includes('channel.followed'))).toBe(
        true,
      );

      // Nothing more is sent to the removed subscriptions.
      const sent = receiver.requests.length;
      follow();
      await walkTo(sandbox.ctx.clock.now() + 3 * 60 * MINUTE_MS);
      expect(receiver.requests).toHaveLength(sent);
    } finally {
      await healthy.close();
    }
  });

  it('keeps the subscription when a delivery succeeds within the day, and restarts the window', async () => {
    await startWith();
    receiver.answer = () => 500;
    const followed = subscribe(sandbox, 'channel.followed');
    follow();
    await sandbox.delivery.flush();
    await walkTo(START_MS + 20 * 60 * MINUTE_MS);

    // The receiver recovers for one delivery: the next hourly retry succeeds.
    receiver.answer = () => 200;
    await walkTo(START_MS + 21 * 60 * MINUTE_MS);
    expect(sandbox.delivery.attempts.at(-1)!.delivered).toBe(true);
    expect(sandbox.delivery.failingSince(sandbox.ctx.app.clientId, 'channel.followed')).toBeNull();

    // Failing again from here: more than a day after the FIRST failure is not enough any more.
    receiver.answer = () => 500;
    follow();
    await sandbox.delivery.flush();
    const secondRunStart = sandbox.ctx.clock.now();
    expect(sandbox.delivery.failingSince(sandbox.ctx.app.clientId, 'channel.followed')).toBe(secondRunStart);
    await walkTo(START_MS + DAY_MS + 4 * 60 * MINUTE_MS);
    expect(sandbox.ctx.state.subscriptions.has(followed.id)).toBe(true);

    // …but more than a day after the first failure of the new run is.
    await walkTo(secondRunStart + DAY_MS + 61 * MINUTE_MS);
    expect(sandbox.ctx.state.subscriptions.has(followed.id)).toBe(false);
  });
});
