/**
 * Settings follows the rule every held error follows: a save the app never got clears on the reconnect, one
 * refused for want of a sign-in clears on the sign-in, and a refusal at a field (the redirect URL on the
 * panel's own port) stays beside its field through both, until the field is edited. Reading the settings
 * again keeps what the streamer typed, and lets a draft they never touched follow what was saved elsewhere.
 */
import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import App from '../../../../renderer/src/App.svelte';
import { fieldDetails } from '../../../../shared/field-refusal';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { account, settings, snapshot } from '../fixtures';
import { fakeLink } from './app-not-running-fixtures';

const NOT_RUNNING = /Not saved: the chat length\. Greenroom is not running/;
const SIGNED_OUT = /Not saved: the chat length\. You are signed out/;
const CLASH = 'Port 7531 is the one Greenroom uses for its panel and OBS links. Pick another port, such as 3000.';

async function setup() {
  const fake = createFakeApi();
  const clock = manualClock();
  const link = fakeLink(clock);
  render(App, {
    props: { api: fake.api, deps: { scheduler: manualFrames().scheduler, clock, connection: link } },
  });
  await settle();
  await fireEvent.click(screen.getByRole('tab', { name: /^Settings/ }));
  await settle();
  const reconnect = async () => {
    link.set('reconnecting');
    await settle();
    link.set('open');
    await settle();
    await settle();
  };
  const signInAgain = async () => {
    fake.emit('session:changed', account({ signedIn: false, scopes: [] }));
    await settle();
    fake.emit('session:changed', account());
    await settle();
    await settle();
  };
  return { fake, reconnect, signInAgain };
}

const panel = () => screen.getByRole('tabpanel');
const text = () => panel().textContent ?? '';

async function saveScrollback(value: number): Promise<void> {
  await fireEvent.input(within(panel()).getByLabelText(/Scrollback/), { target: { value: String(value) } });
  await fireEvent.click(within(panel()).getByRole('button', { name: 'Save chat settings' }));
  await settle();
}

describe('Settings errors clear when their cause is gone', () => {
  it('a save the app never got clears on the reconnect, and stays through a sign-in', async () => {
    const { fake, reconnect, signInAgain } = await setup();
    fake.fail('settings:update', 'AppUnreachable', 'settings:update: socket closed');
    await saveScrollback(500);
    expect(text()).toMatch(NOT_RUNNING);
    await signInAgain();
    expect(text()).toMatch(NOT_RUNNING);
    await reconnect();
    expect(text()).not.toMatch(NOT_RUNNING);
    // What the streamer typed is still there to save again.
    expect(within(panel()).getByLabelText<HTMLInputElement>(/Scrollback/).value).toBe('500');
  });

  it('a save refused for want of a sign-in clears on the sign-in, not on the reconnect', async () => {
    const { fake, reconnect, signInAgain } = await setup();
    fake.fail('settings:update', 'NotSignedIn', 'settings:update: not signed in');
    await saveScrollback(600);
    expect(text()).toMatch(SIGNED_OUT);
    await reconnect();
    expect(text()).toMatch(SIGNED_OUT);
    await signInAgain();
    expect(text()).not.toMatch(SIGNED_OUT);
  });

  it('a draft the streamer never touched follows what another panel saved, once read again', async () => {
    const { fake, reconnect } = await setup();
    const saved = settings({ chatScrollback: 2000 });
    fake.emit('settings:changed', saved);
    await settle();
    fake.ok('app:snapshot', snapshot({ settings: saved }));
    await reconnect();
    expect(within(panel()).getByLabelText<HTMLInputElement>(/Scrollback/).value).toBe('2000');
  });

  it('a redirect refused at its field stays beside it through a reconnect and a sign-in', async () => {
    const { fake, reconnect, signInAgain } = await setup();
    fake.handle('settings:update', () => ({
      ok: false,
      error: {
        code: 'InvalidArgument',
        message: `redirectUri: ${CLASH}`,
        details: fieldDetails([{ field: 'redirectUri', reason: CLASH }]),
      },
    }));
    const redirect = within(panel()).getByLabelText<HTMLInputElement>(/Redirect/);
    await fireEvent.input(redirect, { target: { value: 'http://127.0.0.1:7531/callback' } });
    await fireEvent.click(within(panel()).getByRole('button', { name: /Save connection/ }));
    await settle();
    expect(text()).toContain(CLASH);
    expect(text()).toMatch(/Not saved: the redirect URL and tunnel/);
    await reconnect();
    await signInAgain();
    expect(text()).toContain(CLASH);
    expect(text()).toMatch(/Not saved: the redirect URL and tunnel/);
    await fireEvent.input(within(panel()).getByLabelText(/Redirect/), {
      target: { value: 'http://127.0.0.1:3000/callback' },
    });
    expect(text()).not.toContain(CLASH);
  });
});
