/**
 * "The 41 evasions" and more: chat lines that dodge auto-moderation by spelling what a viewer sees with
 * other characters (docs/automod.md#what-the-rules-read). Each names its trick and the rule that must still
 * catch it under `EVASION_RULES`. Shared by the app's integration test and the rule engine's unit test.
 */
import { type AutomodRule, type AutomodSettings, DEFAULT_AUTOMOD_SETTINGS } from '../../../shared/automod';

export interface Evasion {
  name: string;
  content: string;
  rule: AutomodRule;
}

/** Blocked terms, links (kick.com only, for everyone), capitals and repeated characters, acting for real. */
export function evasionRules(): AutomodSettings {
  const s = structuredClone(DEFAULT_AUTOMOD_SETTINGS);
  s.enabled = true;
  s.dryRun = false;
  s.exemptBadges = [];
  s.blockedTerms.terms = [
    { pattern: 'free followers', kind: 'plain' },
    { pattern: 'spam*bot', kind: 'wildcard' },
    { pattern: 'b[i1]tc[o0]in\\s+giveaway', kind: 'regex' },
    { pattern: 'office supplies', kind: 'plain' },
    { pattern: 'chapter viii', kind: 'plain' },
  ];
  s.links = { enabled: true, allow: ['kick.com'], allowSeenChatters: false, action: { kind: 'delete', minutes: 5 } };
  s.caps = { enabled: true, minLetters: 12, maxRatio: 0.8, action: { kind: 'hide', minutes: 5 } };
  s.repeatedChars = { enabled: true, max: 15, action: { kind: 'hide', minutes: 5 } };
  return s;
}

const term = (name: string, content: string): Evasion => ({ name: `terms: ${name}`, content, rule: 'blocked-term' });
const link = (name: string, content: string): Evasion => ({ name: `links: ${name}`, content, rule: 'link' });
const caps = (name: string, content: string): Evasion => ({ name: `caps: ${name}`, content, rule: 'caps' });
const repeat = (name: string, content: string): Evasion => ({
  name: `repeats: ${name}`,
  content,
  rule: 'repeated-chars',
});
/** `unit` twenty times. */
const twenty = (unit: string): string => unit.repeat(20);

export const EVASIONS: readonly Evasion[] = [
  term('zero-width space inside a word', 'get fr\u200bee followers now'),
  term('zero-width joiner', 'fre\u200de followers'),
  term('zero-width non-joiner', 'free follo\u200cwers'),
  term('word joiner', 'f\u2060ree followers'),
  term('byte order mark', 'fr\ufeffee followers'),
  term('soft hyphen', 'free fol\u00adlowers'),
  term('variation selector', 'fre\ufe0fe followers'),
  term('tag character', 'free follow\u{e0041}ers'),
  term('Hangul filler', 'fr\u3164ee followers'),
  term('Cyrillic look-alikes', 'fr\u0435\u0435 f\u043ell\u043ew\u0435rs'),
  term('Cyrillic capitals', 'get FR\u0415\u0415 F\u041eLL\u041eW\u0415RS here'),
  term('Greek look-alikes', 'fr\u03b5\u03b5 f\u03bfll\u03bfw\u03b5rs'),
  term('Greek capitals', 'get FR\u0395\u0395 F\u039fLL\u039fW\u0395RS here'),
  term('fullwidth letters', 'ｆｒｅｅ ｆｏｌｌｏｗｅｒｓ'),
  term('mathematical bold', '𝐟𝐫𝐞𝐞 𝐟𝐨𝐥𝐥𝐨𝐰𝐞𝐫𝐬'),
  term('mathematical italic', '𝑓𝑟𝑒𝑒 𝑓𝑜𝑙𝑙𝑜𝑤𝑒𝑟𝑠'),
  term('mathematical script', '𝒻𝓇ℯℯ 𝒻ℴ𝓁𝓁ℴ𝓌ℯ𝓇𝓈'),
  term('mathematical fraktur', '𝔣𝔯𝔢𝔢 𝔣𝔬𝔩𝔩𝔬𝔴𝔢𝔯𝔰'),
  term('mathematical double-struck', '𝕗𝕣𝕖𝕖 𝕗𝕠𝕝𝕝𝕠𝕨𝕖𝕣𝕤'),
  term('mathematical monospace', '𝚏𝚛𝚎𝚎 𝚏𝚘𝚕𝚕𝚘𝚠𝚎𝚛𝚜'),
  term('mathematical sans-serif bold', '𝗳𝗿𝗲𝗲 𝗳𝗼𝗹𝗹𝗼𝘄𝗲𝗿𝘀'),
  term('mathematical bold capitals', '𝐅𝐑𝐄𝐄 𝐅𝐎𝐋𝐋𝐎𝐖𝐄𝐑𝐒'),
  term('circled letters', 'ⓕⓡⓔⓔ ⓕⓞⓛⓛⓞⓦⓔⓡⓢ'),
  term(
    'combining strike-through',
    'f\u0336r\u0336e\u0336e\u0336 f\u0336o\u0336l\u0336l\u0336o\u0336w\u0336e\u0336r\u0336s\u0336',
  ),
  term('combining accents piled on', 'f\u0327r\u0337\u031be\u0301e\u0334 f\u0324o\u0308l\u0308lo\u030awers'),
  term('mixed: fullwidth, Cyrillic, zero-width and bold', 'ｆr\u0435\u200b\u0435 𝐟oll\u043ewers'),
  term('wildcard term in Cyrillic look-alikes', 'the \u0455\u0440\u0430mm\u0435rb\u043et is back'),
  term('regex term in fullwidth letters', 'ｂｉｔｃｏｉｎ giveaway today'),
  term('start-of-heading control character', 'fr\u0001ee followers'),
  term('delete control character', 'fr\u007fee followers'),
  term('next-line control character', 'fr\u0085ee followers'),
  term('escape control character', 'free fol\u001blowers'),
  term('ligature', 'cheap oﬃce supplies'),
  term('ligature after padding that decomposes far', `${'ⅷ'.repeat(80)} oﬃce supplies`),
  term('small Roman numeral', 'read chapter ⅷ'),
  term('capital Roman numeral', 'read CHAPTER Ⅷ'),
  term('small capitals', 'ꜰʀᴇᴇ ꜰᴏʟʟᴏᴡᴇʀꜱ'),
  term('Canadian syllabics', 'ᖴᖇᗴᗴ followers'),
  term('r rotunda', 'fꝛee followers'),
  link('ideographic full stop', 'see https://evil。io/x'),
  link('ideographic full stop without a scheme', 'go to evil。io now'),
  link('fullwidth full stop', 'visit evil．io today'),
  link('halfwidth ideographic full stop', 'evil｡io/free'),
  link('fullwidth letters and stop', 'ｅｖｉｌ．ｉｏ'),
  link('capital scheme with an ideographic stop', 'HTTPS://EVIL。IO'),
  link('zero-width space before the dot', 'evil\u200b.io/free'),
  link('dotted IP', 'http://1.2.3.4/free'),
  link('dotted IP without a scheme', 'go 1.2.3.4/free'),
  link('decimal IP', 'http://16909060/free'),
  link('hex IP', 'http://0x01020304/free'),
  link('octal IP', 'http://0001.0002.0003.0004/free'),
  link('backslash host', 'https://evil.io\\.kick.com'),
  link('userinfo with a password', 'https://kick.com:pass@evil.io'),
  link('userinfo that looks like a port', 'https://kick.com:443@evil.io/x'),
  link('IDN domain', 'яндекс.рф/free'),
  link('IDN top-level domain', 'evil.рф'),
  link('a heart after a bare domain', 'go to evil.com♥'),
  link('an ellipsis after a bare domain', 'evil.com…'),
  link('an emoji after a bare domain', 'evil.com😀'),
  link('an em dash after a bare domain', 'evil.com—'),
  link('a hyphen after a bare domain', 'evil.com-'),
  link('an underscore after a bare domain', 'evil.com_'),
  link('a tilde after a bare domain', 'evil.com~'),
  link('an asterisk after a bare domain', 'evil.com*'),
  link('a bar after a bare domain', 'evil.com|'),
  link('a bullet after a bare domain', 'evil.com•'),
  link('a curly apostrophe after a bare domain', 'evil.com’'),
  link('a curly quote after a bare domain', 'evil.com”'),
  link('a guillemet after a bare domain', 'evil.com«'),
  link('an inverted exclamation mark after a bare domain', 'evil.com¡'),
  link('an exclamation question mark after a bare domain', 'evil.com⁉'),
  link('a zero-width space and a heart after a bare domain', 'go to evil.com\u200b♥'),
  link('a double exclamation mark after a bare domain', 'evil.com‼'),
  link('a symbol before the path after a bare domain', 'evil.com♥/free'),
  link('scheme without slashes', 'https:evil.com'),
  link('scheme with one slash', 'http:/evil.com'),
  link('scheme with one backslash', 'https:\\evil.com'),
  link('capital scheme without slashes', 'HTTPS:EVIL.COM/free'),
  link('plain scheme with one backslash and a path', 'http:\\evil.com/free'),
  link('short loopback IP', 'open 127.1 now'),
  link('short hex IP', 'open 0x7f.1 now'),
  link('short octal loopback IP', 'open 0177.0.1 now'),
  caps('mathematical bold capitals', '𝐁𝐔𝐘 𝐂𝐇𝐄𝐀𝐏 𝐕𝐈𝐄𝐖𝐒 𝐍𝐎𝐖'),
  caps('mathematical sans-serif capitals', '𝗕𝗨𝗬 𝗖𝗛𝗘𝗔𝗣 𝗩𝗜𝗘𝗪𝗦 𝗡𝗢𝗪'),
  caps('zero-width joiners between mathematical capitals', '𝐁\u200d𝐔\u200d𝐘 𝐂\u200d𝐇\u200d𝐄\u200d𝐀\u200d𝐏 𝐍𝐎𝐖 𝐍𝐎𝐖'),
  caps(
    'a combining mark that counts as a small letter after each capital',
    'BUY CHEAP VIEWS NOW'.replace(/(\p{Lu})/gu, '$1\u0345\u0345'),
  ),
  repeat('zero-width spaces between the letters', `no${twenty('o\u200b')}`),
  repeat('soft hyphens between the letters', `a${twenty('a\u00ad')}`),
  repeat('Latin and Cyrillic letters alternating', `n${twenty('o\u043e')}`),
  repeat('bold and italic mathematical letters alternating', twenty('𝐨𝑜')),
  repeat('fullwidth and plain letters alternating', twenty('oｏ')),
  repeat('combining marks between the letters', `n${twenty('o\u0301')}`),
  repeat('variation selectors between the marks', twenty('!\ufe0f')),
];
