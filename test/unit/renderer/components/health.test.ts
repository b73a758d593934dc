import '@testing-library/svelte/vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import HealthPanel from '../../../../renderer/src/components/HealthPanel.svelte';
import { HealthState } from '../../../../renderer/src/lib/state/health.svelte';
import { SessionState } from '../../../../renderer/src/lib/state/session.svelte';
import { createFakeApi, settle } from '../fake-api';
import { account, health, snapshot } from '../fixtures';

async function setup(h = health(), scopes = ['user:read', 'chat:write']) {
  const fake = createFakeApi();
  const now = 1_700_000_000_000;
  fake.ok('app:snapshot', snapshot({ account: account({ scopes, expiresAtMs: now + 2 * 3_600_000 }) }));
  const session = new SessionState(fake.api);
  await session.load();
  const state = new HealthState(fake.api);
  state.apply(h);
  const copied: string[] = [];
  const copy = (text: string) => {
    copied.push(text);
    return Promise.resolve(true);
  };
  render(HealthPanel, { props: { health: state, session, copy, now } });
  return { fake, copied, state };
}

describe('HealthPanel', () => {
  it('lists scopes, offering to sign in again for missing ones', async () => {
    const { fake } = await setup();
    expect(screen.getByText('chat:write').closest('li')!.textContent).not.toContain('Sign in again');
    const add = screen.getByText('moderation:ban').closest('li')!.querySelector('button')!;
    expect(add.textContent).toBe('Sign in again to add');
    fake.ok('auth:start-login', account({ scopes: ['user:read', 'chat:write', 'moderation:ban'] }));
    await fireEvent.click(add);
    await settle();
    expect(fake.argsOf('auth:start-login')).toEqual([[{ scopes: ['user:read', 'chat:write', 'moderation:ban'] }]]);
  });

  it('shows token expiry, tunnel, subscriptions, lag and counters', async () => {
    await setup();
    expect(screen.getByText(/Token refreshes in 2 h/)).toBeTruthy();
    expect(screen.getByText('Up')).toBeTruthy();
    expect(screen.getByText('kicks.gifted').closest('li')!.textContent).toContain('Kick said no');
    expect(screen.getByText(/p50 180 ms · p95 900 ms/)).toBeTruthy();
    expect(screen.getByText('40 accepted · 2 duplicates · 1 rejected')).toBeTruthy();
  });

  it('says how many deliveries for another channel were ignored, only when there were some', async () => {
    const { fake } = await setup();
    expect(screen.queryByTestId('foreign-deliveries')).toBeNull();
    fake.ok('health:snapshot', health({ counters: { accepted: 5, duplicates: 0, rejected: 0, foreign: 3 } }));
    await fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await settle();
    expect(screen.getByTestId('foreign-deliveries').textContent).toContain('3 ignored: sent for another channel');
  });

  it('copies the webhook URL', async () => {
    const { copied } = await setup();
    await fireEvent.click(screen.getByRole('button', { name: 'Copy Webhook URL' }));
    await settle();
    expect(copied).toEqual(['https://gr-abc.loca.lt/kick/webhook']);
    expect(screen.getByText('Copied.')).toBeTruthy();
  });

  it('warns when the secret store is degraded and the tunnel is down', async () => {
    await setup(
      health({
        secretStore: { backend: 'basic_text', degraded: true },
        tunnel: { state: 'down', reason: 'connection refused', retryInMs: 4000 },
        webhookUrl: null,
      }),
    );
    expect(screen.getByRole('alert').textContent).toContain('Secret storage is degraded (basic_text)');
    expect(screen.getByText(/Down: connection refused — retrying in 4 s/)).toBeTruthy();
    expect(screen.getByText('Available when the tunnel is up.')).toBeTruthy();
  });

  it('refreshes from main', async () => {
    const { fake } = await setup();
    fake.ok('health:snapshot', health({ counters: { accepted: 99, duplicates: 0, rejected: 0 } }));
    await fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await settle();
    expect(screen.getByText('99 accepted · 0 duplicates · 0 rejected')).toBeTruthy();
  });

  it('shows the webhook port and the exact local address to route to, with Copy', async () => {
    const { copied } = await setup(health({ receiver: { port: 7532, url: 'http://127.0.0.1:7532/kick/webhook' } }));
    const card = screen.getByRole('heading', { name: 'Webhook receiver' }).closest('div')!;
    expect(card.textContent).toContain('port 7532');
    expect(card.textContent).toContain('http://127.0.0.1:7532/kick/webhook');
    await fireEvent.click(screen.getByRole('button', { name: 'Copy Local webhook address' }));
    await settle();
    expect(copied).toEqual(['http://127.0.0.1:7532/kick/webhook']);
  });

  it('says how late Kick delivers while it delays events', async () => {
    await setup(health({ lag: { samples: 30, p50Ms: 610_000, p95Ms: 700_000, state: 'delayed', delayMs: 600_000 } }));
    expect(screen.getByText(/Kick is delaying events by 10 min/)).toBeTruthy();
  });
});
