/**
 * What the settings-file tests share: a data folder with a file outside it (where planted links point),
 * the settings opened as the app opens them at start, and the notices they give.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { openSettings, SETTINGS_FILE_NAME, type SettingsStore } from '../../../../electron/app/settings';

/** 2025-01-31T18:04:05.123Z, so a moved-aside file's name is known. */
export const NOW_MS = Date.UTC(2025, 0, 31, 18, 4, 5, 123);
export const ASIDE_SUFFIX = '.damaged-2025-01-31T18-04-05-123Z';
export const OUTSIDE_TEXT = '{"clientId":"from-elsewhere"}';

export interface SettingsFixture {
  dir: string;
  /** The settings file in `dir`. */
  file: string;
  /** A file outside the data folder. */
  outside: string;
  notices: { line: string; details?: string }[];
  logs: string[];
  open(): SettingsStore;
  onDisk(): Record<string, unknown>;
  /** The names in the data folder with `.damaged-` in them. */
  aside(): string[];
}

/** Registers a fresh data folder per test and fills `fx`. */
export function useSettingsDir(): SettingsFixture {
  const fx = {} as SettingsFixture;
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'greenroom-settings-file-'));
    fx.dir = join(root, 'data');
    mkdirSync(fx.dir);
    fx.file = join(fx.dir, `${SETTINGS_FILE_NAME}.json`);
    fx.outside = join(root, 'outside.json');
    writeFileSync(fx.outside, OUTSIDE_TEXT);
    fx.notices = [];
    fx.logs = [];
    fx.open = () =>
      openSettings(fx.dir, {
        log: (line) => fx.logs.push(line),
        notice: (line, details) => fx.notices.push(details === undefined ? { line } : { line, details }),
        nowMs: () => NOW_MS,
        randomBytes: (n) => new Uint8Array(n).fill(7),
      });
    fx.onDisk = () => JSON.parse(readFileSync(fx.file, 'utf8')) as Record<string, unknown>;
    fx.aside = () => readdirSync(fx.dir).filter((name) => name.includes('.damaged-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  return fx;
}
