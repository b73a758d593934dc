import { describe, expect, it } from 'vitest';
import { emoteUrl, mentionsName, parseContent, plainContent } from '../../../../renderer/src/lib/chat-content';

describe('chat content', () => {
  it('splits text, emotes and mentions', () => {
    expect(parseContent('hi [emote:12:Kappa] @Bob and @me!', 'bob')).toEqual([
      { kind: 'text', text: 'hi ' },
      { kind: 'emote', id: '12', name: 'Kappa' },
      { kind: 'text', text: ' ' },
      { kind: 'mention', text: '@Bob', self: true },
      { kind: 'text', text: ' and ' },
      { kind: 'mention', text: '@me', self: false },
      { kind: 'text', text: '!' },
    ]);
    expect(parseContent('<b>not html</b>', null)).toEqual([{ kind: 'text', text: '<b>not html</b>' }]);
  });

  it('detects mentions as whole words', () => {
    expect(mentionsName('hey bob!', 'bob')).toBe(true);
    expect(mentionsName('hey @BOB', 'bob')).toBe(true);
    expect(mentionsName('bobby', 'bob')).toBe(false);
    expect(mentionsName('x', null)).toBe(false);
  });

  it('follows a change of name between rows (the pattern is kept for the last name only)', () => {
    expect(mentionsName('hi alice', 'alice')).toBe(true);
    expect(mentionsName('hi alice', 'bob')).toBe(false);
    expect(mentionsName('hi bob', 'bob')).toBe(true);
    // A name with pattern characters matches as written, not as a pattern.
    expect(mentionsName('hi a.b', 'a.b')).toBe(true);
    expect(mentionsName('hi axb', 'a.b')).toBe(false);
    expect(mentionsName('hi alice', 'alice')).toBe(true);
  });

  it('builds emote URLs and plain text', () => {
    expect(emoteUrl('http://127.0.0.1:5/', '9')).toBe('http://127.0.0.1:5/emotes/9/fullsize');
    expect(plainContent('a [emote:1:Pog] b')).toBe('a Pog b');
  });
  it('finds links with a scheme or www., leaving trailing punctuation as text', () => {
    expect(parseContent('see https://example.org/a?b=1, and www.kick.com.', null)).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', text: 'https://example.org/a?b=1', url: 'https://example.org/a?b=1' },
      { kind: 'text', text: ', and ' },
      { kind: 'link', text: 'www.kick.com', url: 'https://www.kick.com/' },
      { kind: 'text', text: '.' },
    ]);
    // A bare domain is a link, as auto-moderation judges it (shared/links.ts); a javascript: one never is.
    expect(parseContent('javascript:alert(1) example.org', null)).toEqual([
      { kind: 'text', text: 'javascript:alert(1) ' },
      { kind: 'link', text: 'example.org', url: 'https://example.org/' },
    ]);
  });
  it('links a disguised address to the host a browser would open, as auto-moderation judges it', () => {
    expect(parseContent('go https://evil。io/x [emote:1:a.bc] https://evil.io\\.kick.com', null)).toEqual([
      { kind: 'text', text: 'go ' },
      { kind: 'link', text: 'https://evil。io/x', url: 'https://evil.io/x' },
      { kind: 'text', text: ' ' },
      { kind: 'emote', id: '1', name: 'a.bc' },
      { kind: 'text', text: ' ' },
      { kind: 'link', text: 'https://evil.io\\.kick.com', url: 'https://evil.io/.kick.com' },
    ]);
  });
});
