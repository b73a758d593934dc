/**
 * The Automation tab over the real contract check: a timer whose message main refuses at Save is marked in
 * its own row, the message input `aria-invalid` with the reason beside it, and the form's top says nothing was
 * saved; the field path stays behind "Details".
 */
import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it, onTestFinished } from 'vitest';
import AutomationPanel from '../../../../renderer/src/components/AutomationPanel.svelte';
import { AppState } from '../../../../renderer/src/lib/state/app.svelte';
import { checkInvoke } from '../../../../shared/validate-message';
import type { SettingsView } from '../../../../shared/views';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { settings, snapshot } from '../fixtures';
import { streamerSetup } from '../../shared/automation-fixtures';

async function setup() {
  const fake = createFakeApi();
  const current: SettingsView = settings(streamerSetup());
  fake.ok('app:snapshot', snapshot({ settings: current }));
  fake.ok('settings:get', current);
  fake.handle('settings:update', (patch: unknown) => {
    const checked = checkInvoke('settings:update', [patch]);
    return checked.ok ? { ok: true, value: { ...current, ...(checked.value.args as [object])[0] } } : checked;
  });
  const app = new AppState(fake.api, { scheduler: manualFrames().scheduler, clock: manualClock() });
  onTestFinished(app.connect());
  await app.start();
  render(AutomationPanel, { props: { app } });
  await settle();
  return { fake };
}

describe('chat bot: a refused Save marks its row', () => {
  it('marks the refused timer beside its message, and clears the marks when a row is removed', async () => {
    const { fake } = await setup();
    const form = screen.getByRole('form', { name: 'Commands, timers and event replies' });
    const second = within(form).getByRole('group', { name: 'Timer 2' });
    const message = within(second).getByRole('textbox', { name: 'Timer message' });
    await fireEvent.input(message, { target: { value: '' } });
    await fireEvent.click(within(form).getByRole('button', { name: 'Save commands, timers and replies' }));
    await settle();

    expect(fake.argsOf('settings:update')).toHaveLength(1);
    expect(message.getAttribute('aria-invalid')).toBe('true');
    expect(second.getAttribute('aria-describedby')).toBe('timer-error-1');
    expect(within(second).getByText('Refused: This cannot be empty.')).toBeTruthy();
    expect(within(within(form).getByRole('group', { name: 'Timer 1' })).queryByText(/^Refused:/)).toBeNull();
    const top = within(form).getAllByRole('alert')[0]!;
    expect(top.textContent).toMatch(/^Not saved: your commands, timers and replies\. One entry was refused/);
    expect(form.textContent).not.toMatch(/settings:update|chatBot\.timers|Too small/);
    await fireEvent.click(within(top).getByRole('button', { name: 'Details' }));
    expect(top.textContent).toMatch(/chatBot\.timers\.1\.message/);
    expect(within(form).getByText(/^Not saved: fix the marked entry$/)).toBeTruthy();

    await fireEvent.click(within(second).getByRole('button', { name: 'Remove timer 2' }));
    await settle();
    expect(within(form).queryByText(/^Refused:/)).toBeNull();
  });
});
