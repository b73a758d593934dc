import { describe, expect, it } from 'vitest';
import { AUTOMATION_FILE_MAX_BYTES, planAutomationImport, readAutomationFile } from '../../../shared/automation-import';
import { accepted, bytesOf, exportFile, refused, streamerSetup } from './automation-fixtures';

const plan = (file: unknown) => planAutomationImport(file, streamerSetup());

describe('planning an automation import', () => {
  it('lists per section what a file replaces, and keeps the sections it does not hold', () => {
    const setup = streamerSetup();
    const file = exportFile(setup);
    const automod = file.automod as typeof setup.automod;
    automod.blockedTerms.terms = automod.blockedTerms.terms.slice(0, 3);
    file.chatBot = {
      commands: [...setup.chatBot.commands, { name: 'new1', reply: 'a' }, { name: 'new2', reply: 'b' }],
    };
    const result = accepted(plan(file));
    expect(result.changes).toEqual([
      'Blocked terms: 12 terms, on, delete → 3 terms, on, delete',
      'Commands: 5 commands → 7 commands',
    ]);
    expect(result.kept).toEqual(expect.arrayContaining(['Timers', 'Event replies', 'Event replies sent']));
    // The file's chat bot names only commands: the timers and replies go to main as they are now.
    expect(result.patch.chatBot?.timers).toEqual(setup.chatBot.timers);
    expect(result.patch.chatBot?.replies.follow.enabled).toBe(true);
    expect(result.patch.chatBot?.commands).toHaveLength(7);
  });

  it('replaces only the fields a section names: a new action keeps the terms', () => {
    const file = exportFile(streamerSetup(), { chatBot: undefined });
    delete file.chatBot;
    file.automod = { blockedTerms: { action: { kind: 'timeout' } } };
    const result = accepted(plan(file));
    expect(result.changes).toEqual(['Blocked terms: 12 terms, on, delete → 12 terms, on, 5 min timeout']);
    expect(result.patch.automod?.blockedTerms.terms).toHaveLength(12);
    expect(result.patch.chatBot).toBeUndefined();
  });

  it('refuses sections holding only __proto__ and constructor: nothing recognised, nothing replaced', () => {
    const text =
      '{"kind":"greenroom-automation","version":1,' +
      '"automod":{"__proto__":{"enabled":false},"constructor":{"prototype":{"x":1}}},' +
      '"chatBot":{"__proto__":{"commands":[]},"constructor":1}}';
    const read = readAutomationFile(bytesOf(text));
    const refusal = refused(plan(read.ok && read.value));
    expect(refusal.reason).toMatch(/holds none of the rules, commands, timers, replies or OBS actions/);
    expect(refusal.detail).toMatch(/automod\."__proto__", automod\."constructor"/);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it.each([
    ['{}', /not a Greenroom automation export/],
    ['[]', /not a Greenroom automation export/],
    ['null', /not a Greenroom automation export/],
    ['"greenroom-automation"', /not a Greenroom automation export/],
    ['{"__proto__":{"kind":"greenroom-automation","automod":{"enabled":true}}}', /not a Greenroom automation export/],
    ['{"kind":"greenroom-automation"}', /holds none of the rules/],
    ['{"kind":"greenroom-automation","automod":{},"chatBot":{"paused":true}}', /holds none of the rules/],
    ['{"kind":"greenroom-automation","automod":{"blockedTerms":{}}}', /holds none of the rules/],
    ['{"kind":"greenroom-automation","version":2,"automod":{"enabled":true}}', /newer Greenroom/],
  ])('refuses %s with a plain reason', (text, reason) => {
    const read = readAutomationFile(bytesOf(text));
    expect(refused(plan(read.ok ? read.value : undefined)).reason).toMatch(reason);
  });

  it.each([
    [{ automod: 'yes' }, /The auto-moderation rules in this file are not in the form/, /automod: expected an object/],
    [{ chatBot: [] }, /The chat bot settings in this file are not in the form/, /found a list/],
    [{ automod: { blockedTerms: 'lots' } }, /^Blocked terms in this file: not in the form/, /automod\.blockedTerms/],
    [{ automod: { dryRun: 'no' } }, /^Dry run in this file: not in the form/, /automod\.dryRun/],
    [{ chatBot: { commands: {} } }, /^Commands in this file: not in the form/, /chatBot\.commands/],
    [
      { chatBot: { timers: [{ message: 'hi', everySec: 5 }] } },
      /^Timers in this file, number 1: at least 30/,
      /everySec/,
    ],
    [{ chatBot: { commands: [{ name: 'a b', reply: 'x' }] } }, /number 1: must be 1–25 letters/, /commands\.0\.name/],
    [{ automod: { blockedTerms: { action: { kind: 'nuke' } } } }, /must be one of hide, delete/, /action\.kind/],
  ])('refuses sections of the wrong type, naming the section: %j', (over, reason, detail) => {
    const refusal = refused(plan(exportFile(streamerSetup(), { automod: {}, chatBot: {}, ...over })));
    expect(refusal.reason).toMatch(reason);
    expect(refusal.reason).toMatch(/Nothing was changed\.$/);
    expect(refusal.detail).toMatch(detail);
  });

  it('refuses a text far over its limit without echoing it', () => {
    const file = exportFile(streamerSetup(), {
      automod: { blockedTerms: { terms: [{ pattern: 'x'.repeat(1_500_000) }] } },
    });
    const refusal = refused(plan(file));
    expect(refusal.reason).toBe('Blocked terms in this file, number 1: at most 200 characters. Nothing was changed.');
    expect(refusal.detail!.length).toBeLessThan(300);
  });

  it('refuses more terms than the rules hold, with the count, while the file is within size', () => {
    const terms = Array.from({ length: 5000 }, (_, i) => ({ pattern: `t${i}` }));
    const text = JSON.stringify(exportFile(streamerSetup(), { automod: { blockedTerms: { terms } }, chatBot: {} }));
    expect(text.length).toBeLessThan(AUTOMATION_FILE_MAX_BYTES);
    const read = readAutomationFile(bytesOf(text));
    expect(refused(plan(read.ok && read.value)).reason).toBe(
      'Blocked terms in this file: at most 1,000 (it has 5,000). Nothing was changed.',
    );
  });

  it('ignores deeply nested JSON where nothing is read, and refuses it where a section is', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    const ignored = `{"kind":"greenroom-automation","extra":${deep},"chatBot":{"timers":[]}}`;
    const read = readAutomationFile(bytesOf(ignored));
    const result = accepted(plan(read.ok && read.value));
    expect(result.changes).toEqual(['Timers: 2 timers → 0 timers']);
    expect(result.ignored).toEqual(['"extra"']);
    const inSection = readAutomationFile(bytesOf(`{"kind":"greenroom-automation","chatBot":{"commands":${deep}}}`));
    expect(refused(plan(inSection.ok && inSection.value)).reason).toMatch(/^Commands in this file, number 1/);
  });

  it('does not carry the pause switch: the header switch stays as it is', () => {
    const file = exportFile(streamerSetup());
    (file.chatBot as { paused: boolean }).paused = true;
    (file.chatBot as { timers: unknown[] }).timers = [];
    expect(accepted(plan(file)).patch.chatBot?.paused).toBe(false);
  });

  it('says when a file matches the setup: no changes listed', () => {
    expect(accepted(plan(exportFile(streamerSetup()))).changes).toEqual([]);
  });

  it('refuses, before sending, settings larger than the panel socket carries', () => {
    const file = exportFile(streamerSetup(), { chatBot: { timers: [] } });
    const refusal = refused(planAutomationImport(file, streamerSetup(), { sendMaxBytes: 1000 }));
    expect(refusal.reason).toMatch(/^These settings are too large to send to Greenroom \(\d+ kB; at most 1 kB\)/);
  });
});

describe('reading an automation file', () => {
  it('refuses an oversized file with its size and the limit, unparsed', () => {
    const huge = new Uint8Array(50_000_000);
    expect(refused(readAutomationFile(huge)).reason).toBe(
      'This file is 50.0 MB; the limit is 2 MB. Choose a file exported from Greenroom’s Automation tab.',
    );
  });

  it.each([
    [new Uint8Array(0), /This file is empty/],
    [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00]), /not a text file/],
    [new Uint8Array([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]), /saved as UTF-16 text/],
    [bytesOf('{"kind": "greenroom-automation",'), /not JSON/],
    [bytesOf('{"a":1}\u0000'), /not JSON/],
  ])('refuses a file that is not UTF-8 JSON (%#)', (bytes, reason) => {
    expect(refused(readAutomationFile(bytes)).reason).toMatch(reason);
  });

  it('reads a UTF-8 file with a byte-order mark', () => {
    const read = readAutomationFile(new Uint8Array([0xef, 0xbb, 0xbf, ...bytesOf('{"kind":"x"}')]));
    expect(read).toEqual({ ok: true, value: { kind: 'x' } });
  });
});
