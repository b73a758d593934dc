import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SETTINGS_VERSION } from '../../../../electron/app/settings-migrations';
import { ASIDE_SUFFIX, OUTSIDE_TEXT, useSettingsDir } from './settings-file-fixtures';

describe('a settings file that is not a settings document', () => {
  const fx = useSettingsDir();

  it.each([
    ['null', 'null', 'it holds null, not settings'],
    ['a list', '[1, 2]', 'it holds a list, not settings'],
    [
      'the settings wrapped in [ … ]',
      '[{"version": 4, "clientId": "mine", "chatScrollback": 300}]',
      'it holds a list, not settings',
    ],
    ['a single value', '"settings"', 'it holds a single value, not settings'],
  ])('%s: moved aside with a dated name, one line, defaults used', (_, text, why) => {
    writeFileSync(fx.file, text);
    const values = fx.open().values();
    expect(values.clientId).toBe('');
    expect(values.chatScrollback).toBe(1000);
    const aside = `${fx.file}${ASIDE_SUFFIX}`;
    expect(readFileSync(aside, 'utf8')).toBe(text);
    expect(fx.notices).toEqual([
      {
        line: `Greenroom: the settings file ${fx.file} was damaged (${why}); it was moved to ${aside} and Greenroom starts with default settings.`,
      },
    ]);
    // A fresh file with the defaults took its place.
    expect(fx.onDisk()).toMatchObject({ version: SETTINGS_VERSION, clientId: '' });
  });

  it('reads a file an editor saved with a byte order mark', () => {
    writeFileSync(fx.file, `\uFEFF${JSON.stringify({ version: SETTINGS_VERSION, clientId: 'bom' })}`);
    expect(fx.open().values().clientId).toBe('bom');
    expect(fx.notices).toEqual([]);
  });

  it('moves a folder in its place aside instead of failing the start', () => {
    mkdirSync(fx.file);
    expect(fx.open().values().chatScrollback).toBe(1000);
    expect(fx.notices[0]!.line).toContain(`${fx.file} is a folder, not a file, which Greenroom will not use;`);
    expect(lstatSync(`${fx.file}${ASIDE_SUFFIX}`).isDirectory()).toBe(true);
  });

  it('moves a pipe in its place aside without waiting for anything to be written into it', () => {
    expect(spawnSync('mkfifo', [fx.file]).status).toBe(0);
    fx.open();
    expect(fx.notices[0]!.line).toContain('is not a regular file (a pipe, socket or device)');
    expect(lstatSync(fx.file).isFile()).toBe(true);
  });
});

describe('a link in the data folder is not followed', () => {
  const fx = useSettingsDir();

  it('a settings file that links elsewhere: the link is moved aside, the file it points at untouched', () => {
    symlinkSync(fx.outside, fx.file);
    const store = fx.open();
    // Nothing was read through the link.
    expect(store.values().clientId).toBe('');
    const aside = `${fx.file}${ASIDE_SUFFIX}`;
    expect(fx.notices).toEqual([
      {
        line:
          `Greenroom: the settings file ${fx.file} is a link to another place (${fx.outside}), which Greenroom ` +
          `will not follow; it was moved to ${aside} and Greenroom starts with default settings.`,
      },
    ]);
    expect(readlinkSync(aside)).toBe(fx.outside);
    // A save goes to a file of its own in the data folder.
    store.update({ chatScrollback: 300 });
    expect(lstatSync(fx.file).isFile()).toBe(true);
    expect(fx.onDisk().chatScrollback).toBe(300);
    expect(readFileSync(fx.outside, 'utf8')).toBe(OUTSIDE_TEXT);
  });

  it('a link put there while Greenroom runs: the save is refused, nothing changes, the other file is untouched', () => {
    const store = fx.open();
    renameSync(fx.file, `${fx.file}.mine`);
    symlinkSync(fx.outside, fx.file);
    expect(() => store.update({ chatScrollback: 300 })).toThrow(
      expect.objectContaining({
        code: 'Internal',
        message: expect.stringContaining(
          `could not save the settings to ${fx.file} (it is a link to another place (${fx.outside}), which Greenroom does not follow); nothing was changed`,
        ) as unknown,
      }),
    );
    expect(store.values().chatScrollback).toBe(1000);
    expect(readFileSync(fx.outside, 'utf8')).toBe(OUTSIDE_TEXT);
    expect(readlinkSync(fx.file)).toBe(fx.outside);
  });
});

describe('file modes', () => {
  const fx = useSettingsDir();

  it('a settings file left readable by others is 0600 again after the next save', () => {
    writeFileSync(fx.file, JSON.stringify({ version: SETTINGS_VERSION }), { mode: 0o644 });
    chmodSync(fx.file, 0o644);
    fx.open().update({ chatScrollback: 200 });
    expect(statSync(fx.file).mode & 0o777).toBe(0o600);
  });
});
