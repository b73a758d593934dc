/**
 * The Health tab's badge as the panel shows it, through App with the transport fake: problems wear the
 * warning colour (never the accent green that reads as "all good"), and in sandbox mode an unprotected
 * secret store is no problem, since no Kick sign-in is saved there
 * ([design notes](../../../../docs/design-notes.md#events-arriving-or-only-subscribed)).
 */
import '@testing-library/svelte/vitest';
import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import App from '../../../../renderer/src/App.svelte';
import type { HealthView } from '../../../../shared/views';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { health, snapshot } from '../fixtures';

const allActive: HealthView['subscriptions'] = [
  { type: 'chat.message.sent', state: 'active' },
  { type: 'channel.followed', state: 'active' },
];

async function healthTab(mode: 'sandbox' | 'kick', over: Partial<HealthView>): Promise<HTMLElement> {
  const fake = createFakeApi();
  const h = health({ mode, subscriptions: allActive, ...over });
  fake.ok('app:snapshot', snapshot({ mode, health: h }));
  fake.ok('health:snapshot', h);
  const deps = { scheduler: manualFrames().scheduler, clock: manualClock(), copy: () => Promise.resolve(true) };
  render(App, { props: { api: fake.api, view: 'full', deps } });
  await settle();
  return screen.getByRole('tab', { name: /^Health/ });
}

describe('the Health tab badge', () => {
  it('in sandbox mode counts no keychain problem', async () => {
    const tab = await healthTab('sandbox', {
      secretStore: { backend: 'basic_text', degraded: true },
      tunnel: { state: 'off' },
    });
    expect(tab.querySelector('.badge')).toBeNull();
  });

  it('on Kick counts it, in the warning colour', async () => {
    const tab = await healthTab('kick', { secretStore: { backend: 'basic_text', degraded: true } });
    const badge = tab.querySelector<HTMLElement>('.badge')!;
    expect(badge.textContent).toBe('1');
    expect(badge.getAttribute('aria-label')).toBe('1 connection problem');
    expect(badge.classList.contains('warn')).toBe(true);
  });

  it('a tunnel problem wears the warning colour too', async () => {
    const tab = await healthTab('kick', { tunnel: { state: 'off' } });
    expect(tab.querySelector('.badge')!.classList.contains('warn')).toBe(true);
  });
});
