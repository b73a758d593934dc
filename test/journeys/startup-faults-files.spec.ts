/**
 * Journey: the built app starts on a data folder whose files are not what they should be, the way a hand
 * edit, a bad sync or a planted link leaves them. Each time the app says so in one plain line naming the
 * file, where it was kept and what happens next; the panel in Chromium shows the same line; and nothing
 * outside the data folder is read or written. (The signed-in session cases are in startup-faults.spec.ts.)
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_FILE_NAME } from '../../electron/app/settings';
import { PANEL_TOKEN_FILE_NAME } from '../../electron/panel-server/panel-token';
import { MOD_LOG_FILE } from '../../electron/services/mod-log-file';
import { type AppRun, killLeftovers, startApp } from './app-process';
import { connectPanel, launchChromium, newContext, openPanel, value } from './panel';

const WAIT = { timeout: 15_000 };
const SETTINGS = `${SETTINGS_FILE_NAME}.json`;
const TERMS = [
  { pattern: 'free followers', kind: 'plain' },
  { pattern: 'x', kind: 'foo' },
  { pattern: 'b*tcoin', kind: 'wildcard' },
];

describe('journey: files in the data folder that are not what they should be', () => {
  let browser: Browser;
  let root: string;
  let app: AppRun | null = null;

  /** A data folder (and a place outside it) prepared by `prepare`. */
  const folder = (prepare: (dir: string, outside: string) => void): { dir: string; outside: string } => {
    const base = mkdtempSync(join(root, 'case-'));
    const dir = join(base, 'data');
    const outside = join(base, 'elsewhere');
    mkdirSync(dir, { mode: 0o700 });
    mkdirSync(outside);
    prepare(dir, outside);
    return { dir, outside };
  };

  /** Starts on `dir`, opens the panel in Chromium and returns both. */
  const startOn = async (dir: string): Promise<{ run: AppRun; page: Page }> => {
    app = await startApp({ dataDir: dir });
    return { run: app, page: await openPanel(await newContext(browser), app) };
  };

  /** The panel shows `text` among its start-up notices. */
  const panelSays = async (page: Page, text: string): Promise<void> => {
    await page.getByRole('status', { name: 'Start-up notices' }).getByText(text, { exact: false }).waitFor(WAIT);
  };

  const asideOf = (dir: string, name: string): string[] =>
    readdirSync(dir)
      .filter((f) => f.startsWith(`${name}.damaged-`))
      .map((f) => join(dir, f));

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'greenroom-journey-files-'));
    browser = await launchChromium();
  });

  afterEach(async () => {
    await app?.stop();
    app = null;
  });

  afterAll(async () => {
    await browser?.close();
    await killLeftovers();
    rmSync(root, { recursive: true, force: true });
  });

  it.each([
    ['null', 'null', 'it holds null, not settings'],
    ['a list', '[]', 'it holds a list, not settings'],
    [
      'the settings wrapped in [ … ]',
      '[{"version":4,"clientId":"01MINE","chatScrollback":300}]',
      'it holds a list, not settings',
    ],
  ])('a settings file that is %s: moved aside with a dated name, one line, default settings', async (_, text, why) => {
    const { dir } = folder((d) => writeFileSync(join(d, SETTINGS), text));
    const { run, page } = await startOn(dir);
    const file = join(dir, SETTINGS);
    const [aside] = asideOf(dir, SETTINGS);
    expect(readFileSync(aside!, 'utf8')).toBe(text);
    const line = `the settings file ${file} was damaged (${why}); it was moved to ${aside} and Greenroom starts with default settings.`;
    expect(run.notices).toEqual([`Greenroom: ${line}`]);
    await panelSays(page, `${file} was damaged (${why})`);
    const panel = connectPanel(run);
    try {
      expect((await value(panel.api.app.snapshot())).settings.chatScrollback).toBe(1000);
    } finally {
      panel.close();
    }
  });

  it('one blocked term of an unknown kind: only it is dropped and named; every other rule is kept', async () => {
    const text = JSON.stringify({
      version: 4,
      automod: { enabled: true, dryRun: false, blockedTerms: { terms: TERMS } },
    });
    const { dir } = folder((d) => writeFileSync(join(d, SETTINGS), text));
    const { run, page } = await startOn(dir);
    const [aside] = asideOf(dir, SETTINGS);
    expect(run.notices).toEqual([
      'Greenroom: some saved settings could not be read and were left out: blocked term “x” was dropped: ' +
        `unknown kind ‘foo’. The settings file as it was is kept as ${aside}.`,
    ]);
    expect(readFileSync(aside!, 'utf8')).toBe(text);
    await panelSays(page, 'blocked term “x” was dropped: unknown kind ‘foo’');
    const panel = connectPanel(run);
    try {
      const { automod } = (await value(panel.api.app.snapshot())).settings;
      expect(automod).toMatchObject({ enabled: true, dryRun: false });
      expect(automod.blockedTerms.terms).toEqual([TERMS[0], TERMS[2]]);
    } finally {
      panel.close();
    }
  });

  it('links in the data folder are not followed: settings, panel token and mod log elsewhere stay untouched', async () => {
    const outsideText = new Map<string, string>();
    const { dir, outside } = folder((d, o) => {
      const plant = (name: string, text: string): void => {
        writeFileSync(join(o, name), text);
        outsideText.set(join(o, name), text);
        symlinkSync(join(o, name), join(d, name));
      };
      plant(SETTINGS, JSON.stringify({ clientId: 'from-elsewhere' }));
      plant(PANEL_TOKEN_FILE_NAME, 'the notes of another program\n');
      plant(
        MOD_LOG_FILE,
        `${JSON.stringify({ id: 'x', kind: 'ban', atMs: 1, targetUserId: 1, targetUsername: 'elsewhere', ok: true })}\n`,
      );
    });
    const { run, page } = await startOn(dir);
    const link = (name: string) =>
      `${join(dir, name)} is a link to another place (${join(outside, name)}), which Greenroom will not follow`;
    expect(run.notices).toEqual([
      expect.stringContaining(`Greenroom: the settings file ${link(SETTINGS)}; it was moved to`),
      expect.stringContaining(`Greenroom: the mod log ${link(MOD_LOG_FILE)}; it was moved to`),
      expect.stringContaining(`Greenroom: the panel token file ${link(PANEL_TOKEN_FILE_NAME)}; it was moved to`),
    ]);
    await panelSays(page, link(MOD_LOG_FILE));
    const panel = connectPanel(run);
    try {
      expect(await value(panel.api.mod.log())).toEqual([]);
      const saved = await value(panel.api.settings.update({ chatScrollback: 250 }));
      expect(saved.chatScrollback).toBe(250);
      expect(saved.clientId).toBe('');
    } finally {
      panel.close();
    }
    expect(JSON.parse(readFileSync(join(dir, SETTINGS), 'utf8'))).toMatchObject({ chatScrollback: 250 });
    for (const [file, text] of outsideText) {
      expect(readFileSync(file, 'utf8')).toBe(text);
    }
    for (const name of [SETTINGS, PANEL_TOKEN_FILE_NAME, MOD_LOG_FILE]) {
      expect(readlinkSync(asideOf(dir, name)[0]!)).toBe(join(outside, name));
    }
    // The dock URL's token is the new one kept in the data folder, not the other program's notes.
    expect(new URL(run.panelUrl).searchParams.get('token')).toBe(
      readFileSync(join(dir, PANEL_TOKEN_FILE_NAME), 'utf8').trim(),
    );
  });
});
