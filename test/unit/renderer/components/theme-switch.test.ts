/** Settings' theme switch ([design notes](../../../../docs/design-notes.md#themes)): saved at once, a refusal shown. */
import '@testing-library/svelte/vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import ThemeSwitch from '../../../../renderer/src/components/ThemeSwitch.svelte';
import { createFakeApi, settle } from '../fake-api';
import { settings } from '../fixtures';

describe('the theme switch', () => {
  it('shows the saved choice and saves a new one at once', async () => {
    const fake = createFakeApi();
    fake.ok('settings:update', settings({ theme: 'light' }));
    render(ThemeSwitch, { props: { api: fake.api, choice: 'system' } });
    const group = screen.getByRole('group', { name: 'Theme' });
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'System' }).checked).toBe(true);
    expect([...group.querySelectorAll('label')].map((l) => l.textContent?.trim())).toEqual([
      'System',
      'Dark',
      'Light',
      'High contrast',
    ]);
    await fireEvent.click(screen.getByRole('radio', { name: 'Light' }));
    await settle();
    expect(fake.argsOf('settings:update')).toEqual([[{ theme: 'light' }]]);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says the theme was not saved when main refuses it', async () => {
    const fake = createFakeApi();
    fake.fail('settings:update', 'InvalidArgument', 'theme: unknown');
    render(ThemeSwitch, { props: { api: fake.api, choice: 'dark' } });
    await fireEvent.click(screen.getByRole('radio', { name: 'High contrast' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toMatch(/^The theme was not saved/);
  });
});
