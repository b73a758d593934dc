import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import App from '../../../../renderer/src/App.svelte';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { account, channel, health, message, settings, snapshot } from '../fixtures';

function setup(view: 'full' | 'chat' | 'compact' = 'full', first?: Parameters<typeof snapshot>[0]) {
  const fake = createFakeApi();
  if (first) {
    fake.ok('app:snapshot', snapshot(first));
  }
  const frames = manualFrames();
  const clock = manualClock();
  const copied: string[] = [];
  const copy = (text: string) => {
    copied.push(text);
    return Promise.resolve(true);
  };
  const r = render(App, { props: { api: fake.api, view, deps: { scheduler: frames.scheduler, clock, copy } } });
  return { fake, frames, clock, copied, ...r };
}

describe('App', () => {
  it('loads the snapshot, shows the sandbox notice and subscribes to every event', async () => {
    const { fake } = setup();
    await settle();
    expect(screen.getByText(/built-in Kick sandbox/)).toBeTruthy();
    // The panel's state, and a browser panel's own notifications.
    expect(fake.listeners('kick:event')).toBe(2);
    expect(fake.listeners('session:changed')).toBe(1);
    expect(fake.argsOf('chat:history')).toHaveLength(1);
    expect(fake.argsOf('feed:history')).toHaveLength(1);
  });

  it('renders chat as it arrives, one flush per frame', async () => {
    const { fake, frames } = setup();
    await settle();
    fake.emit('kick:event', { kind: 'chat', message: message({ content: 'first!', username: 'alice' }) });
    await settle();
    expect(screen.queryByText('first!')).toBeNull();
    frames.run();
    await settle();
    expect(screen.getByText('first!')).toBeTruthy();
  });

  it('pop-out view renders only the chat', async () => {
    setup('chat');
    await settle();
    expect(screen.getByRole('log')).toBeTruthy();
    expect(screen.queryByRole('tablist')).toBeNull();
  });

  it('switches tabs with the keyboard', async () => {
    setup('compact');
    await settle();
    const chatTab = screen.getByRole('tab', { name: 'Chat' });
    expect(chatTab.getAttribute('aria-selected')).toBe('true');
    await fireEvent.keyDown(chatTab, { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'Activity' }).getAttribute('aria-selected')).toBe('true');
  });

  it('applies session changes pushed by main', async () => {
    const { fake } = setup();
    await settle();
    fake.emit('session:changed', account({ signedIn: false, signedOutReason: 'refresh token rejected' }));
    await settle();
    expect(screen.getByText(/refresh token rejected/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in again' })).toBeTruthy();
  });

  it('shows a snapshot failure with retry', async () => {
    const fake = createFakeApi();
    fake.fail('app:snapshot', 'Internal', 'main is not ready');
    render(App, { props: { api: fake.api, deps: { scheduler: manualFrames().scheduler, clock: manualClock() } } });
    await settle();
    expect(screen.getByText(/Something went wrong inside Greenroom/)).toBeTruthy();
    fake.ok('app:snapshot', snapshot());
    await fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await settle();
    expect(screen.queryByText(/Something went wrong inside Greenroom/)).toBeNull();
  });
});

describe('App windows', () => {
  it('opens a narrow dock on the chat tab with every section reachable', async () => {
    setup('compact');
    await settle();
    const names = screen.getAllByRole('tab').map((t) => t.textContent?.trim().replace(/\s+\d+$/, ''));
    expect(names).toEqual(['Chat', 'Activity', 'Mod log', 'Redemptions', 'Health', 'Settings']);
    expect(screen.getByRole('log')).toBeTruthy();
  });
});

describe('App tabs', () => {
  it('loads a tab once when first shown and does not retry a failure on its own', async () => {
    const { fake } = setup();
    await settle();
    fake.fail('rewards:list', 'Network', 'offline');
    await fireEvent.click(screen.getByRole('tab', { name: 'Rewards' }));
    await settle();
    await settle();
    expect(fake.argsOf('rewards:list')).toHaveLength(1);
    expect(screen.getByRole('alert').textContent).toContain('could not reach Kick');
    fake.ok('rewards:list', []);
    await fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await settle();
    expect(screen.getByText('No rewards yet.')).toBeTruthy();
  });
});

describe('App: what the streamer reads is true', () => {
  it('keeps fetchChannel and ECONNREFUSED behind "Details" until it is opened', async () => {
    const { fake } = setup();
    fake.fail('stream:info', 'Network', 'fetchChannel: could not reach Kick (connect ECONNREFUSED 127.0.0.1:44313)');
    await settle();
    await fireEvent.click(screen.getByRole('tab', { name: 'Stream' }));
    await settle();
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Greenroom could not reach Kick');
    expect(alert.textContent).not.toContain('fetchChannel');
    expect(alert.textContent).not.toContain('ECONNREFUSED');
    const details = within(alert).getByRole('button', { name: 'Details' });
    expect(details.getAttribute('aria-expanded')).toBe('false');
    await fireEvent.click(details);
    expect(alert.textContent).toContain('fetchChannel: could not reach Kick (connect ECONNREFUSED 127.0.0.1:44313)');
    expect(screen.getByRole('button', { name: 'Hide details' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('names the signed-in account and the channel it acts on, and tells a moderator what it can and cannot do', async () => {
    const { fake } = setup();
    fake.ok('stream:info', channel({ slug: 'bobs-channel' }));
    await settle();
    // The words read out around the name are hidden boxes of their own: a test DOM may read a space before the comma.
    const who = screen.getByRole('button', { name: /^Signed in as streamerbob ?, acting on kick\.com\/bobs-channel$/ });
    await fireEvent.click(who);
    const details = screen.getByRole('region', { name: 'Your account and channel' });
    expect(details.textContent).toContain("Moderating someone else's channel?");
    expect(details.textContent).toContain('You cannot: see the streamer');
    expect(details.textContent).toContain('the streamer signs in with their own Kick account');
  });

  it('names the channel after a sign-in that happens once the panel is open', async () => {
    const { fake } = setup('full', { account: account({ signedIn: false, scopes: [] }) });
    await settle();
    const infoCalls = fake.argsOf('stream:info').length;
    expect(screen.queryByRole('button', { name: /Signed in as/ })).toBeNull();
    fake.emit('session:changed', account());
    await settle();
    expect(fake.argsOf('stream:info').length).toBe(infoCalls + 1);
    expect(screen.getByRole('button', { name: /acting on kick\.com\/streamerbob/ })).toBeTruthy();
  });

  it('says "Kick is delaying events by N min" while Kick holds events back, and drops it after', async () => {
    const { fake } = setup();
    await settle();
    expect(screen.queryByText(/Kick is delaying events/)).toBeNull();
    const delayed = health({
      lag: { samples: 40, p50Ms: 700_000, p95Ms: 800_000, state: 'delayed', delayMs: 720_000 },
    });
    fake.emit('health:changed', delayed);
    await settle();
    expect(screen.getByText(/Kick is delaying events by 12 min/)).toBeTruthy();
    fake.emit('health:changed', health());
    await settle();
    expect(screen.queryByText(/Kick is delaying events/)).toBeNull();
  });
});

describe('App: the sign-in link', () => {
  it('is on screen once while the setup guide shows its own sign-in step', async () => {
    const { fake } = setup('full', {
      account: account({ signedIn: false, scopes: [] }),
      settings: settings({ setupGuideDone: false }),
    });
    await settle();
    const guide = screen.getByRole('dialog', { name: 'Set up Greenroom' });
    await fireEvent.click(within(guide).getByRole('button', { name: /^\d\. Check sign-in$/ }));
    const waiting = account({ signedIn: false, scopes: [], signingIn: true, signInUrl: 'http://127.0.0.1:1/x' });
    fake.emit('session:changed', waiting);
    await settle();
    expect(screen.getAllByRole('region', { name: 'Sign-in link' })).toHaveLength(1);
    // Closing the guide leaves the banner, with the link, in its place.
    await fireEvent.click(within(guide).getByRole('button', { name: /Close/ }));
    await settle();
    expect(screen.getAllByRole('region', { name: 'Sign-in link' })).toHaveLength(1);
    expect(screen.getByText(/Waiting for you to approve Greenroom/)).toBeTruthy();
  });
});
