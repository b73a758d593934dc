import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import type { ObsView } from '../../../../shared/obs';
import ObsPanel from '../../../../renderer/src/components/ObsPanel.svelte';
import { ObsState } from '../../../../renderer/src/lib/state/obs.svelte';
import { createFakeApi, manualClock, settle } from '../fake-api';
import { liveStats, OBS_NOW, obsView, scenes } from '../obs-fixtures';

function setup(view: ObsView = obsView()) {
  const fake = createFakeApi();
  for (const channel of ['obs:set-scene', 'obs:set-source-visible', 'obs:output'] as const) {
    fake.ok(channel, null);
  }
  const obs = new ObsState(fake.api, manualClock(OBS_NOW));
  obs.apply(view);
  const onSettings = vi.fn();
  render(ObsPanel, { props: { obs, api: fake.api, copy: () => Promise.resolve(true), onSettings } });
  return { fake, obs, onSettings };
}

describe('ObsPanel', () => {
  it('shows the scene on air and switches scene with a button', async () => {
    const { fake } = setup();
    expect(screen.getByTestId('obs-current-scene').textContent.trim()).toBe('On air: Main');
    const list = screen.getByRole('list', { name: 'Scene' });
    expect(within(list).getByRole('button', { name: 'Main' }).getAttribute('aria-pressed')).toBe('true');
    await fireEvent.click(within(list).getByRole('button', { name: 'Be right back' }));
    await settle();
    expect(fake.argsOf('obs:set-scene')).toEqual([[{ sceneName: 'Be right back' }]]);
  });

  it('toggles a source of the current scene, and shows it as OBS says until OBS says otherwise', async () => {
    const { fake } = setup();
    const overlay = screen.getByRole<HTMLInputElement>('checkbox', { name: /Alerts overlay/ });
    expect(overlay.checked).toBe(false);
    await fireEvent.click(overlay);
    await settle();
    expect(fake.argsOf('obs:set-source-visible')).toEqual([[{ sceneName: 'Main', sceneItemId: 2, enabled: true }]]);
    expect(overlay.checked).toBe(false);
  });

  it('starts streaming only after the confirm; Cancel and Escape do nothing', async () => {
    const { fake } = setup();
    await fireEvent.click(screen.getByRole('button', { name: 'Start streaming' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Start streaming in OBS?' });
    expect(document.activeElement?.textContent).toBe('Cancel');
    await fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Start streaming' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(fake.argsOf('obs:output')).toEqual([]);
    await fireEvent.click(screen.getByRole('button', { name: 'Start streaming' }));
    await fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Start streaming' }));
    await settle();
    expect(fake.argsOf('obs:output')).toEqual([[{ output: 'stream', action: 'start' }]]);
  });

  it('stopping the stream and the recording each asks first, as a danger', async () => {
    const { fake } = setup(obsView({ stats: liveStats() }));
    await fireEvent.click(screen.getByRole('button', { name: 'Stop streaming' }));
    const stop = within(screen.getByRole('alertdialog', { name: 'Stop streaming in OBS?' })).getByRole('button', {
      name: 'Stop streaming',
    });
    expect(stop.classList.contains('danger')).toBe(true);
    await fireEvent.click(stop);
    await fireEvent.click(screen.getByRole('button', { name: 'Stop recording' }));
    await fireEvent.click(
      within(screen.getByRole('alertdialog', { name: 'Stop recording in OBS?' })).getByRole('button', {
        name: 'Stop recording',
      }),
    );
    await settle();
    expect(fake.argsOf('obs:output')).toEqual([
      [{ output: 'stream', action: 'stop' }],
      [{ output: 'record', action: 'stop' }],
    ]);
  });

  it('shows a refusal in OBS’s words', async () => {
    const { fake } = setup();
    fake.fail('obs:set-scene', 'ObsRequestFailed', 'OBS: No scene was found by the name of Ad break.');
    await fireEvent.click(screen.getByRole('button', { name: 'Ad break' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toMatch(
      /OBS could not do this\..*OBS said: No scene was found by the name of Ad break\./,
    );
  });

  it('shows hostile scene and source names as text, never as markup', async () => {
    const evil = '<img src=x onerror="window.__pwned=1">';
    const { fake } = setup(
      obsView({
        scenes: {
          current: evil,
          scenes: [evil, 'Main'],
          sources: [{ sceneItemId: 7, name: `${evil}src`, enabled: true }],
        },
      }),
    );
    expect(document.querySelector('img')).toBeNull();
    expect(screen.getByTestId('obs-current-scene').textContent.trim()).toBe(`On air: ${evil}`);
    await fireEvent.click(screen.getByRole('checkbox', { name: new RegExp('onerror') }));
    await settle();
    expect(fake.argsOf('obs:set-source-visible')).toEqual([[{ sceneName: evil, sceneItemId: 7, enabled: false }]]);
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('says how many more scenes and sources OBS has than main sent', () => {
    setup(obsView({ scenes: scenes({ moreScenes: 49_501, moreSources: 19_500 }) }));
    expect(screen.getByText('… and 49501 more scenes in OBS.')).toBeTruthy();
    expect(screen.getByText('… and 19500 more sources in OBS.')).toBeTruthy();
  });

  it('says nothing of more scenes or sources when main sent them all', () => {
    setup();
    expect(screen.queryByText(/more scenes in OBS|more sources in OBS/)).toBeNull();
  });

  it('not connected: says why with the fix and offers no controls that cannot work', async () => {
    const { onSettings } = setup(obsView({ connection: { kind: 'wrong-password' }, stats: liveStats() }));
    expect(screen.getByText('OBS refused the password.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Start streaming' })).toBeNull();
    expect(screen.queryByRole('list', { name: 'Scene' })).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Open Settings → OBS' }));
    expect(onSettings).toHaveBeenCalledTimes(1);
  });
});
