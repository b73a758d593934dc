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

  it('keeps sent messages for ↑/↓ and completes @mentions from recent chat', async () => {
    const fake = createFakeApi();
    const session = new SessionState(fake.api);
    await session.load();
    const chatters = [{ sender: { username: 'noodle_ninja' } }, { sender: { username: 'nova' } }];
    const composer = new ComposerState(fake.api, session, () => chatters);
    fake.ok('chat:send', { is_sent: true, message_id: 'x' });
    composer.content = 'first';
    await composer.send();
    composer.content = 'half typed';
    expect(composer.older()).toBe(true);
    expect(composer.content).toBe('first');
    expect(composer.newer()).toBe(true);
    expect(composer.content).toBe('half typed');
    composer.content = 'hey @no';
    composer.caret = 7;
    expect(composer.suggestions).toEqual(['nova', 'noodle_ninja']);
    composer.suggestionIndex = 1;
    expect(composer.complete()).toBe(18);
    expect(composer.content).toBe('hey @noodle_ninja ');
  });
});
