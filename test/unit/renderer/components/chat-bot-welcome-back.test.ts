/**
 * The Automation tab's history fields (../../../../docs/chat-bot.md#welcome-back): the welcome back reply's days
 * away, refused by the real contract check at Save when outside 1–365 with the limit named at the field, nothing
 * saved; and where the stream history does not run, the form says what `{followage}` and `{streams}` will say in chat.
 */
import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it, onTestFinished } from 'vitest';
import AutomationPanel from '../../../../renderer/src/components/AutomationPanel.svelte';
import { AppState } from '../../../../renderer/src/lib/state/app.svelte';
import { FOLLOWAGE_UNAVAILABLE } from '../../../../shared/chat-bot';
import type { HistoryStatusView } from '../../../../shared/history';
import { checkInvoke } from '../../../../shared/validate-message';
import type { SettingsView } from '../../../../shared/views';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { settings, snapshot } from '../fixtures';
import { streamerSetup } from '../../shared/automation-fixtures';

async function setup(history: HistoryStatusView['state']) {
  const fake = createFakeApi();
  const current: SettingsView = settings(streamerSetup());
  fake.ok('app:snapshot', snapshot({ settings: current }));
  fake.ok('settings:get', current);
  fake.ok('history:status', {
    state: history,
    message: history === 'ready' ? null : 'Past streams and recaps are not available in this copy of Greenroom.',
    detail: history === 'ready' ? null : 'node:sqlite is missing; this is Node 20.20.0',
    chatDays: 90,
    liveStreamId: null,
  });
  fake.ok('history:streams', []);
  fake.handle('settings:update', (patch: unknown) => {
    const checked = checkInvoke('settings:update', [patch]);
    return checked.ok ? { ok: true, value: { ...current, ...(checked.value.args as [object])[0] } } : checked;
  });
  const app = new AppState(fake.api, { scheduler: manualFrames().scheduler, clock: manualClock() });
  onTestFinished(app.connect());
  await app.start();
  render(AutomationPanel, { props: { app } });
  await settle();
  const form = screen.getByRole('form', { name: 'Commands, timers and event replies' });
  return { fake, form };
}

describe('the welcome back reply in the Automation tab', () => {
  it.each([366, 100_000, 0])('refuses %d days away at its field, naming the limit', async (days) => {
    const { fake, form } = await setup('ready');
    const group = within(form).getByRole('group', { name: 'Welcome back reply' });
    await fireEvent.click(within(group).getByRole('checkbox', { name: 'Welcome back' }));
    const field = within(group).getByRole('spinbutton', { name: 'Days away' });
    await fireEvent.input(field, { target: { value: String(days) } });
    await fireEvent.click(within(form).getByRole('button', { name: 'Save commands, timers and replies' }));
    await settle();

    expect(fake.argsOf('settings:update')).toHaveLength(1);
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(group.getAttribute('aria-describedby')).toBe('welcome-back-error');
    expect(within(group).getByText('Refused: Welcome back after 1 to 365 days away.')).toBeTruthy();
    // The draft keeps what was typed: nothing is lost.
    expect((field as HTMLInputElement).value).toBe(String(days));
  });

  it('says what {followage} and {streams} will say in chat where the history does not run', async () => {
    const { form } = await setup('unavailable');
    const note = within(form).getByRole('note');
    expect(note.textContent).toContain('The stream history is not running here');
    expect(note.textContent).toContain(FOLLOWAGE_UNAVAILABLE);
    expect(note.textContent).toContain('an unknown number of');
    // The technical reason is not the streamer's words.
    expect(form.textContent).not.toContain('node:sqlite');
  });

  it('says nothing of the kind where the history runs', async () => {
    const { form } = await setup('ready');
    expect(within(form).queryByRole('note')).toBeNull();
    expect(form.textContent).toContain('{followage}');
  });
});
