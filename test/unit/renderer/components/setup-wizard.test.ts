/**
 * The setup guide in the whole panel (App): it opens by itself on first run as a dialog named "Set up
 * Greenroom", on the sandbox it starts with the tour, sign-in and a delivery (the sandbox has its own app) and
 * ends with the Kick app, a disabled Next says why beside it, each form is on screen once, the
 * developer-settings link comes with Copy and Open, and saved credentials switch Greenroom in place.
 */
import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import App from '../../../../renderer/src/App.svelte';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { account, health, settings, snapshot } from '../fixtures';

/** A new install on the embedded sandbox: signed out, no tunnel, guide not yet done. */
const FIRST_RUN = {
  mode: 'sandbox' as const,
  account: account({ signedIn: false, accountLabel: null, userId: null, scopes: [] }),
  health: health({ tunnel: { state: 'off' }, webhookUrl: null }),
  settings: settings({ clientId: '', hasClientSecret: false, setupGuideDone: false }),
};

async function setup(first: Parameters<typeof snapshot>[0] = FIRST_RUN) {
  const fake = createFakeApi();
  fake.ok('app:snapshot', snapshot(first));
  const copied: string[] = [];
  const opened: string[] = [];
  const copy = (text: string) => {
    copied.push(text);
    return Promise.resolve(true);
  };
  render(App, {
    props: {
      api: fake.api,
      deps: {
        scheduler: manualFrames().scheduler,
        clock: manualClock(),
        copy,
        openLink: (url: string) => void opened.push(url),
      },
    },
  });
  await settle();
  return { fake, copied, opened };
}

const guide = () => screen.getByRole('dialog', { name: 'Set up Greenroom' });

describe('the setup guide', () => {
  it('opens by itself on first run, as a dialog the rest of the panel sits behind', async () => {
    await setup();
    const dialog = guide();
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(within(dialog).getByText('1. Try the sandbox').closest('li')?.getAttribute('aria-current')).toBe('step');
    expect(screen.getByRole('tablist', { hidden: true }).closest('[inert]')).not.toBeNull();
  });

  it('stays closed once the streamer has finished or closed it', async () => {
    await setup({ ...FIRST_RUN, settings: settings({ setupGuideDone: true }) });
    expect(screen.queryByRole('dialog', { name: 'Set up Greenroom' })).toBeNull();
  });

  it('closing it saves that it was done, and a reload after a restart does not bring it back', async () => {
    const { fake } = await setup();
    fake.ok('settings:update', settings({ clientId: '', hasClientSecret: false, setupGuideDone: true }));
    await fireEvent.click(within(guide()).getByRole('button', { name: 'Close setup' }));
    await settle();
    expect(fake.argsOf('settings:update')).toEqual([[{ setupGuideDone: true }]]);
    expect(screen.queryByRole('dialog', { name: 'Set up Greenroom' })).toBeNull();
    fake.emit('app:restarted', { message: 'Greenroom now runs with the tunnel.' });
    await settle();
    expect(fake.argsOf('app:snapshot')).toHaveLength(2);
    expect(screen.queryByRole('dialog', { name: 'Set up Greenroom' })).toBeNull();
  });

  it('shows the developer settings link with Copy and Open, wherever the panel runs', async () => {
    const { fake, copied, opened } = await setup();
    await fireEvent.click(within(guide()).getByRole('button', { name: '4. Create the app' }));
    const link = within(guide()).getByRole('region', { name: 'Kick developer settings' });
    expect(link.textContent).toContain('https://kick.com/settings/developer');
    await fireEvent.click(within(link).getByRole('button', { name: 'Copy link' }));
    await fireEvent.click(within(link).getByRole('button', { name: 'Open link' }));
    await settle();
    expect(copied).toEqual(['https://kick.com/settings/developer']);
    expect(opened).toEqual(['https://kick.com/settings/developer']);
    // Not main's app:open-external, which in a browser panel would only print the link in a terminal.
    expect(fake.sent).toEqual([]);
  });

  it('on the sandbox, starts with the tour and sign-in, and leaves the Kick app for last', async () => {
    await setup();
    const dialog = guide();
    const names = within(dialog)
      .getAllByRole('listitem')
      .filter((li) => li.parentElement?.classList.contains('steps'))
      .map((li) => li.textContent?.trim());
    expect(names).toEqual([
      '1. Try the sandbox',
      '2. Check sign-in',
      '3. Test delivery',
      '4. Create the app',
      '5. Enter credentials',
    ]);
    expect(within(dialog).getByRole('heading', { name: 'What the sandbox is' })).toBeTruthy();
    expect(within(dialog).getByRole('heading', { name: 'Make events happen' })).toBeTruthy();
    expect(within(dialog).getByRole('heading', { name: 'Go live' })).toBeTruthy();
    // On the sandbox OBS can already stream to the simulated channel; the Kick app is only for real viewers.
    expect(dialog.textContent).toContain('Set up OBS for Kick points OBS at the sandbox');
    expect(dialog.textContent).toContain('For real viewers on Kick, create your Kick app');
    expect(dialog.textContent).toContain('npm run sandbox -- scenario chat-storm');
    expect(dialog.textContent).not.toMatch(/Waiting for the tunnel|Create app/);
    // The tour points at steps as this order has them: sign-in next, the Kick app last.
    expect(dialog.textContent).toContain('Sign in (the next step, or the banner)');
    expect(dialog.textContent).toContain("in the guide's last steps");
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    expect(within(guide()).getByRole('button', { name: 'Check sign-in' })).toBeTruthy();
  });

  it('a disabled Next says why beside it, and the reason goes once the step is done', async () => {
    const { fake } = await setup();
    await fireEvent.click(within(guide()).getByRole('button', { name: '2. Check sign-in' }));
    const next = within(guide()).getByRole<HTMLButtonElement>('button', { name: 'Next' });
    expect(next.disabled).toBe(true);
    const why = document.getElementById(next.getAttribute('aria-describedby') ?? '');
    expect(why?.textContent).toBe('Sign in first: choose Check sign-in and approve in your browser.');
    expect(why?.closest('.nav')).toBe(next.closest('.nav'));
    fake.emit('session:changed', account({ signedIn: true, accountLabel: 'sandbox_streamer' }));
    await settle();
    const after = within(guide()).getByRole<HTMLButtonElement>('button', { name: 'Next' });
    expect(after.disabled).toBe(false);
    expect(after.hasAttribute('aria-describedby')).toBe(false);
    expect(guide().textContent).not.toContain('Sign in first');
  });

  it('on Kick, the credentials step names what Next waits for', async () => {
    await setup({ ...FIRST_RUN, mode: 'kick', sandboxNotice: null });
    await fireEvent.click(within(guide()).getByRole('button', { name: '3. Enter credentials' }));
    const next = within(guide()).getByRole<HTMLButtonElement>('button', { name: 'Next' });
    expect(next.disabled).toBe(true);
    expect(next.getAttribute('aria-describedby')).toBe('wizard-next-why');
    expect(guide().textContent).toContain('Save the Client ID and Client Secret first.');
  });

  it('on Kick, step 2 gives both URLs to paste and says what the webhook URL waits for', async () => {
    await setup({
      ...FIRST_RUN,
      mode: 'kick',
      sandboxNotice: null,
      settings: settings({ setupGuideDone: false }),
      health: health({ tunnel: { state: 'connecting', attempt: 1 }, webhookUrl: null }),
    });
    await fireEvent.click(within(guide()).getByRole('button', { name: 'Next' }));
    const dialog = guide();
    expect(within(dialog).getByText('2. Paste the URLs')).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Copy Redirect URL' })).toBeTruthy();
    expect(dialog.textContent).toContain('Waiting for the tunnel to come up');
  });

  it('shows the credentials form once, even with Settings open behind it', async () => {
    await setup({ ...FIRST_RUN, settings: settings({ clientId: '', hasClientSecret: false, setupGuideDone: true }) });
    await fireEvent.click(screen.getByRole('tab', { name: 'Settings' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Run the setup guide' }));
    await fireEvent.click(screen.getByRole('button', { name: '5. Enter credentials' }));
    expect(screen.getAllByLabelText('Client ID')).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'Save credentials' })).toHaveLength(1);
  });

  it('saving credentials switches Greenroom to Kick in place: the guide carries on and says so', async () => {
    const { fake } = await setup();
    await fireEvent.click(within(guide()).getByRole('button', { name: '5. Enter credentials' }));
    const dialog = guide();
    // The last step on the sandbox: going live is for later, so it offers to finish later.
    expect(within(dialog).getByRole('button', { name: 'Finish later' })).toBeTruthy();
    fake.ok('settings:set-credentials', settings({ clientId: 'abc', hasClientSecret: true, setupGuideDone: false }));
    await fireEvent.input(within(dialog).getByLabelText('Client ID'), { target: { value: 'abc' } });
    await fireEvent.input(within(dialog).getByLabelText(/Client secret/), { target: { value: 'xyz' } });
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Save credentials' }));
    await settle();
    expect(fake.argsOf('settings:set-credentials')).toEqual([[{ clientId: 'abc', clientSecret: 'xyz' }]]);

    // Main rebuilt its app on the new credentials and says so; the panel reloads what it shows.
    fake.ok(
      'app:snapshot',
      snapshot({
        ...FIRST_RUN,
        mode: 'kick',
        sandboxNotice: null,
        settings: settings({ clientId: 'abc', hasClientSecret: true, setupGuideDone: false }),
      }),
    );
    fake.emit('app:restarted', {
      message: "Greenroom now runs with your Kick app's credentials. Sign in with Kick to continue.",
    });
    await settle();
    const after = guide();
    expect(within(after).getByText('Credentials are saved.')).toBeTruthy();
    expect(after.textContent).toContain("Greenroom now runs with your Kick app's credentials.");
    expect(screen.queryByText(/Running on the built-in Kick sandbox/)).toBeNull();
    await fireEvent.click(within(after).getByRole('button', { name: 'Next' }));
    expect(within(guide()).getByRole('button', { name: 'Check sign-in' })).toBeTruthy();
  });

  it('while sign-in waits, shows its link with Copy and Open', async () => {
    const { fake } = await setup();
    await fireEvent.click(within(guide()).getByRole('button', { name: '2. Check sign-in' }));
    fake.emit(
      'session:changed',
      account({
        signedIn: false,
        signingIn: true,
        signInUrl: 'http://127.0.0.1:7411/oauth/authorize?client_id=x',
      }),
    );
    await settle();
    const link = within(guide()).getByRole('region', { name: 'Sign-in link' });
    expect(link.textContent).toContain('/oauth/authorize?client_id=x');
  });

  it('on the sandbox, the delivery step waits for a delivery without any tunnel', async () => {
    const { fake } = await setup();
    await fireEvent.click(within(guide()).getByRole('button', { name: '3. Test delivery' }));
    const dialog = guide();
    expect(dialog.textContent).toContain('The sandbox delivers straight to Greenroom');
    expect(dialog.textContent).not.toMatch(/tunnel/i);
    fake.emit(
      'health:changed',
      health({ tunnel: { state: 'off' }, counters: { accepted: 41, duplicates: 2, rejected: 1 } }),
    );
    await settle();
    expect(within(guide()).getByText(/A delivery arrived/)).toBeTruthy();
  });

  it("counts a chat line's webhook that the live socket brought first: it is a copy, and webhooks arrive", async () => {
    const { fake } = await setup();
    await fireEvent.click(within(guide()).getByRole('button', { name: '3. Test delivery' }));
    fake.emit(
      'health:changed',
      health({ tunnel: { state: 'off' }, counters: { accepted: 40, duplicates: 3, rejected: 1 } }),
    );
    await settle();
    expect(within(guide()).getByText(/A delivery arrived/)).toBeTruthy();
  });
});
