import '@testing-library/svelte/vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it, onTestFinished } from 'vitest';
import SettingsPanel from '../../../../renderer/src/components/SettingsPanel.svelte';
import { AppState } from '../../../../renderer/src/lib/state/app.svelte';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { settings, snapshot } from '../fixtures';

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

  it("shows the embedded sandbox's admin URL and where its token is kept, only in sandbox mode", async () => {
    const { copied } = await setup({
      settings: settings({ sandbox: { adminUrl: 'http://127.0.0.1:4471', tokenFile: '/tmp/greenroom/sandbox.json' } }),
    });
    await fireEvent.click(screen.getByRole('button', { name: 'Copy Sandbox admin URL' }));
    await settle();
    expect(copied).toEqual(['http://127.0.0.1:4471']);
    expect(screen.getByText('/tmp/greenroom/sandbox.json')).toBeTruthy();
  });

  it('shows no sandbox admin URL on Kick', async () => {
    await setup({ mode: 'kick', settings: settings({ sandbox: null }) });
    expect(screen.queryByRole('button', { name: 'Copy Sandbox admin URL' })).toBeNull();
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

  it('saves the events to receive, and refuses an empty choice', async () => {
    const { fake } = await setup({ settings: settings({ wantedEvents: ['chat.message.sent', 'channel.followed'] }) });
    const events = within(screen.getByRole('group', { name: 'Events to receive' }));
    expect(events.getByLabelText<HTMLInputElement>('Chat messages').checked).toBe(true);
    expect(events.getByLabelText<HTMLInputElement>('KICKs gifted').checked).toBe(false);
    fake.ok('settings:update', settings({ wantedEvents: ['chat.message.sent', 'kicks.gifted'] }));
    await fireEvent.click(events.getByLabelText('KICKs gifted'));
    await fireEvent.click(events.getByLabelText('New followers'));
    await fireEvent.click(screen.getByRole('button', { name: 'Save events' }));
    await settle();
    expect(fake.argsOf('settings:update')).toEqual([[{ wantedEvents: ['chat.message.sent', 'kicks.gifted'] }]]);
    expect(screen.getByText('Events saved.')).toBeTruthy();
    await fireEvent.click(events.getByLabelText('Chat messages'));
    await fireEvent.click(events.getByLabelText('KICKs gifted'));
    expect(screen.getByText(/choose at least one/)).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Save events' }).disabled).toBe(true);
  });

  it('says what main applied after it rebuilt the app for saved settings', async () => {
    const { fake } = await setup();
    fake.emit('app:restarted', { message: 'Greenroom now runs with the tunnel.' });
    await settle();
    expect(screen.getByText('Greenroom now runs with the tunnel.')).toBeTruthy();
    expect(fake.argsOf('app:snapshot')).toHaveLength(2);
  });

  it('lets the rebuild line go once Settings is left, so it never greets a later visit', async () => {
    const { fake, app } = await setup();
    fake.emit('app:restarted', { message: 'Greenroom now runs with the redirect URL.' });
    await settle();
    expect(screen.getByText('Greenroom now runs with the redirect URL.')).toBeTruthy();
    cleanup();
    render(SettingsPanel, { props: { app, copy: () => Promise.resolve(true) } });
    expect(screen.queryByText('Greenroom now runs with the redirect URL.')).toBeNull();
  });

  it('offers Restart now when saved settings are not in effect, with the technical part behind Details', async () => {
    const notApplied = {
      reason: 'Greenroom could not switch to the tunnel, so it is still running with the previous settings.',
      details: 'listen EADDRINUSE: address already in use 127.0.0.1:7532',
    };
    const { fake } = await setup({ settings: settings({ tunnel: 'off', notApplied }) });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('could not switch to the tunnel');
    expect(alert.textContent).not.toContain('EADDRINUSE');
    await fireEvent.click(screen.getByRole('button', { name: 'Details' }));
    expect(alert.textContent).toContain('EADDRINUSE');
    const restart = fake.hold('app:restart');
    await fireEvent.click(screen.getByRole('button', { name: 'Restart now' }));
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Restarting…' }).disabled).toBe(true);
    restart.release({ ok: true, value: null });
    fake.ok('app:snapshot', snapshot({ settings: settings({ tunnel: 'off' }) }));
    fake.emit('app:restarted', { message: 'Greenroom now runs with the tunnel.' });
    await settle();
    expect(fake.argsOf('app:restart')).toEqual([[]]);
    expect(screen.queryByRole('button', { name: 'Restart now' })).toBeNull();
    expect(screen.getByText('Greenroom now runs with the tunnel.')).toBeTruthy();
  });

  it('says on the sandbox that the tunnel applies once Greenroom talks to Kick', async () => {
    await setup({ mode: 'sandbox' });
    expect(screen.getByText(/The sandbox needs no tunnel/)).toBeTruthy();
  });
});
