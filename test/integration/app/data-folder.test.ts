/**
 * The data folder through the real start (launchGreenroom, panel-only, sandbox mode): a settings file with
 * one bad blocked term, and links planted where the mod log, the panel token and the journal belong. The
 * start names each problem once, on the printed lines and in the panel's snapshot; nothing outside the data
 * folder is read or written; `settings:update` through the router refuses a link planted while running;
 * and everything Greenroom makes there is 0600 (files) or 0700 (folders).
 */
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_FILE_NAME } from '../../../electron/app/settings';
import { SETTINGS_VERSION } from '../../../electron/app/settings-migrations';
import { launchGreenroom, type Launched } from '../../../electron/launch/launch-greenroom';
import { createAppWebhookPort } from '../../../electron/app/webhook-port';
import { PANEL_TOKEN_FILE_NAME } from '../../../electron/panel-server/panel-token';
import { createNodeSecretStore } from '../../../electron/secrets/node-secret-store';
import { MOD_LOG_FILE } from '../../../electron/services/mod-log-file';
import { makeRendererDir } from '../../helpers/panel-fakes';

const TERMS = [
  { pattern: 'free followers', kind: 'plain' },
  { pattern: 'x', kind: 'foo' },
];
const OUTSIDE_LOG = `${JSON.stringify({ id: 'elsewhere', kind: 'ban', atMs: 1, targetUserId: 1, targetUsername: 'a', ok: true })}\n`;

describe('the data folder at start', () => {
  let root: string;
  let dir: string;
  let outside: string;
  let launched: Launched;
  const printed: string[] = [];
  /** Every file outside the data folder a link points at, with what it held. */
  const before = new Map<string, string>();

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'greenroom-data-folder-'));
    dir = join(root, 'data');
    outside = join(root, 'elsewhere');
    mkdirSync(join(outside, 'journal'), { recursive: true });
    const plant = (name: string, target: string, text: string | null): void => {
      if (text !== null) {
        writeFileSync(target, text);
        before.set(target, text);
      }
      symlinkSync(target, join(dir, name));
    };
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(
      join(dir, `${SETTINGS_FILE_NAME}.json`),
      JSON.stringify({
        version: SETTINGS_VERSION,
        redirectUri: 'http://127.0.0.1:0/callback',
        automod: { enabled: true, blockedTerms: { terms: TERMS } },
      }),
    );
    plant(MOD_LOG_FILE, join(outside, 'mod-log.jsonl'), OUTSIDE_LOG);
    plant(PANEL_TOKEN_FILE_NAME, join(outside, 'token'), 'my own notes\n');
    writeFileSync(join(outside, 'journal', 'journal-000001.log'), 'not a journal\n');
    before.set(join(outside, 'journal', 'journal-000001.log'), 'not a journal\n');
    plant('journal', join(outside, 'journal'), null);
    launched = await launchGreenroom({
      env: {
        GREENROOM_DATA_DIR: dir,
        GREENROOM_PANEL_PORT: '0',
        GREENROOM_WEBHOOK_PORT: '0',
        GREENROOM_TUNNEL: 'off',
        GREENROOM_SANDBOX_ACTIVITY: 'off',
      },
      defaultDataDir: join(root, 'unused'),
      staticDir: makeRendererDir().dir,
      openSecretStore: (d, notice) => Promise.resolve(createNodeSecretStore(d, { notice })),
      openExternal: () => Promise.resolve(),
      webhooks: createAppWebhookPort,
      log: () => undefined,
      notice: (line) => printed.push(line),
      panelRequired: true,
    });
  });

  afterAll(async () => {
    await launched?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('names each problem once, printed and in the panel’s snapshot, and keeps the rest of the rules', () => {
    const aside = (name: string) => `${join(dir, name)}.damaged-`;
    expect(printed).toEqual([
      expect.stringContaining(`the folder ${join(dir, 'journal')}, which holds the events received from Kick`),
      expect.stringContaining('left out: blocked term “x” was dropped: unknown kind ‘foo’.'),
      expect.stringContaining(`the mod log ${join(dir, MOD_LOG_FILE)} is a link to another place`),
      expect.stringContaining(`the panel token file ${join(dir, PANEL_TOKEN_FILE_NAME)} is a link to another place`),
    ]);
    for (const name of ['journal', MOD_LOG_FILE, PANEL_TOKEN_FILE_NAME]) {
      expect(printed.join('\n')).toContain(aside(name));
    }
    const { notices, settings } = launched.app.snapshot();
    expect(notices!.map((n) => n.text)).toEqual(
      printed.map((line) => line.replace(/^Greenroom: (\w)/, (_, c: string) => c.toUpperCase())),
    );
    expect(notices![1]!.details).toBe(
      'automod.blockedTerms.terms[1]: Invalid option: expected one of "plain"|"wildcard"|"regex"',
    );
    expect(settings.automod).toMatchObject({ enabled: true, blockedTerms: { terms: [TERMS[0]] } });
  });

  it('reads and writes nothing outside the data folder, and keeps each link aside as it was', () => {
    for (const [file, text] of before) {
      expect(readFileSync(file, 'utf8')).toBe(text);
    }
    expect(readdirSync(join(outside, 'journal'))).toEqual(['journal-000001.log']);
    const links = readdirSync(dir).filter((name) => lstatSync(join(dir, name)).isSymbolicLink());
    expect(links.map((name) => readlinkSync(join(dir, name))).sort()).toEqual(
      [join(outside, 'journal'), join(outside, 'mod-log.jsonl'), join(outside, 'token')].sort(),
    );
    expect(launched.app.snapshot().notices).toHaveLength(4);
  });

  it('settings:update through the router refuses a link planted while running, and changes nothing', async () => {
    const file = join(dir, `${SETTINGS_FILE_NAME}.json`);
    const target = join(outside, 'settings.json');
    writeFileSync(target, '{"planted":true}');
    renameSync(file, `${file}.kept`);
    symlinkSync(target, file);
    try {
      const result = await launched.router.invoke('settings:update', [{ chatScrollback: 300 }]);
      expect(result).toMatchObject({
        ok: false,
        error: { code: 'Internal', message: expect.stringContaining('is a link to another place') as unknown },
      });
      expect(readFileSync(target, 'utf8')).toBe('{"planted":true}');
      expect(launched.app.snapshot().settings.chatScrollback).toBe(1000);
    } finally {
      rmSync(file);
      renameSync(`${file}.kept`, file);
    }
    expect(await launched.router.invoke('settings:update', [{ chatScrollback: 300 }])).toMatchObject({ ok: true });
  });

  it('makes every file it writes 0600 and every folder 0700', () => {
    const modes: string[] = [];
    const walk = (at: string): void => {
      for (const name of readdirSync(at)) {
        const path = join(at, name);
        const stats = lstatSync(path);
        if (!stats.isSymbolicLink()) {
          modes.push(`${path.slice(dir.length)} ${(stats.mode & 0o777).toString(8)}`);
        }
        if (stats.isDirectory()) {
          walk(path);
        }
      }
    };
    walk(dir);
    expect(modes.length).toBeGreaterThan(6);
    const wrong = modes.filter((entry) => {
      const path = join(dir, entry.split(' ')[0]!);
      return !entry.endsWith(lstatSync(path).isDirectory() ? ' 700' : ' 600');
    });
    expect(wrong).toEqual([]);
    expect((lstatSync(dir).mode & 0o777).toString(8)).toBe('700');
  });
});
