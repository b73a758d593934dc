import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSettings, SETTINGS_FILE_NAME } from '../../../../electron/app/settings';
import { tempDir } from '../../../helpers/temp-dir';

function store() {
  const dir = tempDir('greenroom-live-settings-');
  return { dir, settings: openSettings(dir, { randomBytes, log: () => {} }) };
}

describe("settings: Kick's live chat connection", () => {
  it('is on by default, with no ids', () => {
    expect(store().settings.values().liveSocket).toEqual({
      enabled: true,
      channelId: null,
      chatroomId: null,
      idsFor: null,
    });
  });

  it('is on for a file from before the connection, and stays off where the file says off', () => {
    const { dir } = store();
    const file = join(dir, `${SETTINGS_FILE_NAME}.json`);
    writeFileSync(file, JSON.stringify({ version: 4, chatScrollback: 700 }));
    expect(openSettings(dir, { randomBytes, log: () => {} }).values().liveSocket.enabled).toBe(true);
    const off = { enabled: false, channelId: 5, chatroomId: 6, idsFor: 77 };
    writeFileSync(file, JSON.stringify({ version: 4, chatScrollback: 700, liveSocket: off }));
    const reopened = openSettings(dir, { randomBytes, log: () => {} });
    expect(reopened.values().liveSocket).toEqual(off);
    expect(reopened.values().chatScrollback).toBe(700);
  });

  it('keeps the ids when only the switch changes, and frees entered ids for the next account to claim', () => {
    const { settings } = store();
    settings.setLiveSocket({ enabled: true, channelId: 5, chatroomId: 6, idsFor: 77 });
    settings.update({ liveSocket: { enabled: false } });
    expect(settings.values().liveSocket).toEqual({ enabled: false, channelId: 5, chatroomId: 6, idsFor: 77 });
    settings.update({ liveSocket: { channelId: 8, chatroomId: 9 } });
    expect(settings.values().liveSocket).toEqual({ enabled: false, channelId: 8, chatroomId: 9, idsFor: null });
  });

  it('puts a hand-edited bad value back to the default alone', () => {
    const { dir, settings } = store();
    settings.update({ chatScrollback: 500 });
    const file = join(dir, `${SETTINGS_FILE_NAME}.json`);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...doc, liveSocket: { enabled: 'yes', channelId: -3 } }));
    const reopened = openSettings(dir, { randomBytes, log: () => {} });
    expect(reopened.values().liveSocket).toEqual({ enabled: true, channelId: null, chatroomId: null, idsFor: null });
    expect(reopened.values().chatScrollback).toBe(500);
  });
});
