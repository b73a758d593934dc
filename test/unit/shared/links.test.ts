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
  ])('finds no link in %s', (text) => {
    expect(findLinks(text)).toEqual([]);
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
