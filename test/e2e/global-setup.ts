/** Builds the renderer once for the e2e project: the panel server serves out/renderer as the app does. */
import { join } from 'node:path';
import { build } from 'vite';

export default async function setup(): Promise<void> {
  const root = join(import.meta.dirname, '..', '..');
  // Under Vitest the shared config's root is the repository; the renderer build needs its own root.
  await build({
    configFile: join(root, 'vite.config.ts'),
    root: join(root, 'renderer'),
    logLevel: 'warn',
    mode: 'production',
  });
}
