import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import App from '../../../../renderer/src/App.svelte';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { account, health, message, modAction, snapshot } from '../fixtures';

async function chatView(over: Parameters<typeof snapshot>[0] = {}) {
  const fake = createFakeApi();
  fake.ok('app:snapshot', snapshot(over));
  const frames = manualFrames();
  const r = render(App, {
    props: { api: fake.api, view: 'chat', deps: { scheduler: frames.scheduler, clock: manualClock() } },
  });
  await settle();
  const push = async (...messages: ReturnType<typeof message>[]) => {
    for (const m of messages) {
      fake.emit('kick:event', { kind: 'chat', message: m });
    }
    frames.run();
    await settle();
  };
  const row = (id: string) => r.container.querySelector<HTMLElement>(`[data-message-id="${id}"]`)!;
  return { fake, frames, push, row, ...r };
}

describe('chat when no events can arrive', () => {
  const fullView = async (over: Parameters<typeof snapshot>[0]) => {
    const fake = createFakeApi();
    fake.ok('app:snapshot', snapshot(over));
    render(App, {
      props: { api: fake.api, view: 'chat', deps: { scheduler: manualFrames().scheduler, clock: manualClock() } },
    });
    await settle();
    return fake;
  };
  const notice = () => screen.queryByRole('status', { name: 'Why chat is not arriving' });

  it('says plainly that the tunnel is off on Kick, and what to do, instead of promising messages', async () => {
    await fullView({ mode: 'kick', health: health({ mode: 'kick', tunnel: { state: 'off' }, webhookUrl: null }) });
    expect(notice()!.textContent).toContain('the tunnel is off');
    expect(notice()!.textContent).toContain('Turn the tunnel on in Settings');
    expect(screen.getByRole('log').textContent).not.toContain('as they arrive');
  });

  it('says when the tunnel is down, and when chat is not subscribed', async () => {
    const fake = await fullView({
      mode: 'kick',
      health: health({ mode: 'kick', tunnel: { state: 'down', reason: 'connection refused', retryInMs: 8000 } }),
    });
    expect(notice()!.textContent).toContain('the tunnel is down (connection refused)');
    fake.emit(
      'health:changed',
      health({
        mode: 'kick',
        subscriptions: [{ type: 'chat.message.sent', state: 'error', error: 'Kick answered 403' }],
      }),
    );
    await settle();
    expect(notice()!.textContent).toContain('Not subscribed to chat on Kick (Kick answered 403)');
  });

  it('does not warn in sandbox mode, where the sandbox delivers without a tunnel', async () => {
    await fullView({
      mode: 'sandbox',
      health: health({ mode: 'sandbox', tunnel: { state: 'off' }, webhookUrl: null }),
    });
    expect(notice()).toBeNull();
  });

  it('asks to sign in when signed out, since nothing is subscribed before that', async () => {
    await fullView({ account: account({ signedIn: false, scopes: [] }) });
    expect(notice()!.textContent).toContain('Sign in with Kick');
  });
});

describe('chat log', () => {
  it('renders emotes as images from the emote host, badges, the reply quote and a coloured name', async () => {
    const { push, row } = await chatView();
    const m = message({
      content: 'so good [emote:37226:KEKW] ok',
      username: 'alice',
      sender: {
        userId: 77,
        username: 'alice',
        color: '#ff8800',
        badges: [
          { text: 'Moderator', type: 'moderator' },
          { text: 'Subscriber', type: 'subscriber', count: 6 },
        ],
        isVerified: false,
      },
      replyTo: { messageId: 'p1', content: 'who is [emote:1:Pog] here', senderUsername: 'bob' },
    });
    await push(m);
    const img = screen.getByAltText<HTMLImageElement>('KEKW');
    expect(img.getAttribute('src')).toBe('http://127.0.0.1:9999/emotes/37226/fullsize');
    expect(screen.getByRole('img', { name: 'Moderator' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Subscriber (6)' })).toBeTruthy();
    const quote = row(m.messageId).querySelector('q')!;
    expect(quote.textContent).toBe('who is Pog here');
    expect(row(m.messageId).textContent).toContain('@bob');
    const name = within(row(m.messageId)).getByRole('button', { name: 'alice' });
    expect(name.style.color).not.toBe('');
  });

  it('falls back to the emote name when the image fails', async () => {
    const { push } = await chatView();
    await push(message({ content: '[emote:5:catJAM]' }));
    await fireEvent.error(screen.getByAltText('catJAM'));
    expect(screen.queryByAltText('catJAM')).toBeNull();
    expect(screen.getByText('catJAM')).toBeTruthy();
  });

  it('highlights mentions of the streamer', async () => {
    const { push, row } = await chatView();
    const m = message({ content: 'hey @StreamerBob look' });
    const other = message({ content: 'hey @someone' });
    await push(m, other);
    expect(row(m.messageId).classList.contains('mention')).toBe(true);
    expect(row(other.messageId).classList.contains('mention')).toBe(false);
  });

  it('is an accessible log and renders only a window of a bounded scrollback', async () => {
    const { push, container } = await chatView();
    const log = screen.getByRole('log');
    expect(log.getAttribute('aria-live')).toBe('polite');
    const many = Array.from({ length: 1200 }, (_, i) => message({ content: `line ${i}` }));
    await push(...many);
    const rows = container.querySelectorAll('[data-message-id]');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(60);
    expect(screen.getByText('line 1199')).toBeTruthy();
    expect(screen.queryByText('line 0')).toBeNull();
  });

  it('pauses on hover and offers a jump to the N new messages', async () => {
    const { push } = await chatView();
    await push(message({ content: 'before' }));
    await fireEvent.mouseEnter(screen.getByRole('log'));
    await push(message({ content: 'during 1' }), message({ content: 'during 2' }));
    expect(screen.queryByText('during 1')).toBeNull();
    const jump = screen.getByRole('button', { name: /2 new messages/ });
    await fireEvent.click(jump);
    expect(screen.getByText('during 1')).toBeTruthy();
    expect(screen.getByText('during 2')).toBeTruthy();
  });

  it('pauses when scrolled up and resumes at the bottom', async () => {
    const { push } = await chatView();
    await push(message());
    const log = screen.getByRole('log');
    Object.defineProperty(log, 'scrollHeight', { configurable: true, value: 2000 });
    Object.defineProperty(log, 'clientHeight', { configurable: true, value: 400 });
    log.scrollTop = 200;
    await fireEvent.wheel(log, { deltaY: -300 });
    await fireEvent.scroll(log);
    await push(message({ content: 'while reading' }));
    expect(screen.getByRole('button', { name: /1 new message/ })).toBeTruthy();
    log.scrollTop = 1600;
    await fireEvent.scroll(log);
    expect(screen.getByText('while reading')).toBeTruthy();
  });
  it('a scroll no person asked for (a row that grew) does not pause it', async () => {
    const { push } = await chatView();
    await push(message());
    const log = screen.getByRole('log');
    Object.defineProperty(log, 'scrollHeight', { configurable: true, value: 2000 });
    Object.defineProperty(log, 'clientHeight', { configurable: true, value: 400 });
    log.scrollTop = 1560; // 40 px above the bottom, as a late image leaves it
    await fireEvent.scroll(log);
    await push(message({ content: 'still live' }));
    expect(screen.queryByRole('button', { name: /new message|Chat paused/ })).toBeNull();
    expect(screen.getByText('still live')).toBeTruthy();
    // A press on the scrollbar, held while it scrolls, is a person.
    await fireEvent.pointerDown(log);
    log.scrollTop = 900;
    await fireEvent.scroll(log);
    await fireEvent.pointerUp(window);
    await push(message({ content: 'after dragging' }));
    expect(screen.getByRole('button', { name: /1 new message/ })).toBeTruthy();
  });
});

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
