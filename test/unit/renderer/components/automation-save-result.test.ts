/**
 * The Automation tab's two forms say the outcome of Save beside their own button, not at the top of the tab
 * where it sat off-screen; the line goes with the next edit.
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

async function setup(failSave = false) {
  const fake = createFakeApi();
  const current: SettingsView = settings(streamerSetup());
  fake.ok('app:snapshot', snapshot({ settings: current }));
  fake.ok('settings:get', current);
  if (failSave) {
    fake.fail('settings:update', 'Internal', 'settings:update: disk full');
  } else {
    fake.handle('settings:update', (patch: unknown) => {
      const checked = checkInvoke('settings:update', [patch]);
      return checked.ok ? { ok: true, value: { ...current, ...(checked.value.args as [object])[0] } } : checked;
    });
  }
  const app = new AppState(fake.api, { scheduler: manualFrames().scheduler, clock: manualClock() });
  onTestFinished(app.connect());
  await app.start();
  render(AutomationPanel, { props: { app } });
  await settle();
  const automod = () => screen.getByRole('form', { name: 'Auto-moderation rules' });
  const beside = (form: HTMLElement) => form.querySelector('.buttons')!.textContent?.trim() ?? '';
  return { automod, beside };
}

describe('Save says what happened beside its button', () => {
  it('says "Auto-moderation saved." at the button and not at the top, until the next edit', async () => {
    const { automod, beside } = await setup();
    const dryRun = within(automod()).getByLabelText(/Dry run/);
    await fireEvent.click(dryRun);
    await fireEvent.click(within(automod()).getByRole('button', { name: 'Save auto-moderation' }));
    await settle();
    expect(beside(automod())).toContain('Auto-moderation saved.');
    expect(screen.getAllByText('Auto-moderation saved.')).toHaveLength(1);
    await fireEvent.click(dryRun);
    expect(beside(automod())).not.toContain('saved.');
    expect(beside(automod())).toContain('Unsaved changes');
  });

  it('says "Not saved" with the reason beside the button when the save fails', async () => {
    const { automod, beside } = await setup(true);
    await fireEvent.click(within(automod()).getByLabelText(/Dry run/));
    await fireEvent.click(within(automod()).getByRole('button', { name: 'Save auto-moderation' }));
    await settle();
    expect(beside(automod())).toMatch(/^Save auto-moderation\s*Not saved: /);
  });

  it('says "Commands, timers and replies saved." beside the chat bot’s button', async () => {
    const { beside } = await setup();
    const form = screen.getByRole('form', { name: 'Commands, timers and event replies' });
    const message = within(within(form).getByRole('group', { name: 'Timer 1' })).getByRole('textbox', {
      name: 'Timer message',
    });
    await fireEvent.input(message, { target: { value: 'Follow for more' } });
    await fireEvent.click(within(form).getByRole('button', { name: 'Save commands, timers and replies' }));
    await settle();
    expect(beside(form)).toContain('Commands, timers and replies saved.');
    expect(screen.getAllByText('Commands, timers and replies saved.')).toHaveLength(1);
  });
});
