/**
 * The OBS actions editor in the Automation tab, over the real contract: scenes picked from OBS's list while
 * it is connected and typed otherwise, a reward chosen from the channel's, and a value main refuses shown at
 * its field with the limit.
 */
import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it, onTestFinished } from 'vitest';
import AutomationPanel from '../../../../renderer/src/components/AutomationPanel.svelte';
import { AppState } from '../../../../renderer/src/lib/state/app.svelte';
import { OBS_VIEW_NOT_SET_UP, type ObsView } from '../../../../shared/obs';
import { checkInvoke } from '../../../../shared/validate-message';
import type { SettingsView } from '../../../../shared/views';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { account, reward, settings, snapshot } from '../fixtures';
import { obsView, scenes } from '../obs-fixtures';
import { exportFile, streamerSetup } from '../../shared/automation-fixtures';

async function setup(obs: ObsView = obsView()) {
  const fake = createFakeApi();
  let current: SettingsView = settings();
  fake.ok('app:snapshot', snapshot({ settings: current, account: account({ signedIn: true }) }));
  fake.ok('settings:get', current);
  fake.ok('obs:status', obs);
  fake.ok('rewards:list', [reward({ id: 'rw-confetti', title: 'Confetti' }), reward({ id: 'rw-hat', title: 'Hat' })]);
  fake.handle('settings:update', (patch: unknown) => {
    const checked = checkInvoke('settings:update', [patch]);
    if (!checked.ok) {
      return checked;
    }
    current = { ...current, ...(checked.value.args as [Partial<SettingsView>])[0] };
    return { ok: true, value: current };
  });
  const app = new AppState(fake.api, { scheduler: manualFrames().scheduler, clock: manualClock() });
  onTestFinished(app.connect());
  await app.start();
  render(AutomationPanel, { props: { app } });
  await settle();
  await settle();
  const form = screen.getByRole('form', { name: 'OBS actions' });
  return { fake, form, current: () => current };
}

describe('ObsActionsEditor', () => {
  it('picks the ad-break scene from OBS’s list and a reward from the channel’s, and saves them', async () => {
    const { form, current } = await setup();
    const f = within(form);
    await fireEvent.click(f.getByRole('checkbox', { name: /ad break/ }));
    const scene = f.getByRole('combobox', { name: /Ad break.*scene/ });
    expect(
      within(scene)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose a scene', 'Main', 'Be right back', 'Ad break']);
    await fireEvent.change(scene, { target: { value: 'Ad break' } });
    await fireEvent.click(f.getByRole('button', { name: 'Add a reward action' }));
    await fireEvent.input(f.getByRole('combobox', { name: 'Show source' }), { target: { value: 'Camera' } });
    await fireEvent.click(f.getByRole('button', { name: 'Save OBS actions' }));
    await settle();
    expect(current().obsActions.adBreak).toEqual({ enabled: true, scene: 'Ad break' });
    expect(current().obsActions.rewards).toEqual([
      { enabled: true, rewardId: 'rw-confetti', rewardTitle: 'Confetti', source: 'Camera', scene: null, seconds: 10 },
    ]);
    expect(f.getByRole('status').textContent).toBe('OBS actions saved.');
  });

  it('says each switch in a streamer’s words, and picking a scene for one that is off switches it on', async () => {
    const { form, current } = await setup();
    const f = within(form);
    const text = form.textContent.replace(/\s+/g, ' ');
    expect(text).not.toMatch(/one run from Greenroom|OBS’s own/);
    const box = f.getByRole<HTMLInputElement>('checkbox', {
      name: 'When you run an ad break from Greenroom, switch OBS to a scene, and back when it ends.',
    });
    expect(box.checked).toBe(false);
    await fireEvent.change(f.getByRole('combobox', { name: 'Ad break scene' }), { target: { value: 'Be right back' } });
    expect(box.checked).toBe(true);
    await fireEvent.change(f.getByRole('combobox', { name: 'Go-live scene' }), { target: { value: 'Main' } });
    await fireEvent.click(f.getByRole('button', { name: 'Save OBS actions' }));
    await settle();
    expect(current().obsActions.adBreak).toEqual({ enabled: true, scene: 'Be right back' });
    expect(current().obsActions.goLive).toEqual({ enabled: true, scene: 'Main' });
  });

  it('asks for typed names while OBS is not connected', async () => {
    const { form } = await setup(OBS_VIEW_NOT_SET_UP);
    const f = within(form);
    expect(f.getByText(/OBS is not connected: type the names/)).toBeTruthy();
    expect(f.getByRole('textbox', { name: /Ad break.*scene/ })).toBeTruthy();
  });

  it.each([0, 301])('keeps %i seconds from being sent: the field itself names 1–300', async (seconds) => {
    const { form, fake } = await setup();
    const f = within(form);
    await fireEvent.click(f.getByRole('button', { name: 'Add a reward action' }));
    await fireEvent.input(f.getByRole('combobox', { name: 'Show source' }), { target: { value: 'Camera' } });
    const field = f.getByRole<HTMLInputElement>('spinbutton', { name: 'Seconds (1–300)' });
    await fireEvent.input(field, { target: { value: String(seconds) } });
    await fireEvent.click(f.getByRole('button', { name: 'Save OBS actions' }));
    await settle();
    expect(fake.argsOf('settings:update')).toEqual([]);
    expect(field.validity.valid).toBe(false);
  });

  it('shows main’s refusal at the field it concerns: a reward action with no source', async () => {
    const { form, fake } = await setup();
    const f = within(form);
    await fireEvent.click(f.getByRole('button', { name: 'Add a reward action' }));
    await fireEvent.click(f.getByRole('button', { name: 'Add a reward action' }));
    await fireEvent.input(f.getAllByRole('combobox', { name: 'Show source' })[0]!, { target: { value: 'Camera' } });
    await fireEvent.click(f.getByRole('button', { name: 'Save OBS actions' }));
    await settle();
    expect(fake.argsOf('settings:update')).toHaveLength(1);
    const second = f.getByRole('group', { name: 'When Hat is redeemed' });
    expect(within(second).getByRole('combobox', { name: 'Show source' }).getAttribute('aria-invalid')).toBe('true');
    expect(within(second).getByText(/^Refused: .*enter the name as OBS shows it/i)).toBeTruthy();
    expect(f.getByText('Not saved: fix the marked entry')).toBeTruthy();
  });

  it.each([
    ['301 seconds', { seconds: 301 }, /OBS sources for rewards in this file, number 1: at most 300\./],
    ['a 201-character source', { source: 'S'.repeat(201) }, /number 1: at most 200 characters\./],
  ])('refuses an imported file with %s at the Import control; nothing is sent', async (_, over, reason) => {
    const { fake, current } = await setup();
    const before = structuredClone(current().obsActions);
    const mine = streamerSetup();
    const file = exportFile(mine, { obsActions: { rewards: [{ ...mine.obsActions.rewards[0], ...over }] } });
    const input = screen.getByLabelText<HTMLInputElement>('Import a file');
    Object.defineProperty(input, 'files', { value: [new File([JSON.stringify(file)], 'a.json')], configurable: true });
    await fireEvent.change(input);
    await settle();
    await settle();
    expect(fake.argsOf('settings:update')).toEqual([]);
    expect(screen.getByRole('alert').textContent).toMatch(reason);
    expect(current().obsActions).toEqual(before);
  });

  it('keeps working when the scene on air holds one source twice (OBS: Paste (Reference))', async () => {
    const twice = scenes({
      sources: [
        { sceneItemId: 1, name: 'Webcam', enabled: true },
        { sceneItemId: 2, name: 'Webcam', enabled: false },
      ],
    });
    const { form } = await setup(obsView({ scenes: twice }));
    const options = [...form.querySelectorAll<HTMLOptionElement>('#obs-action-sources option')];
    expect(options.map((o) => o.value)).toEqual(['Webcam']);
  });
});
