/**
 * When `npm start` tries the Electron download again, as the README states it: after a failed download,
 * however quick the failure, later starts do not try again by themselves; they say so in one line and serve
 * the panel. `npm run install-electron` tries again, and a memory left by another Electron version does not
 * hold back this one. Through the real entry points (scripts/start.mjs and scripts/install-electron.mjs) in a
 * temp copy of the app, against a mirror on 127.0.0.1 (electron-install-fixtures.ts).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findElectronBinary } from '../../../scripts/find-electron.mjs';
import { installStateDir } from '../../../scripts/electron-install-policy.mjs';
import {
  INSTEAD,
  LOG,
  PANEL_LINE,
  READY_LINE,
  binaryInZip,
  fallbackLines,
  makeAppCopy,
  sha256,
  startApp,
  startMirror,
  sumsPath,
  version,
  zipName,
  zipPath,
  useLaunchLifecycle,
  stubElectronZip,
} from './electron-install-fixtures';

/** Either the stub's window line or the panel's: without the binary, start.mjs serves the panel instead. */
const WINDOW_OR_PANEL = /^(Greenroom: window open|Greenroom panel: .*)$/m;

describe.skipIf(!binaryInZip)('npm start after a failed Electron download', () => {
  const zip = stubElectronZip();

  useLaunchLifecycle();

  it('does not try again by itself, even after a quick failure; `npm run install-electron` does', async () => {
    const down = await startMirror({ zip, checksum: sha256(zip), status: 503 });
    const up = await startMirror({ zip, checksum: sha256(zip) });
    try {
      const root = makeAppCopy();
      const failing = { ELECTRON_MIRROR: down.url, electron_use_remote_checksums: '1' };
      const first = startApp(root, failing);
      await first.waitFor(PANEL_LINE);
      const reason = `${new URL(down.url).host} answered 503 Service Unavailable for ${zipName}`;
      expect(fallbackLines(first.output())).toEqual([
        `Could not download Electron for the desktop window: ${reason}. Details: ${LOG}. ${INSTEAD}`,
      ]);
      expect(down.requests).toEqual([zipPath]);
      expect(await first.stop()).toBe(0);

      // The failure took well under a second; the next start still does not ask the mirror again.
      const second = startApp(root, failing);
      await second.waitFor(PANEL_LINE);
      expect(fallbackLines(second.output())).toEqual([
        `Skipped downloading Electron for the desktop window: it failed a moment ago (${reason}); ` +
          `\`npm run install-electron\` tries again. ${INSTEAD}`,
      ]);
      expect(second.output()).not.toContain('Installing Electron');
      expect(down.requests).toEqual([zipPath]);
      expect(await second.stop()).toBe(0);

      // `npm run install-electron` tries again at once, here from a mirror that answers.
      const install = startApp(
        root,
        { ELECTRON_MIRROR: up.url, electron_use_remote_checksums: '1' },
        {
          script: 'install-electron.mjs',
        },
      );
      expect(await install.exited).toBe(0);
      expect(install.output()).toMatch(new RegExp(`^Electron ${version} installed in \\d+ s\\.$`, 'm'));
      expect(up.requests).toEqual([zipPath, sumsPath]);

      // The memory is gone with the success: the next start opens the window, downloading nothing.
      const third = startApp(root, failing);
      await third.waitFor(WINDOW_OR_PANEL);
      expect(third.output()).toContain(READY_LINE);
      expect(await third.exited).toBe(0);
      expect(fallbackLines(third.output())).toEqual([]);
      expect(existsSync(join(root, 'stub-ran.txt'))).toBe(true);
      expect(down.requests).toEqual([zipPath]);
    } finally {
      await down.close();
      await up.close();
    }
  });

  it('`npm run install-electron` that fails again is remembered again', async () => {
    const down = await startMirror({ zip, checksum: sha256(zip), status: 404 });
    try {
      const root = makeAppCopy();
      const env = { ELECTRON_MIRROR: down.url };
      const install = startApp(root, env, { script: 'install-electron.mjs' });
      expect(await install.exited).toBe(1);
      expect(down.requests).toEqual([zipPath]);

      const start = startApp(root, env);
      await start.waitFor(PANEL_LINE);
      expect(fallbackLines(start.output())).toEqual([
        expect.stringMatching(
          /^Skipped downloading Electron for the desktop window: it failed a moment ago \(.* answered 404 Not Found for /,
        ),
      ]);
      expect(down.requests).toEqual([zipPath]);
      expect(await start.stop()).toBe(0);
      expect(findElectronBinary(root).ok).toBe(false);
    } finally {
      await down.close();
    }
  });

  it('a failure remembered for another Electron version does not hold back this one', async () => {
    const mirror = await startMirror({ zip, checksum: sha256(zip) });
    try {
      const root = makeAppCopy();
      const memory = join(installStateDir(root), 'electron-install.json');
      const other = { version: '44.0.0', failedAt: Date.now(), seconds: 300, timedOut: true, reason: 'too slow' };
      // The copy's node_modules/.cache is its own folder: makeAppCopy links every package but that one.
      mkdirSync(installStateDir(root), { recursive: true });
      writeFileSync(memory, `${JSON.stringify(other)}\n`);
      const run = startApp(root, { ELECTRON_MIRROR: mirror.url, electron_use_remote_checksums: '1' });
      await run.waitFor(WINDOW_OR_PANEL);
      expect(run.output()).toContain(`Installing Electron ${version}`);
      expect(run.output()).toContain(READY_LINE);
      expect(await run.exited).toBe(0);
      expect(mirror.requests).toEqual([zipPath, sumsPath]);
      expect(existsSync(memory)).toBe(false);
    } finally {
      await mirror.close();
    }
  });
});
