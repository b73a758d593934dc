/**
 * The setup guide while the panel is cut off from the app: what would ask main for something (Check sign-in,
 * Save credentials) is disabled with the line Send gives, a Next waiting on such a step says so rather than
 * pointing at a disabled button, and Back, Next and Close still move through the guide. Back, it all works.
 */
import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import App from '../../../../renderer/src/App.svelte';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { account, health, settings, snapshot } from '../fixtures';
import { fakeLink } from './app-not-running-fixtures';

const NOT_RUNNING = 'Greenroom is not running — reconnecting.';

/** A new install on Kick: signed out, no credentials yet, guide not yet done. */
const FIRST_RUN = {
  mode: 'kick' as const,
  account: account({ signedIn: false, accountLabel: null, userId: null, scopes: [] }),
  health: health({ tunnel: { state: 'off' }, webhookUrl: null }),
  settings: settings({ clientId: '', hasClientSecret: false, setupGuideDone: false }),
};

async function setup() {
  const fake = createFakeApi();
  fake.ok('app:snapshot', snapshot(FIRST_RUN));
  const clock = manualClock();
  const link = fakeLink(clock);
  render(App, {
    props: { api: fake.api, deps: { scheduler: manualFrames().scheduler, clock, connection: link } },
  });
  await settle();
  const drop = async () => {
    link.set('reconnecting');
    await settle();
  };
  const back = async () => {
    link.set('open');
    await settle();
    await settle();
  };
  return { fake, drop, back };
}

const guide = () => screen.getByRole('dialog', { name: 'Set up Greenroom' });
const button = (name: string | RegExp) => within(guide()).getByRole<HTMLButtonElement>('button', { name });
const goTo = (step: string) => fireEvent.click(button(step));

describe('the setup guide cut off from the app', () => {
  it('disables Check sign-in with the not-running line, and Next says why instead of pointing at it', async () => {
    const { fake, drop, back } = await setup();
    await goTo('4. Check sign-in');
    expect(button('Check sign-in').disabled).toBe(false);
    await drop();
    expect(button('Check sign-in').disabled).toBe(true);
    expect(guide().textContent).toContain(NOT_RUNNING);
    const next = button('Next');
    expect(next.disabled).toBe(true);
    expect(document.getElementById(next.getAttribute('aria-describedby')!)?.textContent).toBe(NOT_RUNNING);
    expect(guide().textContent).not.toContain('choose Check sign-in');
    await fireEvent.click(button('Check sign-in'));
    expect(fake.argsOf('auth:start-login')).toEqual([]);
    // Moving through the guide asks main nothing, and stays.
    expect(button('Back').disabled).toBe(false);

    await back();
    expect(guide().textContent).not.toContain(NOT_RUNNING);
    expect(button('Check sign-in').disabled).toBe(false);
    expect(guide().textContent).toContain('choose Check sign-in');
  });

  it('disables Save credentials while cut off, keeping what was typed, and saves it once back', async () => {
    const { fake, drop, back } = await setup();
    await goTo('3. Enter credentials');
    await fireEvent.input(within(guide()).getByLabelText('Client ID'), { target: { value: 'app-id' } });
    await fireEvent.input(within(guide()).getByLabelText(/Client secret/), { target: { value: 's3cret' } });
    await drop();
    expect(button('Save credentials').disabled).toBe(true);
    expect(guide().textContent).toContain(NOT_RUNNING);
    await fireEvent.click(button('Save credentials'));
    expect(fake.argsOf('settings:set-credentials')).toEqual([]);
    // The guide still moves on and closes.
    await fireEvent.click(button('Back'));
    expect(within(guide()).getByText('2. Paste the URLs').closest('li')?.getAttribute('aria-current')).toBe('step');
    await fireEvent.click(button('Next'));

    await back();
    expect(within(guide()).getByLabelText<HTMLInputElement>('Client ID').value).toBe('app-id');
    await fireEvent.click(button('Save credentials'));
    await settle();
    expect(fake.argsOf('settings:set-credentials')).toEqual([[{ clientId: 'app-id', clientSecret: 's3cret' }]]);
  });
});
