import { describe, expect, it, vi } from 'vitest';
import { parseContent } from '../../../../renderer/src/lib/chat-content';
import { buildContent } from '../../../../renderer/src/lib/content-dom';

const HOST = 'http://127.0.0.1:9/';

/** Builds `content` into a detached span, as the chat row does before it joins the page. */
function render(content: string, options: { emoteHost?: string; onLink?: (url: string) => void } = {}): HTMLElement {
  const span = document.createElement('span');
  span.append(buildContent(document, parseContent(content, 'me'), { emoteHost: HOST, ...options }));
  return span;
}

describe('chat content as DOM', () => {
  it('keeps user text as text: markup in a message never becomes elements', () => {
    const span = render('<img src=x onerror=alert(1)> <b>bold</b>');
    expect(span.children).toHaveLength(0);
    expect(span.textContent).toBe('<img src=x onerror=alert(1)> <b>bold</b>');
  });

  it('renders emotes as fixed-size boxes named like images, drawing from the emote host, in order with the text', () => {
    const span = render('so good [emote:37226:KEKW] ok');
    document.body.append(span);
    const box = span.querySelector<HTMLElement>('[role="img"]')!;
    expect(box.getAttribute('aria-label')).toBe('KEKW');
    expect(box.classList.contains('emote')).toBe(true);
    expect(getComputedStyle(box).backgroundImage).toBe('url("http://127.0.0.1:9/emotes/37226/fullsize")');
    expect([...span.childNodes].map((n) => n.textContent || (n as Element).getAttribute('aria-label'))).toEqual([
      'so good ',
      'KEKW',
      ' ok',
    ]);
    span.remove();
  });

  it('shows an emote’s name when there is no emote host', () => {
    const hostless = render('[emote:5:catJAM]', { emoteHost: '' });
    expect(hostless.querySelector('[role="img"]')).toBeNull();
    expect(hostless.querySelector('.emote-fallback')?.textContent).toBe('catJAM');
  });

  it('marks mentions, the streamer’s own in its own class', () => {
    const span = render('hi @me and @you');
    const mentions = [...span.querySelectorAll('.mention')];
    expect(mentions.map((m) => [m.textContent, m.classList.contains('self')])).toEqual([
      ['@me', true],
      ['@you', false],
    ]);
  });

  it('makes links ask first when the panel confirms them, and leaves them as text otherwise', () => {
    const onLink = vi.fn();
    const span = render('see https://example.org/a now', { onLink });
    const link = span.querySelector('a')!;
    const click = new MouseEvent('click', { cancelable: true });
    link.dispatchEvent(click);
    expect(onLink).toHaveBeenCalledWith('https://example.org/a');
    expect(click.defaultPrevented).toBe(true);

    const plain = render('see https://example.org/a now');
    expect(plain.querySelector('a')).toBeNull();
    expect(plain.textContent).toBe('see https://example.org/a now');
  });

  it('sends every way of opening a link through the confirm, and leaves the browser nothing to open', () => {
    const onLink = vi.fn();
    const link = render('see https://example.org/a now', { onLink }).querySelector<HTMLElement>('a')!;
    // No href: no gesture reaches the browser's own link handling (a new tab, a drag, the context menu).
    expect(link.hasAttribute('href')).toBe(false);
    expect([link.getAttribute('role'), link.tabIndex]).toEqual(['link', 0]);
    const gestures = [
      new MouseEvent('auxclick', { button: 1, cancelable: true, bubbles: true }),
      new MouseEvent('click', { ctrlKey: true, cancelable: true, bubbles: true }),
      new MouseEvent('click', { metaKey: true, cancelable: true, bubbles: true }),
      new MouseEvent('click', { shiftKey: true, cancelable: true, bubbles: true }),
      new KeyboardEvent('keydown', { key: 'Enter', cancelable: true, bubbles: true }),
    ];
    for (const gesture of gestures) {
      link.dispatchEvent(gesture);
      expect(gesture.defaultPrevented, gesture.type).toBe(true);
    }
    expect(onLink).toHaveBeenCalledTimes(gestures.length);
    // A right-button auxclick or a middle press asks nothing, and does nothing either.
    const right = new MouseEvent('auxclick', { button: 2, cancelable: true });
    const press = new MouseEvent('mousedown', { button: 1, cancelable: true });
    link.dispatchEvent(right);
    link.dispatchEvent(press);
    expect([right.defaultPrevented, press.defaultPrevented, onLink.mock.calls.length]).toEqual([true, true, 5]);
  });
});
