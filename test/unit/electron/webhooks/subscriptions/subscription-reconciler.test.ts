import { describe, expect, it } from 'vitest';
import { KickApiError } from '../../../../../electron/kick/kick-errors';
import { KICK_EVENT_TYPES } from '../../../../../shared/kick/scopes';
import { BROADCASTER, T0, byType, setup } from './subscription-reconciler-fixtures';

describe('reconcile', () => {
  it('creates every missing type in one call and reports each active with its id', async () => {
    const { kick, reconciler, published } = setup();
    const existing = kick.add('chat.message.sent');

    const statuses = await reconciler.reconcile();

    expect(kick.calls).toEqual([
      `list ${BROADCASTER}`,
      `subscribe ${BROADCASTER} ${KICK_EVENT_TYPES.filter((t) => t !== 'chat.message.sent').join(',')}`,
    ]);
    expect(statuses.map((s) => s.type)).toEqual([...KICK_EVENT_TYPES]);
    expect(statuses.every((s) => s.state === 'active' && s.lastCheckedAt === T0)).toBe(true);
    expect(byType(statuses).get('chat.message.sent')?.subscriptionId).toBe(existing);
    expect(byType(statuses).get('kicks.gifted')?.subscriptionId).toBe(kick.idsOf('kicks.gifted')[0]);
    expect(reconciler.status()).toBe(statuses);
    expect(published).toEqual([statuses]);
  });

  it('does nothing but list when everything is already there', async () => {
    const { kick, reconciler } = setup({ wanted: ['channel.followed', 'kicks.gifted'] });
    kick.add('channel.followed');
    kick.add('kicks.gifted');

    await reconciler.reconcile();

    expect(kick.calls).toEqual([`list ${BROADCASTER}`]);
  });

  it('deletes duplicates in one call, keeping the oldest of each type', async () => {
    const { kick, reconciler, logs } = setup({ wanted: ['channel.followed', 'kicks.gifted'] });
    const newer = kick.add('channel.followed', { ageMs: 1000 });
    const oldest = kick.add('channel.followed', { ageMs: 5000 });
    const newest = kick.add('channel.followed');
    const gifted = kick.add('kicks.gifted', { ageMs: 10 });
    const giftedTwin = kick.add('kicks.gifted', { ageMs: 10 }); // same instant: the lower id is older
    // Another broadcaster's and another version's subscriptions are not duplicates of ours.
    kick.add('channel.followed', { broadcaster: 999 });
    kick.add('channel.followed', { version: 2 });

    const statuses = await reconciler.reconcile();

    expect(kick.calls).toEqual([`list ${BROADCASTER}`, `unsubscribe ${newer},${giftedTwin},${newest}`]);
    expect(kick.idsOf('channel.followed')).toHaveLength(3);
    expect(byType(statuses).get('channel.followed')).toMatchObject({ state: 'active', subscriptionId: oldest });
    expect(byType(statuses).get('kicks.gifted')).toMatchObject({ state: 'active', subscriptionId: gifted });
    expect(logs).toContain('subscriptions: deleted 3 duplicate(s) of channel.followed, kicks.gifted');
  });

  it('deletes the subscription of a type no longer wanted, and leaves a type it does not know alone', async () => {
    const { kick, reconciler, logs } = setup({ wanted: ['chat.message.sent'] });
    const chat = kick.add('chat.message.sent');
    const followed = kick.add('channel.followed', { ageMs: 10 });
    const followedTwin = kick.add('channel.followed');
    const future = kick.add('channel.raided');
    kick.add('kicks.gifted', { broadcaster: 999 });

    const statuses = await reconciler.reconcile();

    expect(kick.calls).toEqual([`list ${BROADCASTER}`, `unsubscribe ${followed}`, `unsubscribe ${followedTwin}`]);
    expect(kick.subscriptions.map((s) => s.id).sort()).toEqual([chat, future, kick.idsOf('kicks.gifted')[0]].sort());
    expect(statuses).toEqual([expect.objectContaining({ type: 'chat.message.sent', subscriptionId: chat })]);
    expect(logs).toContain('subscriptions: deleted channel.followed, no longer wanted');
  });

  it('a failed delete of an unwanted type is logged and tried again on the next run', async () => {
    const { kick, reconciler, logs } = setup({ wanted: ['chat.message.sent'] });
    kick.add('chat.message.sent');
    const followed = kick.add('channel.followed');
    kick.unsubscribeError = new KickApiError('Network', 'Kick could not be reached', {
      operation: 'unsubscribeFromEvent',
    });

    expect((await reconciler.reconcile())[0]).toMatchObject({ state: 'active' });
    expect(logs.at(-1)).toMatch(/^subscriptions: could not delete channel.followed \(no longer wanted\): Network/);

    kick.unsubscribeError = null;
    await reconciler.reconcile();
    expect(kick.idsOf('channel.followed')).toEqual([]);
    expect(kick.calls.filter((c) => c.startsWith('unsubscribe'))).toEqual([
      `unsubscribe ${followed}`,
      `unsubscribe ${followed}`,
    ]);
  });

  it('shares one run between concurrent calls, so nothing is created twice', async () => {
    const { kick, reconciler } = setup({ wanted: ['channel.followed'] });
    let open!: () => void;
    kick.listGate = new Promise((resolve) => (open = resolve));

    const first = reconciler.reconcile();
    const second = reconciler.reconcile();
    open();
    const [a, b] = await Promise.all([first, second]);

    expect(a).toBe(b);
    expect(kick.calls).toEqual([`list ${BROADCASTER}`, `subscribe ${BROADCASTER} channel.followed`]);
    expect(kick.idsOf('channel.followed')).toHaveLength(1);
  });

  it('trusts what it just created when a lagging list does not show it yet', async () => {
    const { kick, clock, reconciler } = setup({ wanted: ['channel.followed'], intervalMs: 60_000 });
    await reconciler.reconcile();
    const created = kick.idsOf('channel.followed')[0];
    kick.staleAfter = 0;

    clock.advance(60_000);
    const statuses = await reconciler.reconcile();

    expect(kick.calls.filter((c) => c.startsWith('subscribe'))).toHaveLength(1);
    expect(statuses[0]).toMatchObject({ state: 'active', subscriptionId: created, lastCheckedAt: T0 + 60_000 });

    // Past the grace (two intervals) an id that never showed up is not trusted any more.
    clock.advance(60_000);
    await reconciler.reconcile();
    expect(kick.calls.filter((c) => c.startsWith('subscribe'))).toHaveLength(2);
  });

  it("notices Kick's automatic removal, logs it and subscribes again", async () => {
    const { kick, reconciler, logs } = setup({ wanted: ['channel.followed', 'moderation.banned'] });
    await reconciler.reconcile();
    await reconciler.reconcile(); // the list now confirms both
    const removed = kick.idsOf('moderation.banned')[0]!;
    kick.subscriptions = kick.subscriptions.filter((s) => s.id !== removed);

    const statuses = await reconciler.reconcile();

    expect(kick.calls.at(-1)).toBe(`subscribe ${BROADCASTER} moderation.banned`);
    expect(logs).toContain(
      'warning: subscriptions: Kick removed the subscription for moderation.banned (deliveries failing for over a day?); subscribing again',
    );
    const again = byType(statuses).get('moderation.banned');
    expect(again?.state).toBe('active');
    expect(again?.subscriptionId).not.toBe(removed);
    expect(logs.filter((l) => l.includes('removed'))).toHaveLength(1);
  });

  it('a type never seen before is created without a removal warning', async () => {
    const { reconciler, logs } = setup({ wanted: ['channel.followed'] });
    await reconciler.reconcile();
    expect(logs.some((l) => l.includes('removed'))).toBe(false);
  });
});

describe('errors are reported per type, never thrown', () => {
  it('a failed list marks every wanted type with the error', async () => {
    const { kick, reconciler } = setup({ wanted: ['channel.followed', 'kicks.gifted'] });
    kick.listError = new KickApiError('MissingScope', 'needs events:subscribe', {
      operation: 'fetchEventsSubscriptions',
    });

    const statuses = await reconciler.reconcile();

    expect(statuses).toEqual(
      ['channel.followed', 'kicks.gifted'].map((type) => ({
        type,
        state: 'error',
        error: {
          code: 'MissingScope',
          message: 'needs events:subscribe',
          details: { operation: 'fetchEventsSubscriptions' },
        },
        lastCheckedAt: T0,
      })),
    );
    expect(kick.calls).toEqual([`list ${BROADCASTER}`]);
  });

  it('a failed create marks only the types it was for; listed ones stay active', async () => {
    const { kick, reconciler } = setup({ wanted: ['channel.followed', 'kicks.gifted'] });
    kick.add('channel.followed');
    kick.subscribeError = new KickApiError('Network', 'Kick could not be reached', { operation: 'subscribeToEvent' });

    const statuses = byType(await reconciler.reconcile());

    expect(statuses.get('channel.followed')?.state).toBe('active');
    expect(statuses.get('kicks.gifted')).toMatchObject({ state: 'error', error: { code: 'Network' } });
  });

  it("Kick's per-type refusal and a silently skipped type are told apart", async () => {
    const { kick, reconciler } = setup({ wanted: ['channel.followed', 'kicks.gifted', 'moderation.banned'] });
    kick.refuse.set('kicks.gifted', 'limit reached');
    kick.omit.add('moderation.banned');

    const statuses = byType(await reconciler.reconcile());

    expect(statuses.get('channel.followed')?.state).toBe('active');
    expect(statuses.get('kicks.gifted')).toMatchObject({
      state: 'error',
      error: { code: 'BadRequest', message: 'Kick refused kicks.gifted: limit reached' },
    });
    expect(statuses.get('moderation.banned')).toEqual({
      type: 'moderation.banned',
      state: 'missing',
      lastCheckedAt: T0,
    });
  });

  it('duplicates that cannot be deleted put their type in error, keeping the kept id', async () => {
    const { kick, reconciler } = setup({ wanted: ['channel.followed'] });
    const oldest = kick.add('channel.followed', { ageMs: 100 });
    kick.add('channel.followed');
    kick.unsubscribeError = new KickApiError('ServerError', 'Kick failed', { operation: 'unsubscribeFromEvent' });

    const [status] = await reconciler.reconcile();

    expect(status).toMatchObject({ state: 'error', subscriptionId: oldest, error: { code: 'ServerError' } });
  });

  it('an unexpected error becomes Internal', async () => {
    const { kick, reconciler } = setup({ wanted: ['channel.followed'] });
    kick.listError = new TypeError('boom');

    const [status] = await reconciler.reconcile();

    expect(status?.error).toEqual({ code: 'Internal', message: 'boom' });
  });
});
