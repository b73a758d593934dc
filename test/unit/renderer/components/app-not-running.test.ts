/**
 * The panel cut off from the app (the dock's WebSocket dropped because Greenroom stopped): one line saying
 * so, every write action disabled, nothing blamed on Kick; and once the link is back, no error from before
 * is left and the header reads main's state again. Signed out, the header shows no channel figures.
 */
import '@testing-library/svelte/vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import App from '../../../../renderer/src/App.svelte';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { account, channel, snapshot } from '../fixtures';
import { fakeLink } from './app-not-running-fixtures';

function setup(view: 'full' | 'chat' = 'chat') {
  const fake = createFakeApi();
  const clock = manualClock(new Date(2026, 10, 27, 8, 12, 0).getTime());
  const link = fakeLink(clock);
  const deps = { scheduler: manualFrames().scheduler, clock, connection: link };
  render(App, { props: { api: fake.api, view, deps } });
  const send = () => screen.getByRole<HTMLButtonElement>('button', { name: /^Send/ });
  const input = () => screen.getByLabelText<HTMLInputElement>('Chat message');
  const type = (text: string) => fireEvent.input(input(), { target: { value: text } });
  return { fake, clock, link, send, input, type };
}

const blamesKick = () => /Kick (did not|had|is limiting)|could not reach Kick/.test(document.body.textContent ?? '');

describe('App while Greenroom is not running', () => {
  it('disables Send with one line that says so, with when it last tried, and blames nothing on Kick', async () => {
    const { link, send, type, clock } = setup();
    await settle();
    await type('are you there?');
    expect(send().disabled).toBe(false);

    link.set('reconnecting');
    clock.advance(5_000);
    link.attempt();
    await settle();
    const banner = screen.getByRole('alert', { name: 'Connection to Greenroom' });
    expect(banner.textContent).toContain('Greenroom is not running — reconnecting');
    expect(banner.textContent).toContain('Last tried at 08:12:05');
    expect(send().disabled).toBe(true);
    expect(screen.getAllByText('Greenroom is not running — reconnecting.')).toHaveLength(1);
    expect(blamesKick()).toBe(false);
    await fireEvent.click(screen.getByRole('button', { name: 'Try now' }));
    expect(link.retries).toBe(1);
  });

  it('ends a send the drop cut short in the app’s name, keeps the draft, and clears it when the link is back', async () => {
    const { fake, link, send, type, input } = setup();
    await settle();
    const held = fake.hold('chat:send');
    await type('hello chat');
    await fireEvent.click(send());
    link.set('reconnecting');
    held.release({ ok: false, error: { code: 'AppUnreachable', message: 'the connection to Greenroom was lost' } });
    await settle();
    expect(screen.getByText(/Not sent: Greenroom stopped/)).toBeTruthy();
    expect(input().value).toBe('hello chat');
    expect(blamesKick()).toBe(false);

    link.set('open');
    await settle();
    expect(screen.queryByText(/Not sent/)).toBeNull();
    expect(screen.queryByRole('alert', { name: 'Connection to Greenroom' })).toBeNull();
    expect(send().disabled).toBe(false);
  });

  it('clears a send error on the reconnect, on a new sign-in, and on the next send that works', async () => {
    const { fake, link, send, type } = setup();
    await settle();
    const fail = async () => {
      fake.fail('chat:send', 'Timeout', 'sendChat: Kick did not answer in time');
      await type('one more');
      await fireEvent.click(send());
      await settle();
      expect(screen.getByText(/Kick did not answer in time/)).toBeTruthy();
    };
    await fail();
    link.set('reconnecting');
    link.set('open');
    await settle();
    expect(screen.queryByText(/did not answer/)).toBeNull();

    await fail();
    fake.emit('session:changed', account({ signedIn: false }));
    fake.emit('session:changed', account());
    await settle();
    expect(screen.queryByText(/did not answer/)).toBeNull();

    await fail();
    fake.ok('chat:send', { is_sent: true, message_id: 'ok-1' });
    await type('this one works');
    await fireEvent.click(send());
    await settle();
    expect(screen.queryByText(/did not answer/)).toBeNull();
  });
});

describe('App header', () => {
  // The header's live indicator: a plain line, not a live region, so viewer counts are not read out each change.
  const liveStatus = () => document.querySelector('header .live')?.textContent ?? null;

  it('shows the live figures only signed in and connected; cut off they are "as of" the drop', async () => {
    const { fake, link, clock } = setup('full');
    fake.ok('stream:info', channel({ stream: { ...channel().stream, is_live: true, viewer_count: 1445 } }));
    await settle();
    await settle();
    expect(liveStatus()).toBe('● LIVE · 1,445');

    clock.advance(60_000);
    link.set('reconnecting');
    await settle();
    expect(liveStatus()).toBe('LIVE · 1,445 as of 08:13');
    // Every write action in the views is off while cut off.
    expect(screen.getByRole('tabpanel').closest('fieldset')?.disabled).toBe(true);

    fake.ok('app:snapshot', snapshot({ account: account({ signedIn: false, scopes: [] }) }));
    link.set('open');
    await settle();
    await settle();
    expect(fake.argsOf('app:snapshot')).toHaveLength(2);
    // Signed out after the restart: no figures at all, never a stale "LIVE".
    expect(liveStatus()).toBeNull();
    expect(screen.getByRole('tabpanel').closest('fieldset')?.disabled).toBe(false);
  });

  it('hides the figures when main pushes the channel as signed out, or the streamer signs out', async () => {
    const { fake } = setup('full');
    await settle();
    await settle();
    expect(liveStatus()).toBe('● LIVE · 321');
    fake.emit('session:changed', account({ signedIn: false, scopes: [] }));
    await settle();
    expect(liveStatus()).toBeNull();
    fake.emit('session:changed', account());
    await settle();
    await settle();
    expect(liveStatus()).toBe('● LIVE · 321');
    fake.emit('stream:changed', { ...channel(), signedIn: false, asOfMs: 1 });
    await settle();
    expect(liveStatus()).toBeNull();
  });

  it('reads the channel again after the reconnect, so the header is what main says now', async () => {
    const { fake, link } = setup('full');
    await settle();
    await settle();
    expect(liveStatus()).toBe('● LIVE · 321');
    link.set('reconnecting');
    fake.ok('stream:info', channel({ stream: { ...channel().stream, is_live: false } }));
    link.set('open');
    await settle();
    await settle();
    expect(liveStatus()).toBe('Offline');
  });
});
