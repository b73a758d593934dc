import { describe, expect, it } from 'vitest';
import { DEFAULT_AUTOMOD_SETTINGS } from '../../../../shared/automod';
import { Automod, unevenSpace } from '../../../../electron/automod/automod';
import { automod, msg } from './automod-fixtures';

describe('auto-moderation rules', () => {
  it('blocked terms: plain words in any case, whole words only, with the term’s action', () => {
    const mod = automod((s) => {
      s.blockedTerms.terms = [
        { pattern: 'free followers', kind: 'plain' },
        { pattern: 'ass', kind: 'plain' },
      ];
      s.blockedTerms.action = { kind: 'ban', minutes: 5 };
    });
    expect(mod.judge(msg('get FREE Followers at my site'), 0)).toMatchObject({
      rule: 'blocked-term',
      reason: 'blocked term “free followers”',
      action: { kind: 'ban' },
      dryRun: false,
    });
    expect(mod.judge(msg('what a class act'), 0)).toBeNull();
  });

  it('blocked terms: a wildcard stands for letters, a regex runs when it is safe', () => {
    const mod = automod((s) => {
      s.blockedTerms.terms = [
        { pattern: 'spam*bot', kind: 'wildcard' },
        { pattern: 'b[i1]tc[o0]in\\s+giveaway', kind: 'regex' },
        { pattern: '(a+)+$', kind: 'regex' },
      ];
    });
    expect(mod.judge(msg('the spammerbot is back'), 0)?.reason).toBe('blocked term “spam*bot”');
    expect(mod.judge(msg('spam bot'), 0)).toBeNull();
    expect(mod.judge(msg('B1TC0IN   giveaway now'), 0)?.rule).toBe('blocked-term');
    expect(mod.refusedTerms()).toEqual([
      { pattern: '(a+)+$', reason: expect.stringMatching(/repeated group may not contain another repetition/) },
    ]);
    // The refused pattern never runs: a catastrophic input passes quickly.
    expect(mod.judge(msg(`${'a'.repeat(40)}!`), 0)).toBeNull();
  });

  it('links: refused from a first-time chatter unless allow-listed; a chatter seen before may post them', () => {
    const mod = automod((s) => {
      s.links.enabled = true;
      s.links.allow = ['kick.com'];
    });
    expect(mod.judge(msg('watch clips at https://kick.com/streamer', 1), 0)).toBeNull();
    expect(mod.judge(msg('cheap views at viewbot.shop/now', 2), 0)).toMatchObject({
      rule: 'link',
      reason: 'link viewbot.shop/now',
    });
    mod.judge(msg('hi all', 3), 0);
    expect(mod.judge(msg('my setup: pcpartpicker.com/list', 3), 1000)).toBeNull();
    const strict = automod((s) => {
      s.links.enabled = true;
      s.links.allowSeenChatters = false;
    });
    strict.judge(msg('hi', 4), 0);
    expect(strict.judge(msg('see sub.example.org', 4), 1)?.rule).toBe('link');
  });

  it('caps: judged from the minimum letters, above the ratio', () => {
    const mod = automod((s) => {
      s.caps.enabled = true;
      s.caps.minLetters = 10;
      s.caps.maxRatio = 0.8;
    });
    expect(mod.judge(msg('WHAT A PLAY THAT WAS'), 0)).toMatchObject({ rule: 'caps', reason: '100% capitals' });
    expect(mod.judge(msg('GG WP'), 0)).toBeNull();
    expect(mod.judge(msg('That Was A Great Play'), 0)).toBeNull();
  });

  it('emote count and repeated characters', () => {
    const mod = automod((s) => {
      s.emotes.enabled = true;
      s.emotes.max = 3;
      s.repeatedChars.enabled = true;
      s.repeatedChars.max = 5;
    });
    expect(mod.judge(msg('[emote:1:a] [emote:2:b] [emote:3:c] [emote:4:d]'), 0)).toMatchObject({
      rule: 'emotes',
      reason: '4 emotes',
    });
    expect(mod.judge(msg('[emote:1:a] [emote:2:b] hi'), 0)).toBeNull();
    expect(mod.judge(msg('nooooooooo'), 0)?.reason).toBe('“o” 9 times in a row');
    expect(mod.judge(msg('noooo'), 0)).toBeNull();
  });

  it('repeated messages per chatter within the window, and messages per chatter per N seconds', () => {
    const mod = automod((s) => {
      s.repeatedMessages = { enabled: true, count: 3, windowSec: 30, action: { kind: 'timeout', minutes: 2 } };
      s.rate = { enabled: true, messages: 4, perSec: 10, action: { kind: 'timeout', minutes: 1 } };
    });
    expect(mod.judge(msg('buy now', 7), 0)).toBeNull();
    expect(mod.judge(msg('Buy   now', 7), 1000)).toBeNull();
    expect(mod.judge(msg('buy now', 7), 2000)).toMatchObject({ rule: 'repeated-message', action: { minutes: 2 } });
    // Outside the window it starts again; another chatter is counted apart.
    expect(mod.judge(msg('buy now', 8), 2000)).toBeNull();
    expect(mod.judge(msg('buy now', 7), 60_000)).toBeNull();
    for (let i = 0; i < 3; i++) {
      expect(mod.judge(msg(`line ${i}`, 9), 100_000 + i * 100)).toBeNull();
    }
    expect(mod.judge(msg('line 3', 9), 100_300)).toBeNull();
    expect(mod.judge(msg('line 4', 9), 100_400)).toMatchObject({ rule: 'rate', reason: '5 messages in 10 s' });
    expect(mod.judge(msg('later', 9), 200_000)).toBeNull();
  });

  it('repeated messages: any white space between the words reads as one space', () => {
    const mod = automod((s) => {
      s.repeatedMessages = { enabled: true, count: 3, windowSec: 30, action: { kind: 'timeout', minutes: 2 } };
    });
    // A line separator, a paragraph separator and an ogham space mark fold to nothing else: each alone between
    // two words once passed as a new line.
    expect(mod.judge(msg('buy\u2028now', 7), 0)).toBeNull();
    expect(mod.judge(msg('buy\u2029now', 7), 1000)).toBeNull();
    expect(mod.judge(msg('buy\u1680now', 7), 2000)).toMatchObject({ rule: 'repeated-message' });
  });

  it('reads uneven white space exactly where collapsing it would change the line', () => {
    const spaces = [' ', '\t', '\n', '\v', '\f', '\r', '\u00a0', '\u1680', '\u2000', '\u200a', '\u2028', '\u2029'];
    const others = [
      'a',
      'B',
      '7',
      '\u0085',
      '\u180e',
      '\u200b',
      '\u202f',
      '\u205f',
      '\u3000',
      '\ufeff',
      '🔥',
      '\ud83d',
    ];
    const pieces = [...spaces, ' ', ' ', ...others, ...others];
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const wrong: string[] = [];
    for (let k = 0; k < 20_000; k++) {
      let text = '';
      for (let n = next(9); n > 0; n--) {
        text += pieces[next(pieces.length)];
      }
      if (unevenSpace(text) !== (text.replace(/\s+/g, ' ').trim() !== text)) {
        wrong.push(JSON.stringify(text));
      }
    }
    expect(wrong).toEqual([]);
    for (let code = 0; code < 0x10000; code++) {
      const char = String.fromCharCode(code);
      if (unevenSpace(`a${char}b`) !== (/\s/.test(char) && char !== ' ')) {
        wrong.push(code.toString(16));
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the rate rule at its most, 100 messages, acts on the 101st', () => {
    const mod = automod((s) => {
      s.rate = { enabled: true, messages: 100, perSec: 600, action: { kind: 'timeout', minutes: 1 } };
    });
    for (let i = 0; i < 100; i++) {
      expect(mod.judge(msg(`line ${i}`, 9), i * 1000)).toBeNull();
    }
    expect(mod.judge(msg('line 100', 9), 100_000)).toMatchObject({ rule: 'rate', reason: '101 messages in 600 s' });
  });

  it('keeps a chatter’s lines only as long as a rule that is on looks back, and forgets the quiet', () => {
    const mod = automod((s) => {
      s.repeatedMessages = { enabled: true, count: 3, windowSec: 30, action: { kind: 'timeout', minutes: 2 } };
      s.rate = { enabled: true, messages: 4, perSec: 10, action: { kind: 'timeout', minutes: 1 } };
    });
    for (let user = 0; user < 500; user++) {
      for (let i = 0; i < 3; i++) {
        mod.judge(msg(`hello ${i}`, 1000 + user), user * 10 + i);
      }
    }
    expect(mod.remembered()).toEqual({ chatters: 500, lines: 1500 });
    // A minute on, one chatter talks: their old lines go, and the quiet chatters are forgotten as lines come.
    for (let i = 0; i < 300; i++) {
      mod.judge(msg(`later ${i}`, 7), 90_000 + i);
    }
    expect(mod.remembered()).toEqual({ chatters: 1, lines: 101 });
  });

  it('pairs each kept line with its own time after old lines leave the window and past the cap', () => {
    const mod = automod((s) => {
      s.repeatedMessages = { enabled: true, count: 3, windowSec: 30, action: { kind: 'timeout', minutes: 2 } };
    });
    // Lines that leave the window: what is kept after them must still be the newest lines with their own times.
    for (let i = 0; i < 5; i++) {
      expect(mod.judge(msg(`early ${i}`, 9), i * 1000)).toBeNull();
    }
    expect(mod.judge(msg('buy now', 9), 60_000)).toBeNull();
    expect(mod.judge(msg('buy now', 9), 61_000)).toBeNull();
    expect(mod.judge(msg('buy now', 9), 62_000)).toMatchObject({ reason: 'the same message 3 times' });
    // Past the cap of 101 lines a chatter: 150 different lines, then the same one three times.
    for (let i = 0; i < 150; i++) {
      expect(mod.judge(msg(`line ${i}`, 8), 100_000 + i)).toBeNull();
    }
    expect(mod.judge(msg('again', 8), 100_200)).toBeNull();
    expect(mod.judge(msg('again', 8), 100_201)).toBeNull();
    expect(mod.judge(msg('again', 8), 100_202)).toMatchObject({ reason: 'the same message 3 times' });
  });

  it('keeps nothing while switched off or with no rule that looks back; switched on, counts from then', () => {
    const settings = structuredClone(DEFAULT_AUTOMOD_SETTINGS);
    settings.dryRun = false;
    settings.repeatedMessages = { enabled: true, count: 2, windowSec: 60, action: { kind: 'timeout', minutes: 2 } };
    const mod = new Automod(settings); // off, as it starts
    for (let i = 0; i < 5; i++) {
      expect(mod.judge(msg('same again', 7), i * 1000)).toBeNull();
    }
    mod.remember(msg('same again', 7), 5000);
    expect(mod.remembered()).toEqual({ chatters: 0, lines: 0 });
    mod.configure({ ...settings, enabled: true, repeatedMessages: { ...settings.repeatedMessages, enabled: false } });
    expect(mod.judge(msg('same again', 7), 6000)).toBeNull();
    expect(mod.remembered()).toEqual({ chatters: 0, lines: 0 });
    mod.configure({ ...settings, enabled: true });
    expect(mod.judge(msg('same again', 7), 7000)).toBeNull();
    expect(mod.judge(msg('same again', 7), 8000)).toMatchObject({ rule: 'repeated-message' });
  });

  it('forgets no chatter in the window for a few lines timed far ahead, or with no time at all', () => {
    for (const stray of [400_000, Number.NaN]) {
      const mod = automod((s) => {
        s.repeatedMessages = { enabled: true, count: 3, windowSec: 60, action: { kind: 'timeout', minutes: 2 } };
      });
      expect(mod.judge(msg('buy now', 9), 1000)).toBeNull();
      expect(mod.judge(msg('buy now', 9), 2000)).toBeNull();
      // Enough lines from others for the sweeps to run; those around a sweep are timed far ahead (or not at all).
      for (let i = 0; i < 200; i++) {
        mod.judge(msg(`hello ${i}`, 5000 + i), i >= 55 && i < 70 ? stray : 2000 + i);
      }
      expect(mod.judge(msg('buy now', 9), 3000)).toMatchObject({ rule: 'repeated-message' });
    }
  });

  it('remembers at most 20,000 chatters as seen, a journal replay’s too', () => {
    const mod = automod((s) => {
      s.links = { enabled: true, allow: [], allowSeenChatters: true, action: { kind: 'delete', minutes: 5 } };
    });
    for (let user = 0; user < 30_000; user++) {
      mod.remember(msg('hi', 100_000 + user), 0);
    }
    // The first 10,000 replayed are forgotten: their link is judged as a first-time chatter's.
    expect(mod.judge(msg('see spam.example', 100_000 + 5000), 1000)?.rule).toBe('link');
    expect(mod.judge(msg('see spam.example', 100_000 + 25_000), 1000)).toBeNull();
  });

  it('lets every kept message go when switched off, so on again within the window it counts from then', () => {
    const settings = structuredClone(DEFAULT_AUTOMOD_SETTINGS);
    settings.enabled = true;
    settings.dryRun = false;
    settings.repeatedMessages = { enabled: true, count: 2, windowSec: 60, action: { kind: 'timeout', minutes: 2 } };
    const mod = new Automod(settings);
    for (let user = 0; user < 100; user++) {
      expect(mod.judge(msg('same again', 1000 + user), 1000)).toBeNull();
    }
    expect(mod.remembered()).toEqual({ chatters: 100, lines: 100 });
    mod.configure({ ...settings, enabled: false });
    expect(mod.remembered()).toEqual({ chatters: 0, lines: 0 });
    mod.configure(settings);
    expect(mod.judge(msg('same again', 1000), 2000)).toBeNull();
    expect(mod.judge(msg('same again', 1000), 3000)).toMatchObject({ rule: 'repeated-message' });
  });

  it('exempts the chosen badges, and does nothing while switched off', () => {
    const mod = automod((s) => {
      s.caps.enabled = true;
      s.exemptBadges = ['moderator', 'subscriber'];
    });
    const loud = 'THIS IS VERY LOUD CHAT';
    expect(mod.judge(msg(loud, 1, [{ type: 'moderator', text: 'Moderator' }]), 0)).toBeNull();
    expect(mod.judge(msg(loud, 2, [{ type: 'subscriber', text: 'Subscriber', count: 3 }]), 0)).toBeNull();
    expect(mod.judge(msg(loud, 3, [{ type: 'vip', text: 'VIP' }]), 0)?.rule).toBe('caps');
    const off = automod((s) => {
      s.caps.enabled = true;
      s.enabled = false;
    });
    expect(off.judge(msg(loud), 0)).toBeNull();
  });

  it('dry run flags with the action it would take', () => {
    const mod = automod((s) => {
      s.dryRun = true;
      s.caps.enabled = true;
      s.caps.action = { kind: 'timeout', minutes: 10 };
    });
    expect(mod.judge(msg('STOP SHOUTING PLEASE'), 0)).toMatchObject({
      dryRun: true,
      action: { kind: 'timeout', minutes: 10 },
    });
  });

  it('remembers the journal’s messages without judging them', () => {
    const mod = automod((s) => {
      s.links.enabled = true;
      s.repeatedMessages.enabled = true;
      s.repeatedMessages.count = 2;
    });
    mod.remember(msg('visit spam.example', 5), 0);
    // Seen before (so links pass), and the replayed line counts toward the repeat.
    expect(mod.judge(msg('visit spam.example', 5), 1000)?.rule).toBe('repeated-message');
  });
});
