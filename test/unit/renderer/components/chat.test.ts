import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import App from '../../../../renderer/src/App.svelte';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { account, health, message, snapshot } from '../fixtures';
import { chatView } from './chat-fixtures';

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
    const emote = screen.getByRole('img', { name: 'KEKW' });
    expect(getComputedStyle(emote).backgroundImage).toBe('url("http://127.0.0.1:9999/emotes/37226/fullsize")');
    expect(screen.getByRole('img', { name: 'Moderator' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Subscriber (6)' })).toBeTruthy();
    const quote = row(m.messageId).querySelector('q')!;
    expect(quote.textContent).toBe('who is Pog here');
    expect(row(m.messageId).textContent).toContain('@bob');
    const name = within(row(m.messageId)).getByRole('button', { name: 'alice' });
    expect(name.style.color).not.toBe('');
  });

  it('falls back to the emote name when the image fails', async () => {
    // The image is loaded once per page by a probe off the page (lib/emote-images.ts): catch it to fail it.
    const probes: HTMLElement[] = [];
    const create = document.createElement.bind(document);
    vi.spyOn(document, 'createElement').mockImplementation((tag: string, options?: ElementCreationOptions) => {
      const el = create(tag, options);
      if (tag === 'img') {
        probes.push(el);
      }
      return el;
    });
    try {
      const { push } = await chatView();
      // An emote no other test shows, so this page has not probed it yet.
      await push(message({ content: '[emote:9005:catJAM]' }));
      expect(screen.getByRole('img', { name: 'catJAM' })).toBeTruthy();
      expect(probes).toHaveLength(1);
      await fireEvent.error(probes[0]!);
      expect(screen.queryByRole('img', { name: 'catJAM' })).toBeNull();
      expect(screen.getByText('catJAM')).toBeTruthy();
    } finally {
      vi.restoreAllMocks();
    }
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
    await fireEvent.mouseMove(screen.getByRole('log'));
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
