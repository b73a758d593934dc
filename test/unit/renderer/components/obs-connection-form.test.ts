import '@testing-library/svelte/vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { ObsConnectionSettingsView } from '../../../../shared/obs';
import ObsConnectionForm from '../../../../renderer/src/components/ObsConnectionForm.svelte';
import { ObsState } from '../../../../renderer/src/lib/state/obs.svelte';
import { createFakeApi, manualClock, settle } from '../fake-api';
import { OBS_NOW, obsView } from '../obs-fixtures';

const SAVED: ObsConnectionSettingsView = { enabled: true, host: '127.0.0.1', port: 4455, hasPassword: true };

function setup(saved: ObsConnectionSettingsView = SAVED) {
  const fake = createFakeApi();
  const obs = new ObsState(fake.api, manualClock(OBS_NOW));
  obs.apply(obsView({ connection: { kind: 'wrong-password' } }));
  fake.handle('obs:save-connection', () => ({
    ok: true,
    value: obsView({ connection: { kind: 'connecting', attempt: 1 } }),
  }));
  render(ObsConnectionForm, { props: { obs, saved } });
  const field = (name: string) => screen.getByLabelText<HTMLInputElement>(new RegExp(`^${name}`));
  const save = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Save OBS connection' });
  const errorOf = (input: HTMLInputElement) =>
    (input.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id))
      .find((el) => el?.classList.contains('field-error'))?.textContent ?? null;
  return { fake, obs, field, save, errorOf };
}

describe('ObsConnectionForm', () => {
  it('never shows the saved password: says one is saved; an empty field keeps it', async () => {
    const { fake, field, save } = setup();
    expect(field('Password').value).toBe('');
    expect(screen.getByText('A password is saved; leave empty to keep it.')).toBeTruthy();
    await fireEvent.input(field('Port'), { target: { value: '4460' } });
    await fireEvent.click(save());
    await settle();
    expect(fake.argsOf('obs:save-connection')).toEqual([[{ enabled: true, host: '127.0.0.1', port: 4460 }]]);
    expect(screen.getByRole('status', { name: '' }).textContent).toBe('Saved.');
  });

  it('sends a new password exactly as typed, or an empty one to forget the saved one', async () => {
    const { fake, field, save } = setup();
    await fireEvent.input(field('Password'), { target: { value: ' hunter22 ' } });
    await fireEvent.click(save());
    await settle();
    expect(field('Password').value).toBe('');
    await fireEvent.click(screen.getByLabelText('Forget the saved password'));
    await fireEvent.click(save());
    await settle();
    expect(fake.argsOf('obs:save-connection').map(([a]) => (a as { password?: string }).password)).toEqual([
      ' hunter22 ',
      '',
    ]);
  });

  it('puts each reason at its field, naming the limit, and will not send it', async () => {
    const { fake, field, save, errorOf } = setup();
    await fireEvent.input(field('Host'), { target: { value: 'http://obs.local:4455' } });
    await fireEvent.input(field('Port'), { target: { value: '70000' } });
    await fireEvent.input(field('Password'), { target: { value: 'x'.repeat(201) } });
    expect(errorOf(field('Host'))).toBe('Use a name or an IP address, such as 127.0.0.1, without http:// or a port.');
    expect(errorOf(field('Port'))).toBe('Must be between 1 and 65535.');
    expect(errorOf(field('Password'))).toBe('Must be at most 200 characters.');
    expect(field('Port').getAttribute('aria-invalid')).toBe('true');
    expect(save().disabled).toBe(true);
    for (const port of ['44a', '0x10', '1e3', '-1', '44.5', '']) {
      await fireEvent.input(field('Port'), { target: { value: port } });
      expect(errorOf(field('Port')), port).toBe('Must be a whole number.');
    }
    await fireEvent.input(field('Port'), { target: { value: '0' } });
    expect(errorOf(field('Port'))).toBe('Must be between 1 and 65535.');
    await fireEvent.input(field('Host'), { target: { value: 'ws://127.0.0.1' } });
    expect(errorOf(field('Host'))).toMatch(/^Use a name or an IP address/);
    await fireEvent.input(field('Host'), { target: { value: '127.0.0.1/x' } });
    expect(errorOf(field('Host'))).toMatch(/^Use a name or an IP address/);
    await fireEvent.input(field('Host'), { target: { value: '  ' } });
    expect(errorOf(field('Host'))).toBe('Enter the address of the computer running OBS, such as 127.0.0.1.');
    expect(fake.argsOf('obs:save-connection')).toEqual([]);
  });

  it('a refused save keeps everything typed and shows main’s reason at its field until it is edited', async () => {
    const { fake, field, save, errorOf } = setup();
    fake.handle('obs:save-connection', () => ({
      ok: false,
      error: {
        code: 'InvalidArgument',
        message: 'host: this host is refused',
        details: { field: 'host', fields: ['host'], reasons: ['host: this host is refused'] },
      },
    }));
    await fireEvent.input(field('Host'), { target: { value: 'obs.lan' } });
    await fireEvent.input(field('Password'), { target: { value: 'typed-pass' } });
    await fireEvent.click(save());
    await settle();
    expect(field('Host').value).toBe('obs.lan');
    expect(field('Password').value).toBe('typed-pass');
    expect(errorOf(field('Host'))).toBe('This host is refused.');
    expect(screen.getAllByRole('alert')[0]!.textContent).toMatch(/^Not saved: the OBS connection\./);
    await fireEvent.input(field('Host'), { target: { value: 'obs.lan2' } });
    expect(errorOf(field('Host'))).toBeNull();
  });

  it('a save that cannot reach the app keeps the typing and says so', async () => {
    const { fake, field, save } = setup();
    fake.fail('obs:save-connection', 'AppUnreachable', 'socket closed');
    await fireEvent.input(field('Password'), { target: { value: 'typed-pass' } });
    await fireEvent.click(save());
    await settle();
    expect(field('Password').value).toBe('typed-pass');
    expect(screen.getAllByRole('alert')[0]!.textContent).toMatch(/Not saved: the OBS connection\./);
  });

  it('shows what the connection does now under Save, in the streamer’s words', () => {
    setup();
    expect(screen.getByRole('status', { name: 'OBS connection' }).textContent).toMatch(
      /^OBS refused the password\. Copy it from OBS: Tools → WebSocket Server Settings → Show Connect Info/,
    );
  });
});
