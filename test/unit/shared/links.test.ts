import { describe, expect, it } from 'vitest';
import { DOT_OR_COLON, findLinks } from '../../../shared/links';

const hosts = (text: string): string[] => findLinks(text).map((link) => link.host);

describe('the links in a chat message, as the panel shows them and auto-moderation judges them', () => {
  it('finds links with a scheme, www. and bare domains, leaving surrounding punctuation out', () => {
    const text = 'see (https://example.org/a?b=1), www.kick.com. and clips.example.tv!';
    const at = (part: string) => ({ start: text.indexOf(part), end: text.indexOf(part) + part.length, text: part });
    expect(findLinks(text)).toEqual([
      { ...at('https://example.org/a?b=1'), url: 'https://example.org/a?b=1', host: 'example.org' },
      { ...at('www.kick.com'), url: 'https://www.kick.com/', host: 'www.kick.com' },
      { ...at('clips.example.tv'), url: 'https://clips.example.tv/', host: 'clips.example.tv' },
    ]);
  });

  it.each([
    ['an ideographic full stop', 'https://evil。io/x', 'evil.io'],
    ['a halfwidth ideographic full stop', 'evil｡io', 'evil.io'],
    ['a fullwidth full stop', 'evil．io/free', 'evil.io'],
    ['fullwidth letters', 'ｅｖｉｌ．ｉｏ', 'evil.io'],
    ['a zero-width space in the host', 'evil\u200b.io', 'evil.io'],
    ['a backslash after the host', 'https://evil.io\\.kick.com', 'evil.io'],
    ['userinfo that names an allowed host', 'https://kick.com:443@evil.io', 'evil.io'],
    ['a dotted IP', 'http://1.2.3.4/x', '1.2.3.4'],
    ['a dotted IP without a scheme', '1.2.3.4/x', '1.2.3.4'],
    ['a decimal IP', 'http://2130706433', '127.0.0.1'],
    ['a hex IP', 'http://0x7f000001/', '127.0.0.1'],
    ['an octal IP', 'http://017700000001/', '127.0.0.1'],
    ['an IDN domain', 'яндекс.рф', 'xn--d1acpjx3f.xn--p1ai'],
    ['a punycode top-level domain', 'evil.xn--p1ai', 'evil.xn--p1ai'],
    ['a scheme without slashes', 'https:evil.com', 'evil.com'],
    ['a scheme with one slash', 'http:/evil.com', 'evil.com'],
    ['a scheme with one backslash', 'https:\\evil.com', 'evil.com'],
    ['a fullwidth scheme without slashes', 'ｈｔｔｐｓ：evil.com', 'evil.com'],
    ['a short loopback IP', '127.1', '127.0.0.1'],
    ['a short hex IP', '0x7f.1', '127.0.0.1'],
    ['a short octal IP', '0177.0.1', '127.0.0.1'],
  ])('reads the host a browser would open through %s', (_name, text, host) => {
    expect(hosts(`look ${text} now`)).toEqual([host]);
  });

  it.each([
    'e.g. this',
    'version 1.2.3',
    'pi is 3.14',
    'ok...',
    'javascript:alert(1)',
    'ratio 10:1',
    '@mod hi',
    '2130706433',
    'lol...ok',
    'v1.2',
    'rated 8.5/10',
    'odds 2.5:1',
    'costs 1.05',
    'http: is old',
  ])('finds no link in %s', (text) => {
    expect(findLinks(text)).toEqual([]);
  });

  it.each([
    ...[...'♥…😀—-_~*|•’”«¡⁉‼'].map((mark) => [mark, `evil.com${mark}`, 'evil.com']),
    ['a zero-width space and a heart', 'evil.com\u200b♥', 'evil.com'],
    ['fullwidth dots', 'evil．com．', 'evil．com'],
  ])('ends a bare domain at a character a host cannot hold: %s', (_name, word, shown) => {
    expect(findLinks(`go to ${word} now`)).toEqual([
      { start: 6, end: 6 + shown.length, text: shown, url: 'https://evil.com/', host: 'evil.com' },
    ]);
  });

  it('keeps the path, port and userinfo of a bare domain, and ends the host before a symbol in it', () => {
    expect(findLinks('evil.com:8080/x♥ evil.com♥/x bob@example.com').map((l) => l.text)).toEqual([
      'evil.com:8080/x♥',
      'evil.com',
      'bob@example.com',
    ]);
  });
});

describe('the characters that can make a dot or a colon in an address', () => {
  it('are all in DOT_OR_COLON, so a message without one is skipped safely', () => {
    const missing: string[] = [];
    for (let cp = 0x80; cp < 0x110000; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) {
        continue;
      }
      const char = String.fromCodePoint(cp);
      const read = char.normalize('NFKC');
      if ((/[.:]/.test(read) || read === '。') && !DOT_OR_COLON.test(char)) {
        missing.push(cp.toString(16));
      }
    }
    expect(missing).toEqual([]);
  });
});
