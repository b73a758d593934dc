/** The "late" age in Settings, Chat (docs/design-notes.md#late-events): checked in the panel, saved with chat. */
import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import App from '../../../../renderer/src/App.svelte';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { settings, snapshot } from '../fixtures';
import { fakeLink } from './app-not-running-fixtures';

async function setup(lateAfterSec: number | undefined) {
  const fake = createFakeApi();
  fake.ok('app:snapshot', snapshot({ settings: settings(lateAfterSec === undefined ? {} : { lateAfterSec }) }));
  const clock = manualClock();
  render(App, {
    props: { api: fake.api, deps: { scheduler: manualFrames().scheduler, clock, connection: fakeLink(clock) } },
  });
  await settle();
  await fireEvent.click(screen.getByRole('tab', { name: /^Settings/ }));
  await settle();
  return fake;
}

const panel = () => screen.getByRole('tabpanel');
const field = () => within(panel()).getByLabelText<HTMLInputElement>(/Events are late after/);
const save = () => within(panel()).getByRole<HTMLButtonElement>('button', { name: 'Save chat settings' });

describe('the late age in Settings', () => {
  it('shows the saved age, names the limits for one outside them, and saves one inside', async () => {
    const fake = await setup(300);
    expect(field().value).toBe('300');
    await fireEvent.input(field(), { target: { value: '20' } });
    expect(panel().textContent).toContain('Late after: a whole number of seconds from 30 to 3600 (1 hour).');
    expect(save().disabled).toBe(true);
    await fireEvent.input(field(), { target: { value: '600' } });
    await fireEvent.click(save());
    await settle();
    expect(fake.argsOf('settings:update').at(-1)).toEqual([{ chatScrollback: 1000, lateAfterSec: 600 }]);
  });

  it('leaves the age out for an older main that has none', async () => {
    const fake = await setup(undefined);
    await fireEvent.click(save());
    await settle();
    expect(fake.argsOf('settings:update').at(-1)).toEqual([{ chatScrollback: 1000 }]);
  });
});
