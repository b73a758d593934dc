import { describe, expect, it } from 'vitest';
import { foldCase, foldLetters, stripInvisible } from '../../../shared/normalise-text';

describe('what auto-moderation reads a message as', () => {
  it.each([
    ['soft hyphen', 'fr\u00adee'],
    ['zero-width space', 'fr\u200bee'],
    ['zero-width non-joiner', 'fr\u200cee'],
    ['zero-width joiner', 'fr\u200dee'],
    ['word joiner', 'fr\u2060ee'],
    ['byte order mark', 'fr\ufeffee'],
    ['variation selector', 'fr\ufe0fee'],
    ['supplementary variation selector', 'fr\u{e0100}ee'],
    ['tag character', 'fr\u{e0065}ee'],
    ['Hangul filler', 'fr\u3164ee'],
    ['right-to-left override', 'fr\u202eee'],
  ])('drops the %s', (_name, text) => {
    expect(stripInvisible(text)).toBe('free');
    expect(foldLetters(text)).toBe('free');
  });

  it.each([
    ['start of heading', 'fr\u0001ee'],
    ['escape', 'fr\u001bee'],
    ['delete', 'fr\u007fee'],
    ['next line', 'fr\u0085ee'],
    ['C1 control', 'fr\u009fee'],
    ['carriage return', 'fr\ree'],
  ])('drops the control character %s but keeps tabs and newlines', (_name, text) => {
    expect(foldLetters(text)).toBe('free');
    expect(foldCase(`${text}\tF\u0001R\nee`)).toBe('free\tFR\nee');
  });

  it.each([
    ['fullwidth', 'ＦＲＥＥ ｆｒｅｅ'],
    ['mathematical bold', '𝐅𝐑𝐄𝐄 𝐟𝐫𝐞𝐞'],
    ['mathematical double-struck', '𝔽ℝ𝔼𝔼 𝕗𝕣𝕖𝕖'],
    ['combining marks', 'F\u0336R\u0336ÉE f\u0301r\u0308ee'],
  ])('keeps case through %s letters for the capitals rule', (_name, text) => {
    expect(foldCase(text)).toBe('FREE free');
  });

  it.each([
    ['Cyrillic', 'frее ЅРАМ'],
    ['Greek', 'frεε ΣΡΑΜ'.replace('Σ', 'S')],
    ['mixed scripts and invisible characters', 'ｆr\u0435\u200b\u0435 𝐒рам'],
  ])('folds %s look-alikes to the Latin letters they imitate', (_name, text) => {
    expect(foldLetters(text)).toBe('free spam');
  });

  it('folds the i-like letters of other scripts to i, as a Latin capital I lower-cases', () => {
    expect(foldLetters('Іdiot ιdiot ıdiot Idiot')).toBe('idiot idiot idiot idiot');
  });

  it.each([
    ['a ligature', 'oﬃce ﬂoor', 'office floor'],
    ['small Roman numerals', 'chapter ⅷ', 'chapter viii'],
    ['capital Roman numerals', 'CHAPTER Ⅷ Ⅻ', 'chapter viii xii'],
    ['small capitals', 'ꜰʀᴇᴇ ꜱᴘᴀᴍ ꞯ', 'free spam q'],
    ['Canadian syllabics', 'ᖴᖇᗴᗴ', 'free'],
    ['an r rotunda', 'fꝛee FꝚEE', 'free free'],
  ])('spells out %s', (_name, text, folded) => {
    expect(foldLetters(text)).toBe(folded);
  });

  it('never grows a message past twice its length and a little, however far its characters decompose', () => {
    const line = 'ﷺ'.repeat(400);
    expect(foldCase(line).length).toBeLessThanOrEqual(2 * line.length + 64);
    expect(foldLetters(`${'ﷺ'.repeat(400)} ｆｒｅｅ`)).toMatch(/ free$/);
  });

  it('still spells out a short form past that allowance, so padding cannot hide one', () => {
    expect(foldLetters(`${'ﷺ'.repeat(400)} oﬃce`)).toMatch(/ office$/);
    expect(foldLetters(`${'ⅷ'.repeat(200)} oﬃce`)).toMatch(/ office$/);
    expect(foldCase('ⅷ'.repeat(200)).length).toBeLessThanOrEqual(4 * 200);
  });

  it('leaves plain ASCII as it is, lower-cased, digits and bars included', () => {
    expect(foldLetters('L33t | 1337 Hello!')).toBe('l33t | 1337 hello!');
    expect(foldCase('Hello!')).toBe('Hello!');
  });
});
