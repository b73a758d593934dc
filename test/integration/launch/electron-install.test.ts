/**
 * The desktop install path: where the Electron binary is missing, `npm start` fetches it through
 * Electron's own installer, verifies it against the mirror's SHASUMS256.txt, shows progress and launches
 * it. A bad checksum, a mirror that refuses connections (offline), a download stopped at the time limit,
 * and the opt-out each end in one plain line and the panel server. Offline: a mirror on 127.0.0.1 serves a
 * stub Electron (fixtures/stub-electron.sh) zipped at the path @electron/get asks for, found through
 * ELECTRON_MIRROR, with electron_use_remote_checksums=1 and electron_config_cache in the test's temp dir.
 *
 * Each case runs scripts/start.mjs in a temp copy of the app: the scripts, a copy of the electron
 * package, the panel entry built from the sources, and links to every other package. Electron's installer
 * writes into the electron package's own directory, so the repository's node_modules/electron is never
 * touched and the Electron smoke test keeps skipping where no real binary exists. The copy's build step
 * is a stub: `npm start` would rebuild the shared out/ that other tests read at the same time.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { electronJsFlags } from '../../../scripts/app-node-flags.mjs';
import { electronPackageDir, findElectronBinary } from '../../../scripts/find-electron.mjs';
import { DEFAULT_TIMEOUT_S, parseInstallTimeout, TIMEOUT_VARIABLE } from '../../../scripts/electron-install-policy.mjs';
import {
  INSTEAD,
  LOG,
  PANEL_LINE,
  READY_LINE,
  binaryInZip,
  closedPort,
  fallbackLines,
  makeAppCopy,
  repo,
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

describe.skipIf(!binaryInZip)('npm start without an Electron binary', () => {
  const zip = stubElectronZip();
  const repoElectronBefore = findElectronBinary(repo);

  useLaunchLifecycle(() => {
    // The repository's own electron package is as it was: the stub never landed there.
    expect(findElectronBinary(repo)).toEqual(repoElectronBefore);
  });

  it('downloads the binary through the mirror, checks it against SHASUMS256.txt and launches it', async () => {
    const mirror = await startMirror({ zip, checksum: sha256(zip) });
    try {
      const root = makeAppCopy();
      const run = startApp(root, { ELECTRON_MIRROR: mirror.url, electron_use_remote_checksums: '1' });
      // Either the stub's window line or the panel's: without the download, start.mjs serves the panel.
      await run.waitFor(/^(Greenroom: window open|Greenroom panel: .*)$/m);
      expect(run.output()).toContain(READY_LINE);
      expect(await run.exited).toBe(0);
      const output = run.output();
      expect(mirror.requests).toEqual([zipPath, sumsPath]);
      expect(output).toContain(`Installing Electron ${version}, the desktop window's runtime (once)…\n`);
      expect(output).toContain(`  downloading 1 kB from ${new URL(mirror.url).host}\n`);
      expect(output).toMatch(/^ {2}100% of \d+ kB$/m);
      expect(output).toMatch(new RegExp(`^Electron ${version} installed in \\d+ s\\.$`, 'm'));
      expect(output).toContain(READY_LINE);
      expect(fallbackLines(output)).toEqual([]);
      const binary = join(electronPackageDir(root), 'dist', 'electron');
      // The app's heap settings reach Electron's main process on its command line (scripts/app-node-flags.mjs).
      expect(readFileSync(join(root, 'stub-ran.txt'), 'utf8')).toBe(`${binary}\n${electronJsFlags()}\n${root}\n`);
      expect(findElectronBinary(root)).toEqual({ ok: true, path: binary });

      // The next start finds the binary and asks the mirror for nothing.
      rmSync(join(root, 'stub-ran.txt'));
      const again = startApp(root, { ELECTRON_MIRROR: mirror.url, electron_use_remote_checksums: '1' });
      expect(await again.exited).toBe(0);
      expect(again.output()).not.toContain('Installing Electron');
      expect(existsSync(join(root, 'stub-ran.txt'))).toBe(true);
      expect(mirror.requests).toHaveLength(2);
    } finally {
      await mirror.close();
    }
  });

  it('refuses a download that does not match its checksum, says so in one line and serves the panel', async () => {
    const mirror = await startMirror({ zip, checksum: sha256(Buffer.from('something else')) });
    try {
      const root = makeAppCopy();
      const run = startApp(root, { ELECTRON_MIRROR: mirror.url, electron_use_remote_checksums: '1' });
      await run.waitFor(PANEL_LINE);
      expect(fallbackLines(run.output())).toEqual([
        'Could not download Electron for the desktop window: the download did not match its published ' +
          `checksum, so it was not used. Details: ${LOG}. ${INSTEAD}`,
      ]);
      expect(mirror.requests).toEqual([zipPath, sumsPath]);
      expect(existsSync(join(root, 'stub-ran.txt'))).toBe(false);
      expect(findElectronBinary(root).ok).toBe(false);
      expect(readFileSync(join(root, LOG), 'utf8')).toContain(
        `Generated checksum for "${zipName}" did not match expected checksum.`,
      );
      expect(await run.stop()).toBe(0);
    } finally {
      await mirror.close();
    }
  });

  it('offline (nothing listening at the mirror): one line, then the panel', async () => {
    const port = await closedPort();
    const root = makeAppCopy();
    const run = startApp(root, { ELECTRON_MIRROR: `http://127.0.0.1:${port}/` });
    await run.waitFor(PANEL_LINE);
    expect(fallbackLines(run.output())).toEqual([
      `Could not download Electron for the desktop window: 127.0.0.1:${port} refused the connection. ` +
        `Details: ${LOG}. ${INSTEAD}`,
    ]);
    expect(await run.stop()).toBe(0);
  });

  it('stops a download at the time limit, and the next start does not wait for it again', async () => {
    const mirror = await startMirror({ zip, checksum: sha256(zip), stall: true });
    try {
      const root = makeAppCopy();
      const env = { ELECTRON_MIRROR: mirror.url, electron_use_remote_checksums: '1', [TIMEOUT_VARIABLE]: '1' };
      const run = startApp(root, env);
      await run.waitFor(PANEL_LINE);
      expect(fallbackLines(run.output())).toEqual([
        expect.stringMatching(
          /^Could not download Electron for the desktop window: it took longer than 1 s \(\d+% done\); GREENROOM_ELECTRON_INSTALL_TIMEOUT_S allows longer\. Details: /,
        ),
      ]);
      expect(mirror.requests).toEqual([zipPath]);
      expect(await run.stop()).toBe(0);

      const again = startApp(root, env);
      await again.waitFor(PANEL_LINE);
      expect(fallbackLines(again.output())).toEqual([
        expect.stringMatching(
          /^Skipped downloading Electron for the desktop window: it failed a moment ago \(it took longer than 1 s .*\); `npm run install-electron` tries again\. Use the panel/,
        ),
      ]);
      expect(again.output()).not.toContain('Installing Electron');
      expect(mirror.requests).toEqual([zipPath]);
      expect(await again.stop()).toBe(0);
    } finally {
      await mirror.close();
    }
  });

  it('GREENROOM_NO_ELECTRON_DOWNLOAD=1 serves the panel without asking the mirror', async () => {
    const mirror = await startMirror({ zip, checksum: sha256(zip) });
    try {
      const root = makeAppCopy();
      const run = startApp(root, { ELECTRON_MIRROR: mirror.url, GREENROOM_NO_ELECTRON_DOWNLOAD: '1' });
      await run.waitFor(PANEL_LINE);
      expect(fallbackLines(run.output())).toEqual([
        `Electron is not downloaded and GREENROOM_NO_ELECTRON_DOWNLOAD=1 says not to. ${INSTEAD}`,
      ]);
      expect(mirror.requests).toEqual([]);
      expect(await run.stop()).toBe(0);
    } finally {
      await mirror.close();
    }
  });
});

describe(TIMEOUT_VARIABLE, () => {
  it('takes whole seconds and names itself and its limits when it cannot', () => {
    expect(parseInstallTimeout({})).toEqual({ seconds: DEFAULT_TIMEOUT_S });
    expect(parseInstallTimeout({ [TIMEOUT_VARIABLE]: '45' })).toEqual({ seconds: 45 });
    expect(parseInstallTimeout({ [TIMEOUT_VARIABLE]: '2.5' })).toEqual({
      seconds: DEFAULT_TIMEOUT_S,
      warning: `${TIMEOUT_VARIABLE} must be a whole number of seconds from 1 to 3600 (got "2.5"); using ${DEFAULT_TIMEOUT_S}.`,
    });
  });
});
