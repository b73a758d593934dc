/**
 * Writes Greenroom's application icons into build/ for electron-builder (`npx tsx scripts/make-icons.ts`):
 * `build/icon.png` (1024 px; macOS and Windows derive their formats from it) and the Linux set
 * `build/icons/<size>x<size>.png`. The drawing lives in electron/shell/icon-png.ts; the PNGs are committed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drawAppIcon } from '../electron/shell/icon-png';

const build = join(dirname(fileURLToPath(import.meta.url)), '..', 'build');
mkdirSync(join(build, 'icons'), { recursive: true });
writeFileSync(join(build, 'icon.png'), drawAppIcon(1024));
for (const size of [16, 32, 48, 64, 128, 256, 512]) {
  writeFileSync(join(build, 'icons', `${size}x${size}.png`), drawAppIcon(size));
}
console.log(`Icons written to ${build}`);
