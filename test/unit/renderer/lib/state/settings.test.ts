import { describe, expect, it } from 'vitest';
import { SettingsState } from '../../../../../renderer/src/lib/state/settings.svelte';
import { createFakeApi } from '../../fake-api';

describe('SettingsState', () => {
  it('validates drafts before saving', async () => {
    const fake = createFakeApi();
    const settings = new SettingsState(fake.api);
    await settings.load();
    settings.redirectUri = 'https://example.com';
    expect(settings.connectionError).toBe(true);
    expect(settings.redirectError).toMatch(/^Start it with http:\/\//);
    expect(await settings.saveConnection()).toBe(false);
    settings.scrollback = 50;
    expect(settings.scrollbackError).toMatch(/100 to 10000/);
    settings.clientSecret = '';
    expect(settings.credentialsError).toMatch(/Client secret/);
    expect(fake.argsOf('settings:update')).toHaveLength(0);
  });
});
