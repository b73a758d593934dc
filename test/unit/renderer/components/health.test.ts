import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { KICK_EVENT_TYPES, KICK_SCOPES } from '../../../../shared/kick/scopes';
import HealthPanel from '../../../../renderer/src/components/HealthPanel.svelte';
import { HealthState } from '../../../../renderer/src/lib/state/health.svelte';
import { SessionState } from '../../../../renderer/src/lib/state/session.svelte';
import { createFakeApi, settle } from '../fake-api';
import { account, health, snapshot } from '../fixtures';

const NOW = 1_700_000_000_000;

async function setup(h = health(), scopes = ['user:read', 'chat:write'], signedIn = true) {
  const fake = createFakeApi();
  const now = NOW;
  const who = signedIn
    ? account({ scopes, expiresAtMs: now + 2 * 3_600_000 })
    : account({ signedIn: false, userId: null, scopes: [] });
  fake.ok('app:snapshot', snapshot({ account: who }));
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
  it('lists what Greenroom may do on Kick, offering to sign in again for what is missing', async () => {
    const { fake } = await setup();
    expect(screen.getByText('Send chat messages').closest('li')!.textContent).not.toContain('Sign in again');
    const add = screen.getByText('Ban and time out viewers').closest('li')!.querySelector('button')!;
    expect(add.textContent).toBe('Sign in again to allow');
    fake.ok('auth:start-login', account({ scopes: ['user:read', 'chat:write', 'moderation:ban'] }));
    await fireEvent.click(add);
    await settle();
    expect(fake.argsOf('auth:start-login')).toEqual([[{ scopes: ['user:read', 'chat:write', 'moderation:ban'] }]]);
  });

  it('says when the sign-in renews, whether events reach Greenroom, which arrive, how late, and their fate', async () => {
    await setup();
    expect(screen.getByText(/renews the sign-in by itself, next in 2 h/)).toBeTruthy();
    expect(screen.getByText('Yes: Kick can send events to Greenroom')).toBeTruthy();
    const events = screen.getByRole('list', { name: 'Events arriving' });
    expect(within(events).getByText(/^Chat messages/).textContent).toBe(
      'Chat messages: Subscribed: none has arrived yet',
    );
    expect(within(events).getByText(/^KICKs gifted/).textContent).toContain('Kick refused to send these: Kick said no');
    expect(
      screen.getByText(/usually arrive 0.2 s after they happen, at worst 0.9 s \(the last 12 events\)/),
    ).toBeTruthy();
    expect(screen.getByTestId('deliveries').textContent).toBe(
      '40 events received · 2 events arrived twice, shown once · 1 delivery refused as not from Kick or damaged',
    );
  });

  it("keeps Kick's internal names behind Details, and has them there", async () => {
    await setup(health({ secretStore: { backend: 'basic_text', degraded: true } }));
    const section = screen.getByRole('heading', { name: 'Connection health' }).closest('section')!;
    const visible = section.cloneNode(true) as HTMLElement;
    visible.querySelectorAll('details').forEach((d) => d.remove());
    const words = visible.textContent;
    const internal = [...KICK_SCOPES, ...KICK_EVENT_TYPES, 'p50', 'p95', 'samples', 'basic_text', 'scope', 'token'];
    const jargon = ['accepted', 'duplicates', 'rejected', 'receiver', 'subscription', 'degraded', 'Secret storage'];
    expect([...internal, ...jargon].filter((word) => words.includes(word))).toEqual([]);
    const details = [...section.querySelectorAll('details')].map((d) => d.textContent.replace(/\s+/g, ' ')).join(' ');
    expect(details).toContain('moderation:ban');
    expect(details).toContain('kicks.gifted');
    expect(details).toContain('p50 180 ms · p95 900 ms');
    expect(details).toContain('40 accepted · 2 duplicates · 1 rejected');
    expect(details).toContain('basic_text');
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
        mode: 'kick',
        tunnel: { state: 'down', reason: 'connection refused', retryInMs: 4000 },
        webhookUrl: null,
      }),
    );
    expect(screen.getByRole('alert').textContent).toContain(
      'saved on this computer without the protection of its keychain',
    );
    expect(screen.getByText(/the tunnel is down \(connection refused\); trying again in 4 s/)).toBeTruthy();
    expect(screen.getByText('Available once Kick can reach Greenroom.')).toBeTruthy();
  });

  it('refreshes from main', async () => {
    const { fake } = await setup();
    fake.ok('health:snapshot', health({ counters: { accepted: 99, duplicates: 0, rejected: 0 } }));
    await fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await settle();
    expect(screen.getByTestId('deliveries').textContent).toMatch(/^99 events received/);
  });

  it('shows the webhook port and the exact local address to route to, with Copy', async () => {
    const { copied } = await setup(health({ receiver: { port: 7532, url: 'http://127.0.0.1:7532/kick/webhook' } }));
    const card = screen.getByRole('button', { name: 'Copy Local webhook address' }).closest('details')!;
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

  it('says "Arriving" only once an event of the type arrived, with when; until then "Subscribed"', async () => {
    await setup(
      health({
        subscriptions: [
          { type: 'chat.message.sent', state: 'active', lastArrivalMs: NOW - 3 * 60_000 },
          { type: 'channel.followed', state: 'active', lastArrivalMs: null },
          { type: 'kicks.gifted', state: 'active' },
        ],
      }),
    );
    const lines = within(screen.getByRole('list', { name: 'Events arriving' }))
      .getAllByRole('listitem')
      .map((li) => [li.textContent.replace(/\s+/g, ' ').trim(), li.className.split(' ')[0]]);
    expect(lines).toEqual([
      ['Chat messages: Arriving (last one 3 min ago)', 'arriving'],
      ['New followers: Subscribed: none has arrived yet', 'quiet'],
      ['KICKs gifted: Subscribed: none has arrived yet', 'quiet'],
    ]);
  });

  it('signed out, says no type is subscribed, whatever Kick listed before (after "Reset the sandbox")', async () => {
    await setup(
      health({
        subscriptions: [
          { type: 'chat.message.sent', state: 'active', lastArrivalMs: NOW - 60_000 },
          { type: 'channel.followed', state: 'active' },
        ],
      }),
      [],
      false,
    );
    const lines = within(screen.getByRole('list', { name: 'Events arriving' }))
      .getAllByRole('listitem')
      .map((li) => li.textContent.replace(/\s+/g, ' ').trim());
    expect(lines).toEqual([
      'Chat messages: Not subscribed: you are signed out',
      'New followers: Not subscribed: you are signed out',
    ]);
    expect(screen.queryByText(/Arriving/)).toBeNull();
  });

  it('in sandbox mode says nothing about the keychain, even when the store lacks its protection', async () => {
    await setup(health({ mode: 'sandbox', secretStore: { backend: 'basic_text', degraded: true } }), [], false);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/keychain/)).toBeNull();
  });
});
