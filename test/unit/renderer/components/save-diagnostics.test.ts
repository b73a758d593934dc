/**
 * "Save diagnostics" in Health ([logging](../../../../docs/logging.md#save-diagnostics)): one click asks main
 * for the file, downloads it, and shows where it was saved; a failure is a toast with the reason.
 */
import '@testing-library/svelte/vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import HealthPanel from '../../../../renderer/src/components/HealthPanel.svelte';
import Toasts from '../../../../renderer/src/components/Toasts.svelte';
import { HealthState } from '../../../../renderer/src/lib/state/health.svelte';
import { SessionState } from '../../../../renderer/src/lib/state/session.svelte';
import { toastsContext, ToastsState } from '../../../../renderer/src/lib/state/toasts.svelte';
import { createFakeApi, manualClock, settle } from '../fake-api';
import { health } from '../fixtures';

function setup() {
  const fake = createFakeApi();
  const state = new HealthState(fake.api);
  state.apply(health({ mode: 'kick' }));
  const toasts = new ToastsState(manualClock());
  const props = { health: state, session: new SessionState(fake.api), copy: () => Promise.resolve(true), now: 0 };
  render(HealthPanel, { props: { ...props, api: fake.api }, context: toastsContext(toasts) });
  render(Toasts, { props: { toasts } });
  const results = () => screen.getByRole('region', { name: 'Results' }).textContent ?? '';
  return { fake, results };
}

describe('Save diagnostics', () => {
  it('downloads the file and shows where it was saved', async () => {
    const { fake } = setup();
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    // jsdom has no object URLs; the download only needs one to hand the link.
    Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined });
    fake.ok('diagnostics:save', {
      fileName: 'greenroom-diagnostics-20261127-234005.json',
      mimeType: 'application/json',
      text: '{}\n',
      path: '/home/me/.greenroom/diagnostics/greenroom-diagnostics-20261127-234005.json',
    });
    await fireEvent.click(screen.getByRole('button', { name: 'Save diagnostics' }));
    await settle();
    expect(fake.argsOf('diagnostics:save')).toEqual([[]]);
    expect(clicked).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('diagnostics-saved').textContent).toContain(
      'Saved to /home/me/.greenroom/diagnostics/greenroom-diagnostics-20261127-234005.json',
    );
    clicked.mockRestore();
  });

  it('says it was not saved, with the reason', async () => {
    const { fake, results } = setup();
    fake.fail('diagnostics:save', 'NotConfigured', 'this Greenroom keeps no log to save');
    await fireEvent.click(screen.getByRole('button', { name: 'Save diagnostics' }));
    await settle();
    expect(results()).toContain('The diagnostics were not saved');
  });

  it('says in one plain sentence that the file was only downloaded, the reason under details', async () => {
    const { fake } = setup();
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => undefined });
    const notice = 'It could not be saved in ~/.greenroom/diagnostics (EACCES: permission denied).';
    fake.ok('diagnostics:save', { fileName: 'd.json', mimeType: 'application/json', text: '{}\n', path: null, notice });
    await fireEvent.click(screen.getByRole('button', { name: 'Save diagnostics' }));
    await settle();
    expect(screen.getByTestId('diagnostics-saved').textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'Saved as a download: the data folder would not take the file.',
    );
    expect(screen.getByTestId('diagnostics-details').textContent).toContain('EACCES');
    clicked.mockRestore();
  });

  it("says a second save came too soon in main's words, not as Kick limiting", async () => {
    const { fake, results } = setup();
    fake.fail('diagnostics:save', 'Ratelimited', 'Diagnostics were saved a moment ago. Wait 7 s, then save again.');
    await fireEvent.click(screen.getByRole('button', { name: 'Save diagnostics' }));
    await settle();
    expect(results()).toContain('Wait 7 s, then save again.');
    expect(results()).not.toContain('Kick');
  });
});
