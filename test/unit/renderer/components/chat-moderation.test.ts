import '@testing-library/svelte/vitest';
import { fireEvent, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { settle } from '../fake-api';
import { account, message, modAction } from '../fixtures';
import { chatView } from './chat-fixtures';

describe('chat moderation', () => {
  it('times out with a preset, showing pending then the result in place', async () => {
    const { fake, push, row } = await chatView();
    const m = message({ userId: 42, username: 'troll' });
    await push(m);
    await fireEvent.focusIn(row(m.messageId));
    const held = fake.hold('mod:timeout');
    await fireEvent.click(screen.getByRole('button', { name: 'Time out troll for 10m' }));
    expect(fake.argsOf('mod:timeout')).toEqual([[{ userId: 42, minutes: 10 }]]);
    expect(within(row(m.messageId)).getByRole('status').textContent).toContain('Timing out troll for 10m');
    held.release({
      ok: true,
      value: { id: 'x1', kind: 'timeout', atMs: 1, targetUserId: 42, targetUsername: 'troll', minutes: 10, ok: true },
    });
    await settle();
    expect(within(row(m.messageId)).getByRole('status').textContent).toBe('Timed out 10m');
  });

  it('offers every preset and a custom timeout within 1–10080 minutes', async () => {
    const { fake, push, row } = await chatView();
    const m = message({ userId: 42, username: 'troll' });
    await push(m);
    await fireEvent.mouseEnter(row(m.messageId));
    for (const label of ['1m', '5m', '10m', '1h', '1d', '1w']) {
      expect(screen.getByRole('button', { name: `Time out troll for ${label}` })).toBeTruthy();
    }
    await fireEvent.click(screen.getByRole('button', { name: 'Custom timeout for troll' }));
    const input = screen.getByLabelText<HTMLInputElement>(/Minutes/);
    await fireEvent.input(input, { target: { value: '20000' } });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Time out' }).disabled).toBe(true);
    await fireEvent.input(input, { target: { value: '90' } });
    await fireEvent.click(screen.getByRole('button', { name: 'Time out' }));
    expect(fake.argsOf('mod:timeout')).toEqual([[{ userId: 42, minutes: 90 }]]);
  });

  it('shows a failed action with the error message in place', async () => {
    const { fake, push, row } = await chatView();
    const m = message({ userId: 42, username: 'troll' });
    await push(m);
    await fireEvent.focusIn(row(m.messageId));
    fake.fail('mod:timeout', 'Forbidden', 'moderation:ban: you cannot time out a moderator');
    await fireEvent.click(screen.getByRole('button', { name: 'Time out troll for 1m' }));
    await settle();
    expect(row(m.messageId).textContent).toContain('Timeout failed: Kick does not allow this for your account');
    // Main's own words are one click away, not in the row itself.
    expect(row(m.messageId).textContent).not.toContain('you cannot time out a moderator');
    await fireEvent.click(within(row(m.messageId)).getByRole('button', { name: 'Details' }));
    expect(row(m.messageId).textContent).toContain('moderation:ban: you cannot time out a moderator');
  });

  it('deletes a message and marks it deleted', async () => {
    const { fake, push, row } = await chatView();
    const m = message();
    await push(m);
    await fireEvent.focusIn(row(m.messageId));
    await fireEvent.click(screen.getByRole('button', { name: 'Delete message' }));
    await settle();
    expect(fake.argsOf('chat:delete')).toEqual([[{ messageId: m.messageId }]]);
    expect(row(m.messageId).classList.contains('deleted')).toBe(true);
    expect(row(m.messageId).textContent).toContain('(deleted)');
    // The line was built again with its tag, not added to.
    expect(row(m.messageId).querySelectorAll('.line')).toHaveLength(1);
    expect(row(m.messageId).querySelectorAll('.name')).toHaveLength(1);
  });

  it('marks messages deleted when main says so', async () => {
    const { fake, push, row } = await chatView();
    const m = message();
    await push(m);
    fake.emit('chat:deleted', { messageId: m.messageId });
    await settle();
    expect(row(m.messageId).classList.contains('deleted')).toBe(true);
  });

  it('asks once before a ban, sends the reason, and offers undo', async () => {
    const { fake, push, row } = await chatView();
    const m = message({ userId: 42, username: 'troll' });
    await push(m);
    await fireEvent.focusIn(row(m.messageId));
    await fireEvent.click(screen.getByRole('button', { name: 'Ban troll' }));
    expect(fake.argsOf('mod:ban')).toHaveLength(0);
    const dialog = screen.getByRole('dialog', { name: 'Ban troll?' });
    await fireEvent.input(within(dialog).getByLabelText(/Reason/), { target: { value: 'spam links' } });
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Ban troll' }));
    await settle();
    expect(fake.argsOf('mod:ban')).toEqual([[{ userId: 42, reason: 'spam links' }]]);
    expect(screen.getByText('troll was banned.')).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Undo (unban)' }));
    await settle();
    expect(fake.argsOf('mod:unban')).toEqual([[{ userId: 42 }]]);
    expect(screen.queryByText('troll was banned.')).toBeNull();
  });

  it('clears "Banned" from the row when the ban is undone', async () => {
    const { push, row } = await chatView();
    const m = message({ userId: 42, username: 'troll' });
    await push(m);
    await fireEvent.focusIn(row(m.messageId));
    await fireEvent.click(screen.getByRole('button', { name: 'Ban troll' }));
    await fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Ban troll' }));
    await settle();
    expect(row(m.messageId).textContent).toContain('Banned');
    await fireEvent.click(screen.getByRole('button', { name: 'Undo (unban)' }));
    await settle();
    expect(row(m.messageId).textContent).not.toContain('Banned');
  });

  it('clears "Timed out" when another panel lifts it, and leaves other users\' rows alone', async () => {
    const { fake, push, row } = await chatView();
    const troll = message({ userId: 42, username: 'troll' });
    const other = message({ userId: 43, username: 'spammer' });
    await push(troll, other);
    for (const m of [troll, other]) {
      await fireEvent.focusIn(row(m.messageId));
      await fireEvent.click(
        within(row(m.messageId)).getByRole('button', { name: `Time out ${m.sender.username} for 1m` }),
      );
      await settle();
      expect(row(m.messageId).textContent).toContain('Timed out');
    }
    // An unban done in an OBS dock reaches this window as mod:action.
    fake.emit('mod:action', modAction({ kind: 'unban', targetUserId: 42, targetUsername: 'troll' }));
    await settle();
    expect(row(troll.messageId).textContent).not.toContain('Timed out');
    expect(row(other.messageId).textContent).toContain('Timed out');
  });

  it('cancels a ban with Escape and refuses a reason over 100 characters', async () => {
    const { fake, push, row } = await chatView();
    const m = message({ userId: 42, username: 'troll' });
    await push(m);
    await fireEvent.focusIn(row(m.messageId));
    await fireEvent.click(screen.getByRole('button', { name: 'Ban troll' }));
    const dialog = screen.getByRole('dialog');
    await fireEvent.input(within(dialog).getByLabelText(/Reason/), { target: { value: 'x'.repeat(101) } });
    expect(within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Ban troll' }).disabled).toBe(true);
    await fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fake.argsOf('mod:ban')).toHaveLength(0);
  });

  it('hides moderation without the scopes', async () => {
    const { push, row } = await chatView({ account: account({ scopes: ['chat:write'] }) });
    const m = message({ username: 'troll' });
    await push(m);
    await fireEvent.focusIn(row(m.messageId));
    expect(screen.queryByRole('button', { name: /Ban troll/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete message' })).toBeNull();
  });
});
