import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import App from '../../../../renderer/src/App.svelte';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { message, modAction } from '../fixtures';

async function openCard() {
  const fake = createFakeApi();
  const frames = manualFrames();
  const clock = manualClock(Date.parse('2026-03-04T12:00:00Z'));
  fake.handle('mod:user-card', (a: { userId: number }) => ({
    ok: true,
    value: {
      userId: a.userId,
      username: 'troll',
      recentMessages: [
        message({ messageId: 'old-1', userId: 42, username: 'troll', content: 'from before', sentAtMs: 1 }),
      ],
      actions: [modAction({ id: 'prev', kind: 'timeout', minutes: 5, targetUserId: 42 })],
    },
  }));
  const r = render(App, {
    props: { api: fake.api, view: 'chat', deps: { scheduler: frames.scheduler, clock } },
  });
  await settle();
  const m = message({ messageId: 'now-1', userId: 42, username: 'troll', content: 'buy followers' });
  fake.emit('kick:event', { kind: 'chat', message: m });
  frames.run();
  await settle();
  const row = r.container.querySelector<HTMLElement>('[data-message-id="now-1"]')!;
  await fireEvent.click(within(row).getByRole('button', { name: 'troll' }));
  await settle();
  return { fake, clock, dialog: screen.getByRole('dialog', { name: 'troll' }) };
}

describe('UserCard', () => {
  it('shows the user recent messages and the actions taken on them', async () => {
    const { fake, dialog } = await openCard();
    expect(fake.argsOf('mod:user-card')).toEqual([[{ userId: 42 }]]);
    expect(within(dialog).getByText('from before')).toBeTruthy();
    expect(within(dialog).getByText('buy followers')).toBeTruthy();
    expect(within(dialog).getByText(/timeout 5m/)).toBeTruthy();
  });

  it('T times out for 10 minutes, U unbans', async () => {
    const { fake, dialog } = await openCard();
    await fireEvent.keyDown(dialog, { key: 't' });
    await settle();
    expect(fake.argsOf('mod:timeout')).toEqual([[{ userId: 42, minutes: 10 }]]);
    expect(within(dialog).getByText('Timed out 10m')).toBeTruthy();
    await fireEvent.keyDown(dialog, { key: 'u' });
    await settle();
    expect(fake.argsOf('mod:unban')).toEqual([[{ userId: 42 }]]);
  });

  it("shows another moderator's ban or timeout from Kick at once, and what lifts it", async () => {
    const { fake, dialog, clock } = await openCard();
    const standing = () => within(dialog).queryByTestId('user-standing')?.textContent ?? null;
    // The earlier 5 minute timeout is long over.
    expect(standing()).toBeNull();
    const at = clock.now();
    const onKick = { moderator: 'mod_mia' };
    fake.emit(
      'mod:action',
      modAction({ id: 'k1', kind: 'timeout', minutes: 10, atMs: at, targetUserId: 42, elsewhere: onKick }),
    );
    await settle();
    const until = new Date(at + 10 * 60_000);
    const hhmm = `${String(until.getHours()).padStart(2, '0')}:${String(until.getMinutes()).padStart(2, '0')}`;
    expect(standing()).toBe(`Timed out until ${hhmm}`);
    expect(within(dialog).getByText(/timeout 10m — on Kick by mod_mia/)).toBeTruthy();
    fake.emit('mod:action', modAction({ id: 'k2', kind: 'ban', atMs: at + 1000, targetUserId: 42, elsewhere: onKick }));
    await settle();
    expect(standing()).toBe('Banned');
    fake.emit(
      'mod:action',
      modAction({ id: 'k3', kind: 'unban', atMs: at + 2000, targetUserId: 42, elsewhere: { moderator: null } }),
    );
    await settle();
    expect(standing()).toBeNull();
    expect(within(dialog).getByText(/unban — on Kick/)).toBeTruthy();
  });

  it('says a timeout has run out once it has', async () => {
    const { fake, dialog, clock } = await openCard();
    fake.emit(
      'mod:action',
      modAction({
        id: 'k4',
        kind: 'timeout',
        minutes: 1,
        atMs: clock.now(),
        targetUserId: 42,
        elsewhere: { moderator: 'mod_mia' },
      }),
    );
    await settle();
    expect(within(dialog).getByTestId('user-standing').textContent).toMatch(/^Timed out until/);
    clock.advance(90_000);
    await settle();
    expect(within(dialog).queryByTestId('user-standing')).toBeNull();
  });

  it('B asks for the ban confirm', async () => {
    const { fake, dialog } = await openCard();
    await fireEvent.keyDown(dialog, { key: 'b' });
    expect(screen.getByRole('dialog', { name: 'Ban troll?' })).toBeTruthy();
    expect(fake.argsOf('mod:ban')).toHaveLength(0);
  });

  it('Delete removes the selected message; Escape closes', async () => {
    const { fake, dialog } = await openCard();
    // The clicked message is selected when the card opens.
    const selected = within(dialog).getByRole('button', { name: /buy followers/ });
    expect(selected.getAttribute('aria-pressed')).toBe('true');
    await fireEvent.keyDown(dialog, { key: 'Delete' });
    await settle();
    expect(fake.argsOf('chat:delete')).toEqual([[{ messageId: 'now-1' }]]);
    await fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'troll' })).toBeNull();
  });
});
