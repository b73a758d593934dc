/**
 * Changes Kick sends no event for reach every panel: a reward created, edited or deleted and ads enrolled or
 * a break run through one panel are pushed as `views:changed` to all of them, so a second dock reads the
 * view again ([design notes](../../../docs/design-notes.md#views-follow-the-events)). A refused change pushes
 * nothing. The composition root in sandbox mode, every request through `router.invoke`.
 */
import { describe, expect, it } from 'vitest';
import { triggerEvent } from '../../../sandbox/triggers';
import { browser, call, fx, received, useSetup } from './create-app-sandbox-mode-fixtures';

useSetup();

const pushed = () => received['views:changed'].map((p) => p.view);

describe('views changed by a panel', () => {
  it('tells every panel when a reward is created, edited or deleted', async () => {
    await call('auth:start-login', {});
    await browser.settled();
    const created = await call('rewards:create', { title: 'Stretch break', cost: 300 });
    expect(pushed()).toEqual(['rewards']);
    await call('rewards:update', { id: created.id, patch: { isPaused: true } });
    await call('rewards:delete', { id: created.id });
    expect(pushed()).toEqual(['rewards', 'rewards', 'rewards']);
    expect(fx.sandbox.ctx.state.rewards.get(created.id)?.deleted ?? true).toBe(true);
  });

  it('pushes nothing for a change Kick refused', async () => {
    const before = pushed().length;
    const refused = await fx.app.router.invoke('rewards:delete', [{ id: '01NOSUCHREWARD000000000000' }]);
    expect(refused.ok).toBe(false);
    const late = await fx.app.router.invoke('ads:run', [{ seconds: 30 }]);
    expect(late.ok).toBe(false);
    expect(pushed()).toHaveLength(before);
  });

  it('tells every panel when ads are enrolled in or a break is run', async () => {
    await call('ads:enroll');
    expect(pushed().at(-1)).toBe('ads');
    triggerEvent(fx.sandbox.ctx, 'livestream.status.updated', { overrides: { is_live: true } });
    const before = pushed().length;
    await call('ads:run', { seconds: 60 });
    expect(pushed().slice(before)).toEqual(['ads']);
  });
});
