import { describe, expect, it } from 'vitest';
import { SettingsState } from '../../../../../renderer/src/lib/state/settings.svelte';
import { fieldDetails } from '../../../../../shared/field-refusal';
import { createFakeApi } from '../../fake-api';

const CLASH = 'Port 7531 is the one Greenroom uses for its panel and OBS links. Pick another port, such as 3000.';

describe('SettingsState: a save main refuses', () => {
  it('puts the reason beside the redirect field until it is edited, and says plainly at the top what was not saved', async () => {
    const fake = createFakeApi();
    const settings = new SettingsState(fake.api);
    await settings.load();
    fake.handle('settings:update', () => ({
      ok: false,
      error: {
        code: 'InvalidArgument',
        message: `redirectUri: ${CLASH}`,
        details: fieldDetails([{ field: 'redirectUri', reason: CLASH }]),
      },
    }));
    settings.redirectUri = 'http://[::1]:7531/callback';
    expect(settings.redirectError).toBeNull();
    expect(await settings.saveConnection()).toBe(false);
    expect(settings.redirectError).toBe(CLASH);
    expect(settings.tunnelError).toBeNull();
    expect(settings.saveError?.text).toBe(
      'Not saved: the redirect URL and tunnel. One entry was refused; the reason is beside it. Your other settings are unchanged.',
    );
    expect(settings.saveError?.detail).toMatch(/redirectUri/);
    // Main's reason is about what was sent; a new value is judged afresh.
    settings.redirectUri = 'http://127.0.0.1:3001/callback';
    expect(settings.redirectError).toBeNull();
    // Another form's refusal does not mark this one.
    expect(settings.fieldError('events', 'redirectUri')).toBeNull();
  });

  it('words a failure that names no field plainly, without the channel name', async () => {
    const fake = createFakeApi();
    const settings = new SettingsState(fake.api);
    await settings.load();
    fake.fail('settings:update', 'AppUnreachable', 'settings:update: socket closed');
    settings.scrollback = 500;
    expect(await settings.saveScrollback()).toBe(false);
    expect(settings.saveError?.text).toBe(
      'Not saved: the chat length. Greenroom is not running — reconnecting. Try again once it is back. Your other settings are unchanged.',
    );
    expect(settings.saveError?.text).not.toMatch(/settings:update/);
  });
});
