/**
 * The desktop app starts: Playwright's `_electron` launches out/main/index.js with a fresh data dir, the
 * main window opens with its title, the preload bridge is there (and only the bridge: no Node), and the
 * app closes. Runs only where an Electron binary exists; elsewhere it skips with a one-line reason.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron, type ElectronApplication } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findElectronBinary } from '../../scripts/find-electron.mjs';

const root = join(import.meta.dirname, '..', '..');
const electron = findElectronBinary(root);
if (!electron.ok) {
  console.log(`Electron smoke test skipped: ${electron.reason}`);
}

describe.skipIf(!electron.ok)(electron.ok ? 'Electron smoke' : `Electron smoke skipped: ${electron.reason}`, () => {
  let app: ElectronApplication;
  let dataDir: string;

  beforeAll(async () => {
    const built = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
    expect(built.status).toBe(0);
    dataDir = mkdtempSync(join(tmpdir(), 'greenroom-electron-'));
    app = await _electron.launch({
      executablePath: electron.ok ? electron.path : '',
      args: [root],
      cwd: root,
      env: {
        ...process.env,
        GREENROOM_DATA_DIR: dataDir,
        GREENROOM_PANEL_PORT: '0',
        GREENROOM_WEBHOOK_PORT: '0',
        GREENROOM_SANDBOX_ACTIVITY: 'off',
      },
    });
  });

  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('opens the main window with the preload bridge and no Node', async () => {
    const window = await app.firstWindow();
    await window.waitForLoadState('domcontentloaded');
    expect(await window.title()).toBe('Greenroom');
    const exposed = await window.evaluate(() => {
      const g = globalThis as unknown as { greenroom?: Record<string, unknown>; require?: unknown; process?: unknown };
      return {
        bridge: g.greenroom ? Object.keys(g.greenroom).sort() : null,
        require: typeof g.require,
        process: typeof g.process,
      };
    });
    expect(exposed).toEqual({ bridge: ['invoke', 'on', 'send'], require: 'undefined', process: 'undefined' });
    const snapshot = await window.evaluate(() =>
      (globalThis as unknown as { greenroom: { invoke(c: string, a: unknown[]): Promise<unknown> } }).greenroom.invoke(
        'app:snapshot',
        [],
      ),
    );
    expect(snapshot).toMatchObject({ ok: true, value: { mode: 'sandbox' } });
  });
});
