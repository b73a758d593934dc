/**
 * The reconciler against the Kick sandbox over real HTTP, through the real Kick client acting with the
 * app token (client credentials; no sign-in needed): creates, leaves alone, deletes duplicates, and brings
 * back what Kick's automatic removal took away, and deletes what the streamer unticked.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdjustableClock } from '../../../electron/core/clock';
import { createKick, type Kick } from '../../../electron/kick/create-kick';
import type { Sandbox } from '../../../sandbox/index';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { MemorySecretStore } from '../../../electron/secrets/secret-store';
import {
  createSubscriptionReconciler,
  type SubscriptionReconciler,
} from '../../../electron/webhooks/subscriptions/subscription-reconciler';
import { KICK_EVENT_TYPES, KICK_SCOPES } from '../../../shared/kick/scopes';
import { call, mintAppToken, startSandbox } from '../../helpers/sandbox';

let sandbox: Sandbox;
let kick: Kick;
let reconciler: SubscriptionReconciler;
let logs: string[];

beforeEach(async () => {
  sandbox = await startSandbox();
  const described = sandbox.describe();
  const clock = new AdjustableClock();
  kick = createKick(
    {
      apiUrl: described.apiUrl,
      authUrl: described.authUrl,
      clientId: described.clientId,
      clientSecret: described.clientSecret,
      redirectUri: described.redirectUris[0]!,
      scopes: KICK_SCOPES,
    },
    {
      clock,
      store: new MemorySecretStore(),
      openExternal: () => Promise.reject(new Error('no browser in this test')),
    },
  );
  logs = [];
  reconciler = createSubscriptionReconciler({
    client: kick.client,
    broadcasterUserId: STREAMER_USER_ID,
    wanted: KICK_EVENT_TYPES,
    clock,
    log: (line) => logs.push(line),
  });
});

afterEach(async () => {
  reconciler.stop();
  await kick.close();
  await sandbox.close();
});

/** The sandbox's own record of the app's subscriptions for the streamer, oldest first. */
function subscriptionsInSandbox() {
  return [...sandbox.ctx.state.subscriptions.values()]
    .filter((s) => s.clientId === sandbox.ctx.app.clientId && s.broadcasterUserId === STREAMER_USER_ID)
    .sort((a, b) => a.createdAtMs - b.createdAtMs);
}

function countByEvent(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of subscriptionsInSandbox()) {
    counts[s.event] = (counts[s.event] ?? 0) + 1;
  }
  return counts;
}

const oneOfEach = Object.fromEntries(KICK_EVENT_TYPES.map((t) => [t, 1]));

describe('subscription reconciler against the sandbox', () => {
  it('creates all ten, then a second run creates nothing', async () => {
    const first = await reconciler.reconcile();

    expect(countByEvent()).toEqual(oneOfEach);
    expect(first.map((s) => s.state)).toEqual(KICK_EVENT_TYPES.map(() => 'active'));
    const ids = new Set(subscriptionsInSandbox().map((s) => s.id));
    expect(new Set(first.map((s) => s.subscriptionId))).toEqual(ids);

    const second = await reconciler.reconcile();

    expect(countByEvent()).toEqual(oneOfEach);
    expect(new Set(subscriptionsInSandbox().map((s) => s.id))).toEqual(ids);
    expect(second.map((s) => s.subscriptionId)).toEqual(first.map((s) => s.subscriptionId));
  });

  it('deletes a duplicate made straight through the API, keeping the original', async () => {
    await reconciler.reconcile();
    const original = subscriptionsInSandbox().find((s) => s.event === 'channel.followed')!.id;
    sandbox.ctx.clock.advance(1000);
    const made = await call(sandbox.urls.api, 'POST', '/public/v1/events/subscriptions', {
      token: mintAppToken(sandbox),
      body: {
        events: [{ name: 'channel.followed', version: 1 }],
        method: 'webhook',
        broadcaster_user_id: STREAMER_USER_ID,
      },
    });
    expect(made.status).toBe(200);
    const duplicate = made.json.data[0].subscription_id as string;
    expect(countByEvent()['channel.followed']).toBe(2);

    const statuses = await reconciler.reconcile();

    expect(countByEvent()).toEqual(oneOfEach);
    expect(sandbox.ctx.state.subscriptions.has(duplicate)).toBe(false);
    expect(statuses.find((s) => s.type === 'channel.followed')).toMatchObject({
      state: 'active',
      subscriptionId: original,
    });
    expect(logs).toContain('subscriptions: deleted 1 duplicate(s) of channel.followed');
  });

  it("re-creates a subscription Kick's automatic removal deleted", async () => {
    await reconciler.reconcile();
    await reconciler.reconcile();
    const removed = subscriptionsInSandbox().find((s) => s.event === 'livestream.status.updated')!.id;
    // What the sandbox (and Kick) does after a day of failed deliveries.
    sandbox.ctx.state.subscriptions.delete(removed);

    const statuses = await reconciler.reconcile();

    expect(countByEvent()).toEqual(oneOfEach);
    const again = statuses.find((s) => s.type === 'livestream.status.updated');
    expect(again?.state).toBe('active');
    expect(again?.subscriptionId).not.toBe(removed);
    expect(sandbox.ctx.state.subscriptions.has(again!.subscriptionId!)).toBe(true);
    expect(logs.some((l) => l.includes('Kick removed the subscription for livestream.status.updated'))).toBe(true);
  });

  it('concurrent reconciles over HTTP create each type once', async () => {
    const [a, b, c] = await Promise.all([reconciler.reconcile(), reconciler.reconcile(), reconciler.reconcile()]);

    expect(a).toBe(b);
    expect(b).toBe(c);
    expect(countByEvent()).toEqual(oneOfEach);
  });

  it('deletes at Kick the types a new wanted list leaves out (events unticked in Settings)', async () => {
    await reconciler.reconcile();
    const kept = subscriptionsInSandbox().find((s) => s.event === 'chat.message.sent')!.id;
    // Settings rebuild the webhook side with the new list; its reconciler starts from nothing.
    const narrower = createSubscriptionReconciler({
      client: kick.client,
      broadcasterUserId: STREAMER_USER_ID,
      wanted: ['chat.message.sent', 'channel.followed'],
      clock: new AdjustableClock(),
      log: (line) => logs.push(line),
    });

    const statuses = await narrower.reconcile();

    expect(countByEvent()).toEqual({ 'chat.message.sent': 1, 'channel.followed': 1 });
    expect(statuses.map((s) => [s.type, s.state])).toEqual([
      ['chat.message.sent', 'active'],
      ['channel.followed', 'active'],
    ]);
    expect(subscriptionsInSandbox().map((s) => s.id)).toContain(kept);
    expect(logs.filter((l) => l.endsWith('no longer wanted'))).toHaveLength(1);
  });
});
