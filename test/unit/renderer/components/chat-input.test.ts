import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import ChatInput from '../../../../renderer/src/components/ChatInput.svelte';
import { ComposerState } from '../../../../renderer/src/lib/state/composer.svelte';
import { SessionState } from '../../../../renderer/src/lib/state/session.svelte';
import { createFakeApi, settle } from '../fake-api';
import { account, message, snapshot } from '../fixtures';

async function setup(acc = account()) {
  const fake = createFakeApi();
  fake.ok('app:snapshot', snapshot({ account: acc }));
  const session = new SessionState(fake.api);
  await session.load();
  const composer = new ComposerState(fake.api, session);
  render(ChatInput, { props: { composer } });
  return { fake, composer, input: screen.getByLabelText<HTMLInputElement>('Chat message') };
}

describe('ChatInput', () => {
  it('counts up to 500 and turns red past the limit', async () => {
    const { input } = await setup();
    await fireEvent.input(input, { target: { value: 'hi 👋' } });
    const counter = screen.getByText('4/500');
    expect(counter.classList.contains('over')).toBe(false);
    await fireEvent.input(input, { target: { value: 'x'.repeat(501) } });
    expect(screen.getByText('501/500').classList.contains('over')).toBe(true);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Send' }).disabled).toBe(true);
    expect(screen.getByText(/Too long/)).toBeTruthy();
  });

  it('sends as the bot in reply to a message and clears', async () => {
    const { fake, composer, input } = await setup();
    composer.setReplyTo(message({ messageId: 'parent-1', username: 'carol', content: 'question?' }));
    await settle();
    expect(screen.getByText(/Replying to/)).toBeTruthy();
    await fireEvent.input(input, { target: { value: 'answer' } });
    await fireEvent.click(screen.getByLabelText(/Bot/));
    await fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await settle();
    expect(fake.argsOf('chat:send')).toEqual([[{ content: 'answer', as: 'bot', replyToMessageId: 'parent-1' }]]);
    expect(input.value).toBe('');
    expect(screen.queryByText(/Replying to/)).toBeNull();
  });

  it('keeps the draft and shows the error when sending fails', async () => {
    const { fake, input } = await setup();
    fake.fail('chat:send', 'Validation', 'content: must be at most 500 characters');
    await fireEvent.input(input, { target: { value: 'hello' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await settle();
    expect(screen.getByRole('alert').textContent).toContain('content: must be at most 500 characters');
    expect(input.value).toBe('hello');
  });

  it('is disabled with the reason when signed out', async () => {
    const { input } = await setup(account({ signedIn: false, scopes: [] }));
    expect(input.disabled).toBe(true);
    expect(screen.getByText('Sign in with Kick to chat.')).toBeTruthy();
  });

  it('without the permission to send chat, says what to allow in Health’s words, Kick’s name behind Details', async () => {
    const { fake, input } = await setup(account({ scopes: ['user:read'] }));
    expect(input.disabled).toBe(true);
    const line = screen.getByText(/To send chat/).closest('p')!;
    expect(line.textContent).toContain('To send chat, sign in again and allow Greenroom to “send chat messages”.');
    expect(document.body.textContent).not.toMatch(/chat:write|scope/);
    await fireEvent.click(within(line).getByRole('button', { name: 'Details' }));
    expect(line.textContent).toContain('chat:write');
    await fireEvent.click(within(line).getByRole('button', { name: 'Sign in again' }));
    expect(fake.argsOf('auth:start-login')).toEqual([[{ scopes: ['user:read', 'chat:write'] }]]);
  });
});
