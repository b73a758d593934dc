import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type SettingsFile, SettingsStore } from '../../../../electron/app/settings';
import { SETTINGS_VERSION } from '../../../../electron/app/settings-migrations';
import { ASIDE_SUFFIX, useSettingsDir } from './settings-file-fixtures';

const TERMS = [
  { pattern: 'free followers', kind: 'plain' },
  { pattern: 'x', kind: 'foo' },
  { pattern: 'b*tcoin', kind: 'wildcard' },
];
/** A file as a streamer has it: auto-moderation on with three blocked terms, one of an unknown kind. */
const withTerms = {
  version: SETTINGS_VERSION,
  clientId: 'mine',
  automod: { enabled: true, dryRun: false, blockedTerms: { terms: TERMS }, caps: { enabled: true } },
};

describe('one bad entry in the settings drops only itself', () => {
  const fx = useSettingsDir();

  it('a blocked term of an unknown kind: only it dropped and named, every other rule kept, the original kept aside', () => {
    const text = JSON.stringify(withTerms);
    writeFileSync(fx.file, text);
    const { automod, clientId } = fx.open().values();
    expect(clientId).toBe('mine');
    expect(automod).toMatchObject({ enabled: true, dryRun: false, caps: { enabled: true } });
    expect(automod.blockedTerms.terms).toEqual([TERMS[0], TERMS[2]]);
    const aside = `${fx.file}${ASIDE_SUFFIX}`;
    expect(fx.notices).toEqual([
      {
        line:
          'Greenroom: some saved settings could not be read and were left out: blocked term “x” was dropped: ' +
          `unknown kind ‘foo’. The settings file as it was is kept as ${aside}.`,
        details: 'automod.blockedTerms.terms[1]: Invalid option: expected one of "plain"|"wildcard"|"regex"',
      },
    ]);
    // The original, byte for byte, beside the file written without the term.
    expect(readFileSync(aside, 'utf8')).toBe(text);
    expect(fx.onDisk()).toMatchObject({ automod: { enabled: true, blockedTerms: { terms: [TERMS[0], TERMS[2]] } } });
    // Read again, nothing more is left out and nothing more is kept aside.
    fx.notices.length = 0;
    fx.open();
    expect(fx.notices).toEqual([]);
    expect(fx.aside()).toEqual([`${'greenroom-settings.json'}${ASIDE_SUFFIX}`]);
  });

  it.each([
    [
      'a command without a reply',
      { chatBot: { commands: [{ name: 'hi', reply: 'hello' }, { name: 'oops' }] } },
      'command “!oops” was dropped: reply is missing',
      (v: Values) => v.chatBot.commands.map((c) => c.name),
      ['hi'],
    ],
    [
      'an alias that is not a command name',
      { chatBot: { commands: [{ name: 'hi', reply: 'hello', aliases: ['yo', 'not ok'] }] } },
      'command alias “not ok” was dropped: it must be 1–25 letters, digits or _ (without the !)',
      (v: Values) => v.chatBot.commands[0]!.aliases,
      ['yo'],
    ],
    [
      'two commands with one name (the later one goes)',
      {
        chatBot: {
          commands: [
            { name: 'hi', reply: 'first' },
            { name: 'HI', reply: 'second' },
          ],
        },
      },
      'command “!HI” was dropped: a command name or alias is used twice',
      (v: Values) => v.chatBot.commands.map((c) => c.reply),
      ['first'],
    ],
    [
      'a timer with an empty message',
      { chatBot: { timers: [{ message: '' }, { message: 'Follow the stream!' }] } },
      'a timer was dropped: message is empty',
      (v: Values) => v.chatBot.timers.map((t) => t.message),
      ['Follow the stream!'],
    ],
    [
      'an event reply whose message is too long',
      { chatBot: { replies: { follow: { enabled: true, template: 'x'.repeat(501) }, kicks: { enabled: true } } } },
      'a value in the reply to follows was reset to its default: template is too long (at most 500)',
      (v: Values) => [v.chatBot.replies.follow.enabled, v.chatBot.replies.kicks.enabled],
      [true, true],
    ],
    [
      'a highlight without a term',
      { chatTools: { highlights: [{ term: 'pog' }, { colour: '#ff0000' }] } },
      'a highlight was dropped: term is missing',
      (v: Values) => v.chatTools.highlights.map((h) => h.term),
      ['pog'],
    ],
    [
      'an ignored name that is not a Kick name',
      { chatTools: { ignoredUsers: ['spam_bot', 'not a name!'] } },
      'ignored chatter “not a name!” was dropped: it must be a Kick username (letters, digits, _; at most 25)',
      (v: Values) => v.chatTools.ignoredUsers,
      ['spam_bot'],
    ],
    [
      'an empty remembered reward',
      { managedRewardIds: ['R1', ''] },
      'a remembered reward was dropped: it is empty',
      (v: Values) => v.managedRewardIds,
      ['R1'],
    ],
    [
      'a mod note on a user id that is not a number',
      { modNotes: { '42': 'kind', abc: 'lost?' } },
      'the mod note on user “abc” was dropped: its key is not valid',
      (v: Values) => Object.keys(v.modNotes),
      ['42'],
    ],
  ])('%s', (_, stored, named, read, kept) => {
    writeFileSync(fx.file, JSON.stringify({ version: SETTINGS_VERSION, ...stored }));
    expect(read(fx.open().values())).toEqual(kept);
    expect(fx.notices).toHaveLength(1);
    expect(fx.notices[0]!.line).toContain(`left out: ${named}. The settings file as it was is kept as`);
    expect(fx.aside()).toHaveLength(1);
  });

  it('many commands that clash keep the first of each name, and a command with a bad alias is named once', () => {
    const commands = Array.from({ length: 40 }, (_, i) => ({ name: `c${i % 10}`, reply: `reply ${i}` }));
    commands.push({ name: 'last', reply: '', aliases: ['not ok'] } as (typeof commands)[number]);
    writeFileSync(fx.file, JSON.stringify({ version: SETTINGS_VERSION, chatBot: { commands } }));
    const kept = fx.open().values().chatBot.commands;
    expect(kept.map((c) => c.reply)).toEqual(Array.from({ length: 10 }, (_, i) => `reply ${i}`));
    const details = fx.notices[0]!.details!.split('; ');
    expect(details).toHaveLength(31);
    expect(details.filter((d) => d.startsWith('chatBot.commands[40]'))).toEqual([
      'chatBot.commands[40]: Too small: expected string to have >=1 characters',
    ]);
  });

  it('more highlights than the limit: the first ones are kept; a long list is counted, all of it in the details', () => {
    const highlights = Array.from({ length: 53 }, (_, i) => ({ term: `t${i}` }));
    writeFileSync(fx.file, JSON.stringify({ version: SETTINGS_VERSION, chatTools: { highlights } }));
    expect(
      fx
        .open()
        .values()
        .chatTools.highlights.map((h) => h.term),
    ).toEqual(highlights.slice(0, 50).map((h) => h.term));
    expect(fx.notices[0]!.line).toContain(
      'highlight “t50” was dropped: only the first 50 are kept; highlight “t51” was dropped: only the first 50 are kept; highlight “t52” was dropped: only the first 50 are kept.',
    );
    highlights.push({ term: 't53' });
    writeFileSync(fx.file, JSON.stringify({ version: SETTINGS_VERSION, chatTools: { highlights } }));
    fx.notices.length = 0;
    fx.open();
    expect(fx.notices[0]!.line).toContain('; and 1 more. The settings file');
    expect(fx.notices[0]!.details!.split('; ')).toHaveLength(4);
  });

  it('a whole field that cannot be read falls back alone, and is named too', () => {
    writeFileSync(fx.file, JSON.stringify({ ...withTerms, chatScrollback: 5, automod: 'on' }));
    const values = fx.open().values();
    expect(values.clientId).toBe('mine');
    expect(fx.notices[0]!.line).toContain(
      'left out: The chat length was reset to its default: it is too small (at least 100); The auto-moderation rules were reset to their defaults: it should be a group of settings.',
    );
  });
});

describe('the file is not written without the original kept', () => {
  it('when the copy cannot be made, nothing is written at start nor on a change', () => {
    const writes: unknown[] = [];
    const file: SettingsFile = {
      path: '/data/greenroom-settings.json',
      read: () => withTerms,
      write: (doc) => void writes.push(doc),
      keepOriginal: () => {
        throw Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' });
      },
    };
    const said: string[] = [];
    const store = new SettingsStore(file, { randomBytes: (n) => new Uint8Array(n), notice: (l) => said.push(l) });
    expect(store.values().automod.blockedTerms.terms).toHaveLength(2);
    expect(said).toEqual([
      expect.stringMatching(
        /blocked term “x” was dropped: unknown kind ‘foo’\. The file was left as it was: Greenroom could not save the settings to \/data\/greenroom-settings\.json \(the disk is full\); Greenroom starts with them/,
      ),
    ]);
    expect(() => store.update({ chatScrollback: 300 })).toThrow(/the disk is full\); nothing was changed/);
    expect(store.values().chatScrollback).toBe(1000);
    expect(writes).toEqual([]);
  });
});

type Values = ReturnType<SettingsStore['values']>;
