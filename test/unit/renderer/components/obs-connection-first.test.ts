/**
 * Settings → OBS for a streamer connecting the first time: typing the connection in ticks "Connect to OBS"
 * for them, visibly; a box left off says so at the box; the form never says "no longer connects" about a
 * connection that never was, nor sends them to Settings → OBS while they are there. Hints are descriptions,
 * not part of the field's name.
 */
import '@testing-library/svelte/vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { OBS_VIEW_NOT_SET_UP, type ObsConnectionSettingsView } from '../../../../shared/obs';
import ObsConnectionForm from '../../../../renderer/src/components/ObsConnectionForm.svelte';
import { ObsState } from '../../../../renderer/src/lib/state/obs.svelte';
import { createFakeApi, manualClock, settle } from '../fake-api';
import { OBS_NOW, obsView } from '../obs-fixtures';

const NEW: ObsConnectionSettingsView = { enabled: false, host: '127.0.0.1', port: 4455, hasPassword: false };

function setup(saved: ObsConnectionSettingsView = NEW) {
  const fake = createFakeApi();
  const obs = new ObsState(fake.api, manualClock(OBS_NOW));
  obs.apply(saved.enabled ? obsView({ connection: { kind: 'wrong-password' } }) : OBS_VIEW_NOT_SET_UP);
  fake.handle('obs:save-connection', () => ({ ok: true, value: OBS_VIEW_NOT_SET_UP }));
  render(ObsConnectionForm, { props: { obs, saved } });
  const box = () => screen.getByRole<HTMLInputElement>('checkbox', { name: 'Connect to OBS' });
  const save = async () => {
    await fireEvent.click(screen.getByRole('button', { name: 'Save OBS connection' }));
    await settle();
  };
  const sentEnabled = () => fake.argsOf('obs:save-connection').map(([a]) => (a as { enabled: boolean }).enabled);
  return { fake, box, save, sentEnabled };
}

describe('connecting OBS the first time', () => {
  it.each([
    ['Password', 'from-obs'],
    ['Port', '4460'],
    ['Host', '192.168.1.20'],
  ])('typing the %s ticks "Connect to OBS", says so, and Save connects', async (label, value) => {
    const { box, save, sentEnabled } = setup();
    expect(box().checked).toBe(false);
    await fireEvent.input(screen.getByLabelText(label), { target: { value } });
    expect(box().checked).toBe(true);
    expect(screen.getByText(/Ticked for you: Save connects to OBS\./)).toBeTruthy();
    await save();
    expect(sentEnabled()).toEqual([true]);
    expect(screen.getByText('Saved.')).toBeTruthy();
  });

  it('a box the streamer unticked stays off, says so at the box, and Save never says "no longer"', async () => {
    const { box, save, sentEnabled } = setup();
    await fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'from-obs' } });
    await fireEvent.click(box());
    await fireEvent.input(screen.getByLabelText('Port'), { target: { value: '4460' } });
    expect(box().checked).toBe(false);
    const hint = document.getElementById(box().getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent.trim()).toBe('Connect to OBS is off — tick it to connect.');
    await save();
    expect(sentEnabled()).toEqual([false]);
    expect(document.body.textContent).not.toContain('no longer connects');
    expect(screen.getByText('Saved. Connect to OBS is off, so Greenroom does not connect yet.')).toBeTruthy();
  });

  it('turning off a connection that was on says Greenroom no longer connects', async () => {
    const { box, save } = setup({ ...NEW, enabled: true, hasPassword: true });
    await fireEvent.input(screen.getByLabelText('Port'), { target: { value: '4460' } });
    expect(box().checked).toBe(true);
    await fireEvent.click(box());
    await save();
    expect(screen.getByText('Saved. Greenroom no longer connects to OBS.')).toBeTruthy();
  });

  it('does not send the streamer to Settings → OBS while they are in it', () => {
    setup();
    const status = screen.getByRole('status', { name: 'OBS connection' }).textContent;
    expect(status).not.toContain('Settings → OBS');
    expect(status).toMatch(/Tick Connect to OBS/);
  });

  it('names each field by its label only; the hint is its description', () => {
    setup();
    for (const [name, hint] of [
      ['Host', '127.0.0.1 when OBS runs on this computer.'],
      ['Password', 'OBS’s password, if it asks for one.'],
    ] as const) {
      const input = screen.getByLabelText(name);
      const described = (input.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent.trim());
      expect(described, name).toContain(hint);
      expect(input.closest('label')?.textContent.trim(), name).toBe(name);
    }
  });
});
