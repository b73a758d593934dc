/**
 * Signed out is not a missing permission: a signed-out panel says "Sign in to …" in every view with controls
 * that need Kick, never a scope; signed in without a permission, the view names what to allow in the
 * streamer's words, with Kick's name for it behind Details and a one-click sign-in that asks for it.
 */
import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import App from '../../../../renderer/src/App.svelte';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { account, adStatus, ALL_SCOPES, snapshot } from '../fixtures';

const SCOPE_NAME = /[a-z_]+:[a-z_:]+/;

async function setup(scopes: string[] | null) {
  const fake = createFakeApi();
  const signedIn = scopes !== null;
  fake.ok('app:snapshot', snapshot({ account: account({ signedIn, scopes: scopes ?? [] }) }));
  fake.ok('ads:status', adStatus({ opted_in: false }));
  render(App, { props: { api: fake.api, deps: { scheduler: manualFrames().scheduler, clock: manualClock() } } });
  await settle();
  const open = async (label: string) => {
    await fireEvent.click(screen.getByRole('tab', { name: new RegExp(`^${label}\\b`) }));
    await settle();
    return screen.getByRole('tabpanel');
  };
  return { fake, open };
}

const button = (panel: HTMLElement, name: string | RegExp) =>
  within(panel).getByRole<HTMLButtonElement>('button', { name });

describe('views while signed out', () => {
  it('say "Sign in to …", name no permission, and keep Enroll, Run and Save off', async () => {
    const { open } = await setup(null);

    const rewards = await open('Rewards');
    expect(rewards.textContent).toContain('Sign in to manage rewards.');
    expect(within(rewards).queryByRole('button', { name: 'New reward' })).toBeNull();
    expect(rewards.textContent).not.toMatch(SCOPE_NAME);
    expect(rewards.textContent).not.toMatch(/permission|allow/i);

    const ads = await open('Ads');
    expect(ads.textContent).toContain('Sign in to manage ads.');
    expect(button(ads, 'Enroll').disabled).toBe(true);
    expect(button(ads, 'Run ad break').disabled).toBe(true);
    expect(ads.textContent).not.toMatch(SCOPE_NAME);
    expect(ads.textContent).not.toMatch(/sign in again/i);

    const stream = await open('Stream');
    expect(stream.textContent).toContain('Sign in to change stream info.');
    expect(button(stream, 'Save').disabled).toBe(true);
    expect(stream.textContent).not.toMatch(SCOPE_NAME);

    const queue = await open('Redemptions');
    expect(queue.textContent).toContain('Sign in to accept or reject redemptions.');
    expect(queue.textContent).not.toMatch(SCOPE_NAME);
  });
});

describe('views signed in without a permission', () => {
  it('name what to allow in plain words, Kick’s name behind Details, and ask for it in one click', async () => {
    const { fake, open } = await setup(ALL_SCOPES.filter((s) => s !== 'channel:rewards:write' && s !== 'ads:write'));

    const rewards = await open('Rewards');
    expect(rewards.textContent).toContain(
      'To manage rewards, sign in again and allow Greenroom to “create rewards and accept or reject redemptions”.',
    );
    expect(rewards.textContent).not.toMatch(SCOPE_NAME);
    await fireEvent.click(button(rewards, 'Details'));
    expect(rewards.textContent).toContain('Kick permission: channel:rewards:write');
    await fireEvent.click(button(rewards, 'Sign in again'));
    await settle();
    expect(fake.argsOf('auth:start-login').at(-1)).toEqual([
      { scopes: expect.arrayContaining(['channel:rewards:write']) },
    ]);

    const ads = await open('Ads');
    expect(ads.textContent).toContain('To manage ads, sign in again and allow Greenroom to “run ad breaks”.');
    expect(button(ads, 'Enroll').disabled).toBe(true);
    expect(ads.textContent).not.toMatch(SCOPE_NAME);

    // What is granted stays usable, with no note; the stream key, not granted, says so in plain words.
    const stream = await open('Stream');
    expect(stream.textContent).not.toContain('change stream info');
    expect(within(stream).getByLabelText<HTMLInputElement>('Title').closest('fieldset')!.disabled).toBe(false);
    expect(stream.textContent).toContain('allow Greenroom to “show your stream key”.');
    expect(stream.textContent).not.toMatch(SCOPE_NAME);
  });
});
