import { describe, expect, it } from 'vitest';
import { KickApiError } from '../../../../../electron/kick/kick-errors';
import { settle, setup } from './subscription-reconciler-fixtures';

describe('start / stop', () => {
  it('reconciles at once, then every interval, and keeps going after an error', async () => {
    const { kick, reconciler, scheduler, published } = setup({ wanted: ['channel.followed'], intervalMs: 1234 });
    kick.listError = new KickApiError('Network', 'offline', { operation: 'fetchEventsSubscriptions' });

    reconciler.start();
    await settle();
    expect(published.at(-1)?.[0]?.state).toBe('error');
    expect(scheduler.pending.size).toBe(1);

    kick.listError = null;
    expect(scheduler.fireOnly()).toBe(1234);
    await settle();
    expect(published.at(-1)?.[0]?.state).toBe('active');
    expect(scheduler.pending.size).toBe(1);

    reconciler.start(); // already running: no second loop
    await settle();
    expect(scheduler.pending.size).toBe(1);
  });

  it('stop() cancels the next run, including one planned by a run still in flight', async () => {
    const { kick, reconciler, scheduler } = setup({ wanted: ['channel.followed'] });
    let open!: () => void;
    kick.listGate = new Promise((resolve) => (open = resolve));

    reconciler.start();
    reconciler.stop();
    open();
    await settle();

    expect(scheduler.pending.size).toBe(0);
  });

  it('a throwing onStatus is logged, and the loop goes on', async () => {
    const { reconciler, scheduler, logs } = setup({
      wanted: ['channel.followed'],
      onStatus: () => {
        throw new Error('listener broke');
      },
    });

    reconciler.start();
    await settle();

    expect(logs).toContain('subscriptions: reconcile failed: listener broke');
    expect(scheduler.pending.size).toBe(1);
    reconciler.stop();
  });
});
