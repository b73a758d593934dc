import '@testing-library/svelte/vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import Leaderboard from '../../../../renderer/src/components/Leaderboard.svelte';
import { LeaderboardState } from '../../../../renderer/src/lib/state/leaderboard.svelte';
import { createFakeApi, settle } from '../fake-api';

const entry = (rank: number, username: string, amount: number) => ({
  rank,
  username,
  user_id: rank * 10 + username.length,
  gifted_amount: amount,
});

describe('Leaderboard', () => {
  it('switches between lifetime, month and week and asks for top N', async () => {
    const fake = createFakeApi();
    fake.ok('kicks:leaderboard', {
      lifetime: [entry(1, 'whale', 12000), entry(2, 'dolphin', 800)],
      month: [entry(1, 'dolphin', 300)],
      week: [],
    });
    const leaderboard = new LeaderboardState(fake.api);
    await leaderboard.load();
    render(Leaderboard, { props: { leaderboard } });
    expect(screen.getByText('whale')).toBeTruthy();
    expect(screen.getByText('12,000')).toBeTruthy();
    await fireEvent.click(screen.getByRole('tab', { name: 'This month' }));
    expect(screen.queryByText('whale')).toBeNull();
    expect(screen.getByText('dolphin')).toBeTruthy();
    await fireEvent.keyDown(screen.getByRole('tab', { name: 'This month' }), { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'This week' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('No KICKs in this period yet.')).toBeTruthy();
    await fireEvent.input(screen.getByLabelText('Top'), { target: { value: '25' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    await settle();
    expect(fake.argsOf('kicks:leaderboard').at(-1)).toEqual([{ top: 25 }]);
  });

  it('without the permission, says what to allow in Health’s words, Kick’s name only behind Details', async () => {
    const fake = createFakeApi();
    fake.handle('kicks:leaderboard', () => ({
      ok: false,
      error: {
        code: 'MissingScope',
        message: 'kicksLeaderboard needs the kicks:read scope: sign in again to grant it',
        details: { scopes: ['kicks:read'] },
      },
    }));
    const leaderboard = new LeaderboardState(fake.api);
    await leaderboard.load();
    render(Leaderboard, { props: { leaderboard } });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('To do this, sign in again and allow Greenroom to “see KICKs gifted to you”.');
    expect(alert.textContent).not.toMatch(/kicks:read|scope/);
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Details' }));
    expect(alert.textContent).toContain('Kick permission: kicks:read');
  });

  it('signed out, offers no Retry that would fail the same way: only a sign-in mends it', async () => {
    const fake = createFakeApi();
    let calls = 0;
    fake.handle('kicks:leaderboard', () => {
      calls++;
      return { ok: false, error: { code: 'NotSignedIn', message: 'kicksLeaderboard: not signed in' } };
    });
    const leaderboard = new LeaderboardState(fake.api);
    await leaderboard.load();
    render(Leaderboard, { props: { leaderboard } });
    expect(screen.getByRole('alert').textContent).toContain('You are signed out. Sign in with Kick to do this.');
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(calls).toBe(1);
  });
});
