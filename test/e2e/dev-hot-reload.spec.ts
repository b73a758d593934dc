/**
 * "`npm run dev` serves the panel with hot reload": `scripts/dev.mjs` runs in its own process on a
 * copy of the sources (so the edit never touches the working tree other tests read), the panel opens in
 * Debian's Chromium from the printed link and reaches main through Vite's proxy, and an edited component
 * shows in the open page without a reload: a value set on the page before the edit is still there after.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS } from './harness';

const root = join(import.meta.dirname, '..', '..');
const WAIT = { timeout: 30_000 };
const COPIED = ['electron', 'renderer', 'sandbox', 'shared', 'scripts', 'package.json', 'vite.config.ts'];
const COPIED_GLOBS = ['tsconfig.base.json', 'tsconfig.json', 'tsconfig.node.json', 'tsconfig.web.json'];

/** Resolves with the dev panel link once dev.mjs prints it; rejects if the script exits first. */
function waitForLink(child: ChildProcess, output: { text: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no dev panel link in 60 s:\n${output.text}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output.text += chunk.toString('utf8');
      const found = /Greenroom dev panel: (\S+)/.exec(output.text);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output.text += chunk.toString('utf8')));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`npm run dev exited with ${code}:\n${output.text}`));
    });
  });
}

describe('npm run dev', () => {
  let work: string;
  let dev: ChildProcess;
  let browser: Browser;
  let page: Page;
  const output = { text: '' };

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'greenroom-dev-'));
    for (const name of [...COPIED, ...COPIED_GLOBS]) {
      cpSync(join(root, name), join(work, name), { recursive: true });
    }
    symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'), 'dir');
    // --panel: the browser panel even where an Electron binary exists, so Chromium can drive it.
    dev = spawn(process.execPath, [join(work, 'scripts', 'dev.mjs'), '--panel'], {
      cwd: work,
      env: {
        ...process.env,
        GREENROOM_DATA_DIR: join(work, 'data'),
        GREENROOM_DEV_PORT: '0',
        GREENROOM_PANEL_PORT: '0',
        GREENROOM_WEBHOOK_PORT: '0',
        GREENROOM_TUNNEL: 'off',
        GREENROOM_SANDBOX_ACTIVITY: 'off',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const link = await waitForLink(dev, output);
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
    page = await browser.newPage();
    await page.goto(link);
  });

  afterAll(async () => {
    await browser?.close();
    if (dev && dev.exitCode === null) {
      const exited = new Promise((resolve) => dev.once('exit', resolve));
      dev.kill('SIGTERM');
      await exited;
    }
    rmSync(work, { recursive: true, force: true });
  });

  it('serves the panel from source, connected to main through the proxy', async () => {
    // Both come from main over the panel WebSocket: its mode, and the setup guide a first run opens.
    await page.getByText('Running on the Greenroom sandbox').waitFor(WAIT);
    await page.getByRole('dialog', { name: 'Set up Greenroom' }).waitFor(WAIT);
    expect(page.url()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  });

  it('shows an edited component without reloading the page', async () => {
    await page.evaluate('window.__beforeEdit = "still here"');
    const app = join(work, 'renderer', 'src', 'App.svelte');
    const source = readFileSync(app, 'utf8');
    expect(source).toContain('<span class="brand">Greenroom</span>');
    writeFileSync(
      app,
      source.replace('<span class="brand">Greenroom</span>', '<span class="brand">Greenroom hot</span>'),
    );

    await page.getByText('Greenroom hot').waitFor(WAIT);
    // A full reload would have cleared the page's globals and dropped the connection.
    expect(await page.evaluate('window.__beforeEdit')).toBe('still here');
    await page.getByText('Running on the Greenroom sandbox').waitFor(WAIT);
  });
});
