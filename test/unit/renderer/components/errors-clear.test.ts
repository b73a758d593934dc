/**
 * Every error a view keeps beside a control clears when its cause is gone: one from the panel's own link to the
 * app (`AppUnreachable`, `AppTimeout`) on the reconnect, one for want of a sign-in (`NotSignedIn`) on the
 * sign-in. A refusal that is still true (Kick's, a field's) stays through both.
 */
import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import App from '../../../../renderer/src/App.svelte';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { account, adStatus, message, reward } from '../fixtures';
import { fakeLink } from './app-not-running-fixtures';

const NOT_RUNNING = /Greenroom is not running — reconnecting\. Try again/;
const NO_ANSWER = /Greenroom did not answer in time/;
const SIGNED_OUT = /You are signed out\. Sign in with Kick/;

async function setup(view: 'full' | 'chat' = 'full') {
  const fake = createFakeApi();
  const clock = manualClock();
  const link = fakeLink(clock);
  const frames = manualFrames();
  const r = render(App, {
    props: { api: fake.api, view, deps: { scheduler: frames.scheduler, clock, connection: link } },
  });
  await settle();
  const open = async (label: string) => {
    await fireEvent.click(screen.getByRole('tab', { name: new RegExp(`^${label}\\b`) }));
    await settle();
    return screen.getByRole('tabpanel');
  };
  const reconnect = async () => {
    link.set('reconnecting');
    await settle();
    link.set('open');
    await settle();
    await settle();
  };
  const signInAgain = async () => {
    fake.emit('session:changed', account({ signedIn: false, scopes: [] }));
    await settle();
    fake.emit('session:changed', account());
    await settle();
    await settle();
  };
  return { fake, frames, open, reconnect, signInAgain, container: r.container };
}

const text = (el: HTMLElement) => el.textContent ?? '';

describe('errors beside a control clear when their cause is gone', () => {
  it('Stream: a save the app never got clears on the reconnect; Kick’s refusal stays', async () => {
    const { fake, open, reconnect } = await setup();
    let stream = await open('Stream');
    await fireEvent.input(within(stream).getByLabelText('Title'), { target: { value: 'New title' } });
    fake.fail('stream:update', 'AppUnreachable', 'the connection to Greenroom was lost');
    await fireEvent.click(within(stream).getByRole('button', { name: 'Save' }));
    await settle();
    expect(text(stream)).toMatch(NOT_RUNNING);
    await reconnect();
    stream = screen.getByRole('tabpanel');
    expect(text(stream)).not.toMatch(NOT_RUNNING);
    // The draft is still there to save again.
    expect(within(stream).getByLabelText<HTMLInputElement>('Title').value).toBe('New title');

    fake.fail('stream:update', 'Forbidden', 'updateChannel: 403');
    await fireEvent.click(within(stream).getByRole('button', { name: 'Save' }));
    await settle();
    await reconnect();
    expect(text(screen.getByRole('tabpanel'))).toMatch(/Kick does not allow this/);
  });

  it('Rewards: a row’s error from an app that did not answer clears on the reconnect', async () => {
    const { fake, open, reconnect } = await setup();
    fake.ok('rewards:list', [reward({ id: 'r1', title: 'Hydrate' })]);
    const rewards = await open('Rewards');
    fake.fail('rewards:update', 'AppTimeout', 'rewards:update: no answer in 30 s');
    await fireEvent.click(within(rewards).getByRole('button', { name: 'Pause' }));
    await settle();
    expect(text(screen.getByText('Hydrate').closest('li')!)).toMatch(NO_ANSWER);
    await reconnect();
    expect(text(screen.getByText('Hydrate').closest('li')!)).not.toMatch(NO_ANSWER);
  });

  it('Ads: an enroll refused for want of a sign-in clears on the sign-in; a transport one on the reconnect', async () => {
    const { fake, open, reconnect, signInAgain } = await setup();
    fake.ok('ads:status', adStatus({ opted_in: false }));
    let ads = await open('Ads');
    fake.fail('ads:enroll', 'NotSignedIn', 'enroll: not signed in');
    await fireEvent.click(within(ads).getByRole('button', { name: 'Enroll' }));
    await settle();
    expect(text(ads)).toMatch(SIGNED_OUT);
    await reconnect();
    expect(text(screen.getByRole('tabpanel'))).toMatch(SIGNED_OUT);
    await signInAgain();
    ads = screen.getByRole('tabpanel');
    expect(text(ads)).not.toMatch(SIGNED_OUT);

    fake.fail('ads:enroll', 'AppUnreachable', 'the connection to Greenroom was lost');
    await fireEvent.click(within(ads).getByRole('button', { name: 'Enroll' }));
    await settle();
    expect(text(ads)).toMatch(NOT_RUNNING);
    await reconnect();
    expect(text(screen.getByRole('tabpanel'))).not.toMatch(NOT_RUNNING);
  });

  it('Automation: a test the app never answered clears on the reconnect', async () => {
    const { fake, open, reconnect } = await setup();
    const panel = await open('Automation');
    const tester = within(panel).getByRole('group', { name: 'Test a message' });
    await fireEvent.input(within(tester).getByLabelText(/Message/), { target: { value: 'buy followers' } });
    fake.fail('automod:test', 'AppTimeout', 'automod:test: no answer in 30 s');
    await fireEvent.click(within(tester).getByRole('button', { name: 'Test' }));
    await settle();
    expect(text(panel)).toMatch(NO_ANSWER);
    await reconnect();
    expect(text(screen.getByRole('tabpanel'))).not.toMatch(NO_ANSWER);
  });

  it('Chat: a moderation line the app never got clears on the reconnect; Kick’s refusal stays', async () => {
    const { fake, frames, reconnect, container } = await setup('chat');
    const [a, b] = [message({ userId: 42, username: 'troll' }), message({ userId: 43, username: 'mod2' })];
    for (const m of [a, b]) {
      fake.emit('kick:event', { kind: 'chat', message: m });
    }
    frames.run();
    await settle();
    const row = (id: string) => container.querySelector<HTMLElement>(`[data-message-id="${id}"]`)!;
    fake.fail('mod:timeout', 'AppUnreachable', 'the connection to Greenroom was lost');
    await fireEvent.focusIn(row(a.messageId));
    await fireEvent.click(screen.getByRole('button', { name: 'Time out troll for 1m' }));
    await settle();
    fake.fail('mod:timeout', 'Forbidden', 'moderation:ban: you cannot time out a moderator');
    await fireEvent.focusIn(row(b.messageId));
    await fireEvent.click(screen.getByRole('button', { name: 'Time out mod2 for 1m' }));
    await settle();
    expect(text(row(a.messageId))).toMatch(NOT_RUNNING);
    await reconnect();
    expect(text(row(a.messageId))).not.toMatch(/Timeout failed/);
    expect(text(row(b.messageId))).toMatch(/Timeout failed: Kick does not allow this/);
  });

  it('User card: a note the app never got clears on the reconnect, and a card that could not load loads', async () => {
    const { fake, frames, reconnect, container } = await setup('chat');
    const m = message({ userId: 42, username: 'troll' });
    fake.emit('kick:event', { kind: 'chat', message: m });
    frames.run();
    await settle();
    fake.fail('mod:user-card', 'AppUnreachable', 'the connection to Greenroom was lost');
    const row = container.querySelector<HTMLElement>(`[data-message-id="${m.messageId}"]`)!;
    await fireEvent.click(within(row).getByRole('button', { name: 'troll' }));
    await settle();
    const card = screen.getByRole('dialog', { name: 'troll' });
    expect(text(card)).toMatch(NOT_RUNNING);

    fake.handle('mod:user-card', (a: { userId: number }) => ({
      ok: true,
      value: { userId: a.userId, username: 'troll', recentMessages: [], actions: [], chatter: null, note: 'kept' },
    }));
    await reconnect();
    expect(text(card)).not.toMatch(NOT_RUNNING);
    const note = within(card).getByLabelText<HTMLTextAreaElement>(/Private note/);
    expect(note.value).toBe('kept');

    await fireEvent.input(note, { target: { value: 'links in every raid' } });
    fake.fail('mod:set-note', 'AppUnreachable', 'the connection to Greenroom was lost');
    await fireEvent.click(within(card).getByRole('button', { name: 'Save note' }));
    await settle();
    expect(text(card)).toMatch(NOT_RUNNING);
    await reconnect();
    expect(text(card)).not.toMatch(NOT_RUNNING);
  });
});
