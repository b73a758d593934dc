/**
 * What moderation puts over the views (the ban confirm, the ban's Undo, the user card) while the panel is cut
 * off from the app: each write waits, disabled with the line Send gives, and what was typed stays; once the link
 * is back each works again.
 */
import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import App from '../../../../renderer/src/App.svelte';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { message } from '../fixtures';
import { fakeLink } from './app-not-running-fixtures';

const REASON = 'Greenroom is not running — reconnecting.';

async function setup() {
  const fake = createFakeApi();
  const clock = manualClock();
  const link = fakeLink(clock);
  const frames = manualFrames();
  const r = render(App, {
    props: { api: fake.api, view: 'chat', deps: { scheduler: frames.scheduler, clock, connection: link } },
  });
  await settle();
  const m = message({ userId: 42, username: 'troll' });
  fake.emit('kick:event', { kind: 'chat', message: m });
  frames.run();
  await settle();
  const row = r.container.querySelector<HTMLElement>(`[data-message-id="${m.messageId}"]`)!;
  const drop = async () => {
    link.set('reconnecting');
    await settle();
  };
  const back = async () => {
    link.set('open');
    await settle();
  };
  return { fake, row, drop, back };
}

const buttonIn = (el: HTMLElement, name: string) => within(el).getByRole<HTMLButtonElement>('button', { name });

describe('moderation over the views while Greenroom is not running', () => {
  it('holds the ban confirm, keeps the reason typed, and bans once the link is back', async () => {
    const { fake, row, drop, back } = await setup();
    await fireEvent.focusIn(row);
    await fireEvent.click(screen.getByRole('button', { name: 'Ban troll' }));
    const dialog = screen.getByRole('dialog', { name: 'Ban troll?' });
    await fireEvent.input(within(dialog).getByLabelText(/Reason/), { target: { value: 'spam links' } });

    await drop();
    expect(buttonIn(dialog, 'Ban troll').disabled).toBe(true);
    expect(dialog.textContent).toContain(REASON);
    await fireEvent.submit(dialog.querySelector('form')!);
    expect(fake.argsOf('mod:ban')).toEqual([]);

    await back();
    expect(dialog.textContent).not.toContain(REASON);
    await fireEvent.click(buttonIn(dialog, 'Ban troll'));
    await settle();
    expect(fake.argsOf('mod:ban')).toEqual([[{ userId: 42, reason: 'spam links' }]]);
  });

  it('holds the ban’s Undo while cut off, and undoes once the link is back', async () => {
    const { fake, row, drop, back } = await setup();
    await fireEvent.focusIn(row);
    await fireEvent.click(screen.getByRole('button', { name: 'Ban troll' }));
    await fireEvent.click(buttonIn(screen.getByRole('dialog'), 'Ban troll'));
    await settle();
    const bar = screen.getByText('troll was banned.').parentElement!;

    await drop();
    expect(buttonIn(bar, 'Undo (unban)').disabled).toBe(true);
    expect(bar.textContent).toContain(REASON);

    await back();
    await fireEvent.click(buttonIn(bar, 'Undo (unban)'));
    await settle();
    expect(fake.argsOf('mod:unban')).toEqual([[{ userId: 42 }]]);
  });

  it('holds the user card’s note Save and Ignore, keeping the draft, and saves once the link is back', async () => {
    const { fake, row, drop, back } = await setup();
    await fireEvent.click(within(row).getByRole('button', { name: 'troll' }));
    await settle();
    const card = screen.getByRole('dialog', { name: 'troll' });
    const note = within(card).getByLabelText<HTMLTextAreaElement>(/Private note/);
    await fireEvent.input(note, { target: { value: 'posts links in every raid' } });

    await drop();
    expect(buttonIn(card, 'Save note').disabled).toBe(true);
    expect(buttonIn(card, 'Ignore').disabled).toBe(true);
    expect(card.textContent).toContain(REASON);
    await fireEvent.submit(note.closest('form')!);
    expect(fake.argsOf('mod:set-note')).toEqual([]);
    expect(note.value).toBe('posts links in every raid');

    await back();
    await fireEvent.click(buttonIn(card, 'Save note'));
    await settle();
    expect(fake.argsOf('mod:set-note')).toEqual([[{ userId: 42, note: 'posts links in every raid' }]]);
  });
});

describe('the user card opened while Greenroom is not running', () => {
  it('loads once the link is back, keeping the note typed meanwhile, which then saves', async () => {
    const { fake, row, drop, back } = await setup();
    await drop();
    fake.fail('mod:user-card', 'AppUnreachable', 'the connection to Greenroom was lost');
    await fireEvent.click(within(row).getByRole('button', { name: 'troll' }));
    await settle();
    const card = screen.getByRole('dialog', { name: 'troll' });
    const note = within(card).getByLabelText<HTMLTextAreaElement>(/Private note/);
    await fireEvent.input(note, { target: { value: 'ask about the raid' } });
    expect(buttonIn(card, 'Save note').disabled).toBe(true);
    // Main never answered, so the card knows nothing of this chatter's history and claims none.
    expect(card.textContent).not.toContain('Not seen in your chat before.');

    fake.handle('mod:user-card', (a: { userId: number }) => ({
      ok: true,
      value: { userId: a.userId, username: 'troll', recentMessages: [], actions: [], chatter: null, note: '' },
    }));
    await back();
    await settle();
    expect(card.textContent).not.toMatch(/not running/);
    expect(card.textContent).toContain('Not seen in your chat before.');
    expect(fake.argsOf('mod:user-card')).toHaveLength(2);
    expect(note.value).toBe('ask about the raid');
    await fireEvent.click(buttonIn(card, 'Save note'));
    await settle();
    expect(fake.argsOf('mod:set-note')).toEqual([[{ userId: 42, note: 'ask about the raid' }]]);
  });
});

describe('the header’s account details while Greenroom is not running', () => {
  it('offer no Sign out, which could not happen, and offer it again once the link is back', async () => {
    const { drop, back } = await setup();
    await fireEvent.click(screen.getByRole('button', { name: /^Signed in as streamerbob/ }));
    const details = () => screen.getByRole('region', { name: 'Your account and channel' });
    expect(within(details()).queryByRole('button', { name: 'Sign out' })).not.toBeNull();
    await drop();
    expect(within(details()).queryByRole('button', { name: 'Sign out' })).toBeNull();
    await back();
    expect(within(details()).queryByRole('button', { name: 'Sign out' })).not.toBeNull();
  });
});
