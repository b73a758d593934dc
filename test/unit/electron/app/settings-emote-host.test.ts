/**
 * The emote host reaches the panel's and the window's image policy, so a hand-edited settings file cannot widen
 * it: a wildcard or an odd host goes back to Kick's host alone, says so, and leaves every other field as saved
 * (shared/emote-host.ts).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSettings, SETTINGS_FILE_NAME } from '../../../../electron/app/settings';
import { buildPanelCsp } from '../../../../electron/panel-server/csp';
import { tempDir } from '../../../helpers/temp-dir';

function reopenedWith(emoteHost: string) {
  const dir = tempDir('greenroom-emote-host-');
  openSettings(dir, { randomBytes, log: () => undefined }).update({ chatScrollback: 500 });
  const file = join(dir, `${SETTINGS_FILE_NAME}.json`);
  const doc = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...doc, emoteHost }));
  const logs: string[] = [];
  const settings = openSettings(dir, { randomBytes, log: (line) => logs.push(line) });
  return { values: settings.values(), logs };
}

describe('settings: the emote host', () => {
  it.each([
    ['a wildcard host', 'https://*'],
    ['a wildcard subdomain', 'https://*.example.com'],
    ['an escaped star', 'https://a%2A.example'],
    ['a user and password', 'https://user:pw@files.kick.com'],
    ['plain http to another computer', 'http://emotes.example.com'],
    ['a path', 'https://files.kick.com/emotes'],
    ['a query', 'https://files.kick.com/?x=1'],
  ])('puts %s back to Kick’s host, says so, and keeps the rest', (_name, emoteHost) => {
    const { values, logs } = reopenedWith(emoteHost);
    expect(values.emoteHost).toBe('https://files.kick.com');
    expect(values.chatScrollback).toBe(500);
    expect(logs.join('\n')).toContain('emoteHost');
    const csp = buildPanelCsp({ port: 7531, imageHosts: [values.emoteHost] });
    expect(csp).not.toContain('*.');
    expect(csp).not.toMatch(/https:\/\/\*/);
  });

  it.each([
    ['another https host', 'https://emotes.example.com', 'https://emotes.example.com'],
    ['an https port', 'https://cdn.example.com:8443', 'https://cdn.example.com:8443'],
    ['this computer over http', 'http://127.0.0.1:4000', 'http://127.0.0.1:4000'],
  ])('keeps %s', (_name, emoteHost, kept) => {
    expect(reopenedWith(emoteHost).values.emoteHost).toBe(kept);
  });
});
