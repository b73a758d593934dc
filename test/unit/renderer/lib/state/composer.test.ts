import { describe, expect, it } from 'vitest';
import { ComposerState } from '../../../../../renderer/src/lib/state/composer.svelte';
import { SessionState } from '../../../../../renderer/src/lib/state/session.svelte';
import { createFakeApi } from '../../fake-api';

describe('ComposerState', () => {
  it('explains why sending is off and reports is_sent false', async () => {
    const fake = createFakeApi();
    const session = new SessionState(fake.api);
    const composer = new ComposerState(fake.api, session);
    expect(composer.disabledReason).toMatch(/Sign in/);
    await session.load();
    composer.content = '  hi  ';
    fake.ok('chat:send', { is_sent: false, message_id: '' });
    expect(await composer.send()).toBe(false);
    expect(composer.error?.text).toMatch(/did not send/);
    expect(fake.argsOf('chat:send')).toEqual([[{ content: 'hi', as: 'user' }]]);
  });
});
