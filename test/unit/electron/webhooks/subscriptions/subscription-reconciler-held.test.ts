/**
 * What each reconcile reports as held for the broadcaster (`onRun`): the receiver acts only on those
 * subscriptions' deliveries (docs/design-notes.md, "Only the signed-in channel's events").
 */
import { describe, expect, it } from 'vitest';
import { KickApiError } from '../../../../../electron/kick/kick-errors';
import { BROADCASTER, setup } from './subscription-reconciler-fixtures';

/** A reconciler whose runs are recorded: `started` count and each run's held ids (sorted). */
function watched(options: Parameters<typeof setup>[0] = {}) {
  const runs: { started: number; ended: (string[] | null)[] } = { started: 0, ended: [] };
  const world = setup({
    ...options,
    onRun: {
      started: () => void runs.started++,
      ended: (held) => void runs.ended.push(held === null ? null : [...held].sort()),
    },
  });
  return { ...world, runs };
}

describe('held subscriptions', () => {
  it('reports what it created and what was listed for the broadcaster, of any type, not other channels’', async () => {
    const { kick, reconciler, runs } = watched({ wanted: ['channel.followed', 'chat.message.sent'] });
    const follow = kick.add('channel.followed');
    const newer = kick.add('channel.hosted'); // a type Greenroom does not know: kept, and held
    const elsewhere = kick.add('chat.message.sent', { broadcaster: BROADCASTER + 1 });
    await reconciler.reconcile();
    const chat = kick.idsOf('chat.message.sent').find((id) => id !== elsewhere)!;
    expect(runs.started).toBe(1);
    expect(runs.ended).toEqual([[chat, follow, newer].sort()]);
  });

  it('drops what it deleted: duplicates and types no longer wanted', async () => {
    const { kick, reconciler, runs } = watched({ wanted: ['channel.followed'] });
    const oldest = kick.add('channel.followed', { ageMs: 60_000 });
    kick.add('channel.followed');
    kick.add('kicks.gifted');
    await reconciler.reconcile();
    expect(runs.ended).toEqual([[oldest]]);
  });

  it('keeps what it could not delete, since Kick still delivers it', async () => {
    const { kick, reconciler, runs } = watched({ wanted: ['channel.followed'] });
    const follow = kick.add('channel.followed');
    const kicks = kick.add('kicks.gifted');
    kick.unsubscribeError = new KickApiError('Network', 'offline', { operation: 'unsubscribeFromEvent' });
    await reconciler.reconcile();
    expect(runs.ended).toEqual([[follow, kicks].sort()]);
  });

  it('reports null when Kick cannot be listed, and one run for overlapping calls', async () => {
    const { kick, reconciler, runs } = watched({ wanted: ['channel.followed'] });
    kick.listError = new KickApiError('Network', 'offline', { operation: 'fetchEventsSubscriptions' });
    await Promise.all([reconciler.reconcile(), reconciler.reconcile()]);
    expect(runs).toEqual({ started: 1, ended: [null] });
  });

  it('holds a subscription it created moments ago that a lagging list does not show yet', async () => {
    const { kick, reconciler, runs } = watched({ wanted: ['channel.followed'] });
    await reconciler.reconcile();
    const created = kick.idsOf('channel.followed');
    kick.staleAfter = 0;
    await reconciler.reconcile();
    expect(runs.ended).toEqual([created, created]);
  });
});
