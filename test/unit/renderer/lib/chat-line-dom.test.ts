import { describe, expect, it, vi } from 'vitest';
import { buildChatLine, type ChatLineOptions } from '../../../../renderer/src/lib/chat-line-dom';
import { message } from '../fixtures';

const HOST = 'http://127.0.0.1:9/';

/** Builds a row's fixed part into a detached article, as ChatMessage.svelte does before it joins the page. */
function render(m: ReturnType<typeof message>, options: Partial<ChatLineOptions> = {}): HTMLElement {
  const article = document.createElement('article');
  article.append(
    buildChatLine(document, m, { emoteHost: HOST, selfName: 'me', first: false, onName: () => {}, ...options }),
  );
  return article;
}

describe('a chat row’s line as DOM', () => {
  it('reads as time, badges, name, colon and content, in that order', () => {
    const m = message({
      username: 'alice',
      content: 'hi [emote:37226:KEKW] @me',
      sentAtMs: new Date(2026, 0, 2, 9, 5).getTime(),
      sender: {
        userId: 7,
        username: 'alice',
        color: '#44aaff',
        badges: [{ type: 'moderator', text: 'Moderator' }],
        isVerified: false,
      },
    });
    const row = render(m);
    const line = row.querySelector('.line')!;
    expect(line.querySelector('time')!.textContent).toBe('09:05');
    expect(line.querySelector('time')!.dateTime).toBe(new Date(m.sentAtMs).toISOString());
    const badge = line.querySelector('[role="img"][aria-label="Moderator"]')!;
    expect(badge.className).toBe('chat-badge moderator');
    const name = line.querySelector<HTMLButtonElement>('button.name')!;
    expect(name.type).toBe('button');
    expect(name.textContent).toBe('alice');
    expect(name.style.color).not.toBe('');
    expect(line.querySelector('.content.message-content [aria-label="KEKW"]')).not.toBeNull();
    expect(line.querySelector('.content .mention.self')!.textContent).toBe('@me');
    // The emote is a labelled box with no text of its own.
    expect(line.textContent).toBe('09:05 ⚔ alice: hi  @me');
    expect(row.querySelector('.first-tag, .reply, .tag')).toBeNull();
  });

  it('keeps a chatter’s name and text as text: markup never becomes elements', () => {
    const m = message({ username: '<b>x</b>', content: '<img src=x onerror=alert(1)>' });
    const row = render(m);
    expect(row.querySelector('b, img')).toBeNull();
    expect(row.querySelector('.name')!.textContent).toBe('<b>x</b>');
    expect(row.querySelector('.message-content')!.textContent).toBe('<img src=x onerror=alert(1)>');
  });

  it('marks a first message, quotes what it replies to without emote codes, and tags a deleted one', () => {
    const m = message({
      replyTo: { messageId: 'm-0', content: 'who is [emote:1:Pog] here', senderUsername: 'bob' },
      deleted: true,
    });
    const row = render(m, { first: true });
    const parts = [...row.children].map((el) => el.className);
    expect(parts).toEqual(['first-tag', 'reply', 'line']);
    expect(row.querySelector('.first-tag')!.textContent).toBe('First message in your chat');
    expect(row.querySelector('.reply')!.textContent).toBe('↳ replying to @bob: who is Pog here');
    expect(row.querySelector('.reply q')!.textContent).toBe('who is Pog here');
    expect(row.querySelector('.line .tag')!.textContent).toBe('(deleted)');
  });

  it('builds a plain line from five elements: a raid draws hundreds of rows a second', () => {
    const row = render(
      message({
        content: 'just words',
        sender: { userId: 1, username: 'n', color: null, badges: [], isVerified: false },
      }),
    );
    const elements = [...row.querySelectorAll('*')].map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
    expect(elements).toEqual(['div.line', 'time.', 'button.name', 'span.colon', 'span.content message-content']);
  });

  it('leaves a name without a usable colour to the stylesheet', () => {
    const row = render(message({ sender: { userId: 1, username: 'n', color: 'red', badges: [], isVerified: false } }));
    expect(row.querySelector<HTMLElement>('.name')!.style.color).toBe('');
  });

  it('asks for the chatter’s card when the name is clicked, and for a link’s confirmation when one is', () => {
    const onName = vi.fn();
    const onLink = vi.fn();
    const row = render(message({ content: 'see https://kick.com/x' }), { onName, onLink });
    row.querySelector<HTMLButtonElement>('.name')!.click();
    expect(onName).toHaveBeenCalledTimes(1);
    row.querySelector<HTMLAnchorElement>('a.link')!.click();
    expect(onLink).toHaveBeenCalledWith('https://kick.com/x');
  });
});
