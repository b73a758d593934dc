/**
 * The packaging check (scripts/check-packaging.mjs, so CI and developers run the same check; see
 * docs/platforms.md): electron-builder packs the Linux folder and prepares the deb against a stub
 * Electron that carries a fuse wire. The asar must hold the built desktop app (main, preload, renderer)
 * and production dependencies only — no tests, no TypeScript sources, no source maps, no devDependencies,
 * and not the panel-only entry. The fuses electron-builder flipped in the packed binary must be the ones
 * electron-builder.yml sets, with the macOS ad-hoc re-sign on, and the deb must carry the AppArmor profile
 * for the installed binary and scripts that install, load and remove it. The AppImage's desktop entry
 * keeps the sandbox on, and its launcher turns it off only where user namespaces are refused.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

it(
  'packs the built app with its fuses, the Mac re-sign and the deb AppArmor profile',
  { timeout: 180_000 },
  async () => {
    const child = spawn(process.execPath, [join(root, 'scripts', 'check-packaging.mjs'), '--build-if-missing'], {
      cwd: root,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(output).not.toContain('packaging check: FAIL');
    expect(output).toMatch(/packaging check: ok \(\d+ entries; \d+ production modules; 4 required files; /);
    expect(output).toContain('6 fuses flipped, ad-hoc re-sign on');
    expect(output).toContain('AppArmor profile for /opt/Greenroom/greenroom, installed and removed by its scripts');
    expect(output).toContain('AppImage sandbox off only where user namespaces are refused');
    expect(code).toBe(0);
  },
);
