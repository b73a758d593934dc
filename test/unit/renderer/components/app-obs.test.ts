/**
 * OBS in the shell, through App with the transport fake: the header's "Connect OBS" while OBS is not set up
 * opens Settings at the OBS form; once it is set up the strip takes the header's live figure; and the OBS tab
 * is there in the full panel, not in the compact companion.
 */
import '@testing-library/svelte/vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import App from '../../../../renderer/src/App.svelte';
import { OBS_VIEW_NOT_SET_UP, type ObsView } from '../../../../shared/obs';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { liveStats, obsView } from '../obs-fixtures';

async function setup(view: ObsView, panel: 'full' | 'compact' = 'full') {
  const fake = createFakeApi();
  fake.ok('obs:status', view);
  const deps = { scheduler: manualFrames().scheduler, clock: manualClock(), copy: () => Promise.resolve(true) };
  render(App, { props: { api: fake.api, view: panel, deps } });
  await settle();
  return fake;
}

describe('OBS in the shell', () => {
  it('"Connect OBS" opens Settings with the OBS form’s first field focused', async () => {
    await setup(OBS_VIEW_NOT_SET_UP);
    expect(screen.queryByTestId('obs-strip')).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Connect OBS' }));
    await settle();
    expect(screen.getByRole('tab', { name: 'Settings' }).getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: 'Connect to OBS' }));
  });

  it('set up, the strip shows both sides and follows obs:changed', async () => {
    const fake = await setup(obsView({ connection: { kind: 'wrong-password' } }));
    expect(screen.getByTestId('obs-strip').textContent).toContain('OBS: wrong password');
    fake.emit('obs:changed', obsView({ stats: liveStats() }));
    await settle();
    expect(screen.getByTestId('obs-strip').textContent).toContain('OBS ● 1:02:03');
    expect(screen.queryByRole('button', { name: 'Connect OBS' })).toBeNull();
  });

  it('has an OBS tab in the full panel, none in the compact companion', async () => {
    await setup(obsView());
    expect(screen.getByRole('tab', { name: 'OBS' })).toBeTruthy();
    document.body.innerHTML = '';
    await setup(obsView(), 'compact');
    expect(screen.queryByRole('tab', { name: 'OBS' })).toBeNull();
  });
});
