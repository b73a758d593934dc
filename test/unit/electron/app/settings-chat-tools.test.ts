import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSettings, SETTINGS_FILE_NAME, type SettingsStore } from '../../../../electron/app/settings';
import { chatToolsSettingsSchema, DEFAULT_CHAT_TOOLS_SETTINGS, MOD_NOTES_MAX } from '../../../../shared/chat-tools';

describe('settings: chat tools and mod notes', () => {
  let dir: string;
  const open = (): SettingsStore =>
    openSettings(dir, { log: () => undefined, nowMs: () => 0, randomBytes: (n) => new Uint8Array(n).fill(7) });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'greenroom-chat-tools-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('starts with no highlights or ignored chatters, first-message marks and inline events on', () => {
    expect(open().values().chatTools).toEqual({
      highlights: [],
      ignoredUsers: [],
      firstMessageHighlight: true,
      inlineEvents: true,
    });
    expect(DEFAULT_CHAT_TOOLS_SETTINGS).toEqual(open().values().chatTools);
  });

  it('keeps highlights and ignored chatters (names lower case, without @), and names the field it refuses', () => {
    const store = open();
    store.update({
      chatTools: {
        ...DEFAULT_CHAT_TOOLS_SETTINGS,
        highlights: [{ term: ' giveaway ', colour: '#ff0000', sound: true }],
        ignoredUsers: ['@SpamLord', 'nightbot'],
      },
    });
    expect(open().values().chatTools).toMatchObject({
      highlights: [{ term: 'giveaway', colour: '#ff0000', sound: true }],
      ignoredUsers: ['spamlord', 'nightbot'],
    });
    const bad = chatToolsSettingsSchema.safeParse({ highlights: [{ term: 'x', colour: 'red' }] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['highlights', 0, 'colour'], message: /#f5a623/ });
    expect(chatToolsSettingsSchema.safeParse({ ignoredUsers: ['has space'] }).error?.issues[0]?.message).toMatch(
      /Kick username/,
    );
  });

  it('keeps private mod notes across a restart, removes an empty one, and refuses past the limit', () => {
    const store = open();
    store.setModNote(7, 'warned about spoilers');
    store.setModNote(8, 'regular, friendly');
    store.setModNote(8, '');
    expect(open().values().modNotes).toEqual({ '7': 'warned about spoilers' });
    expect(JSON.parse(readFileSync(join(dir, `${SETTINGS_FILE_NAME}.json`), 'utf8'))).toMatchObject({
      modNotes: { '7': 'warned about spoilers' },
    });
    expect(() => store.setModNote(9, 'x'.repeat(501))).toThrow(/^modNotes: at most 500 characters/);
  });

  it('starts with no notes, saying so, when the file holds more than the limit', () => {
    open();
    const file = join(dir, `${SETTINGS_FILE_NAME}.json`);
    const many = Object.fromEntries(Array.from({ length: MOD_NOTES_MAX + 1 }, (_, i) => [String(i + 1), 'n']));
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), modNotes: many }));
    const lines: string[] = [];
    const store = openSettings(dir, {
      log: (l) => lines.push(l),
      nowMs: () => 0,
      randomBytes: (n) => new Uint8Array(n),
    });
    expect(store.values().modNotes).toEqual({});
    expect(lines.join('\n')).toMatch(/modNotes was invalid \(mod notes: at most 5000 chatters\)/);
  });
});
