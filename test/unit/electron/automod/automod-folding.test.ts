import { describe, expect, it } from 'vitest';
import { automod, msg } from './automod-fixtures';

describe('auto-moderation reads emote lines folded, without their emote tokens', () => {
  const mod = () =>
    automod((s) => {
      s.blockedTerms.terms = [
        { pattern: 'free followers', kind: 'plain' },
        { pattern: 'freefollowers', kind: 'regex' },
      ];
      s.caps.enabled = true;
      s.caps.minLetters = 8;
    });

  it('finds a term between emotes, and leaves emote names out of the capitals', () => {
    expect(mod().judge(msg('[emote:1:KEKW] ｆｒｅｅ fоllowers [emote:2:LULW]'), 0)?.reason).toBe(
      'blocked term “free followers”',
    );
    expect(mod().judge(msg('[emote:1:KEKWLULWOMEGALUL] what a play'), 0)).toBeNull();
  });

  it('reads an emote line with an emoji (folded once) as it reads a plain one', () => {
    expect(mod().judge(msg('🔥 [emote:1:KEKW] free followers 🔥'), 0)?.reason).toBe('blocked term “free followers”');
    expect(mod().judge(msg('🔥 [emote:1:KEKWLULWOMEGALUL] what a play 🔥'), 0)).toBeNull();
    expect(mod().judge(msg('❤️ [emote:1:KEKW] WHAT A PLAY ❤️'), 0)?.rule).toBe('caps');
  });

  it('counts a run of an emoji as one character repeated', () => {
    const repeats = automod((s) => {
      s.repeatedChars.enabled = true;
      s.repeatedChars.max = 15;
    });
    expect(repeats.judge(msg(`lets go ${'🔥'.repeat(16)}`), 0)?.reason).toBe('“🔥” 16 times in a row');
    expect(repeats.judge(msg(`lets go ${'🔥'.repeat(15)}`, 200200), 0)).toBeNull();
  });

  it('does not let a token spelled in fullwidth characters hide what it holds', () => {
    expect(mod().judge(msg('［ｅｍｏｔｅ：１：freefollowers］ [emote:2:LULW]'), 0)?.reason).toBe(
      'blocked term “freefollowers”',
    );
  });
});
