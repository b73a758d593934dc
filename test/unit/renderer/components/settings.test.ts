import '@testing-library/svelte/vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, onTestFinished } from 'vitest';
import SettingsPanel from '../../../../renderer/src/components/SettingsPanel.svelte';
import { AppState } from '../../../../renderer/src/lib/state/app.svelte';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { account, health, settings, snapshot } from '../fixtures';

async function setup(over: Parameters<typeof snapshot>[0] = {}) {
  const fake = createFakeApi();
  fake.ok('app:snapshot', snapshot(over));
  const copied: string[] = [];
  const copy = (text: string) => {
    copied.push(text);
    return Promise.resolve(true);
  };
  const app = new AppState(fake.api, { scheduler: manualFrames().scheduler, clock: manualClock(), copy });
  const disconnect = app.connect();
  await app.start();
  onTestFinished(disconnect);
  render(SettingsPanel, { props: { app, copy } });
  return { fake, app, copied };
}

describe('SettingsPanel', () => {
  it('copies the OBS dock URL and explains the steps', async () => {
    const { copied } = await setup();
    await fireEvent.click(screen.getByRole('button', { name: 'Copy Dock URL' }));
    await settle();
    expect(copied).toEqual(['http://127.0.0.1:4470/?token=abc']);
    expect(screen.getByText(/Custom Browser Docks/)).toBeTruthy();
  });

  it('saves credentials without ever showing the secret', async () => {
    const { fake } = await setup();
    fake.ok('settings:set-credentials', settings({ clientId: 'new-id' }));
    await fireEvent.input(screen.getByLabelText('Client ID'), { target: { value: 'new-id' } });
    await fireEvent.input(screen.getByLabelText(/Client secret/), { target: { value: 's3cret' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save credentials' }));
    await settle();
    expect(fake.argsOf('settings:set-credentials')).toEqual([[{ clientId: 'new-id', clientSecret: 's3cret' }]]);
    expect(screen.getByLabelText<HTMLInputElement>(/Client secret/).value).toBe('');
    expect(screen.getByText('Credentials saved.')).toBeTruthy();
  });

  it('saves notifications and scrollback, showing errors from main', async () => {
    const { fake } = await setup();
    fake.ok(
      'settings:update',
      settings({ notifications: { follows: true, subs: true, kicks: true, redemptions: true } }),
    );
    await fireEvent.click(screen.getByLabelText('Redemptions'));
    await settle();
    expect(fake.argsOf('settings:update')[0]).toEqual([{ notifications: { redemptions: true } }]);
    fake.fail('settings:update', 'InvalidArgument', 'chatScrollback: must be at most 10000');
    await fireEvent.input(screen.getByLabelText(/Scrollback/), { target: { value: '5000' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Save chat settings' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('chatScrollback: must be at most 10000');
  });

  it('walks the first-run wizard: URLs to paste, credentials, sign-in check, test delivery', async () => {
    const { fake, app, copied } = await setup({
      mode: 'kick',
      sandboxNotice: null,
      account: account({ signedIn: false, scopes: [] }),
      settings: settings({ clientId: '', hasClientSecret: false }),
    });
    expect(app.wizard.open).toBe(true);
    await fireEvent.click(screen.getByRole('button', { name: 'Open Kick developer settings' }));
    expect(fake.sent).toEqual([
      { channel: 'app:open-external', args: [{ url: 'https://kick.com/settings/developer' }] },
    ]);
    await fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Copy Redirect URL' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Copy Webhook URL' }));
    await settle();
    expect(copied).toEqual(['http://127.0.0.1:53682/callback', 'https://gr-abc.loca.lt/kick/webhook']);
    await fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    const next = screen.getByRole<HTMLButtonElement>('button', { name: 'Next' });
    expect(next.disabled).toBe(true);
    fake.ok('settings:set-credentials', settings({ clientId: 'abc', hasClientSecret: true }));
    const [idInput] = screen.getAllByLabelText('Client ID');
    const [secretInput] = screen.getAllByLabelText(/Client secret/);
    await fireEvent.input(idInput!, { target: { value: 'abc' } });
    await fireEvent.input(secretInput!, { target: { value: 'xyz' } });
    await fireEvent.click(screen.getAllByRole('button', { name: 'Save credentials' })[0]!);
    await settle();
    expect(next.disabled).toBe(false);
    await fireEvent.click(next);
    fake.ok('auth:start-login', account());
    await fireEvent.click(screen.getByRole('button', { name: 'Check sign-in' }));
    await settle();
    expect(screen.getByText(/Sign-in works/)).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Waiting for a test delivery…')).toBeTruthy();
    fake.emit('health:changed', health({ counters: { accepted: 41, duplicates: 2, rejected: 1 } }));
    await settle();
    expect(screen.getByText(/A delivery arrived/)).toBeTruthy();
  });
});
