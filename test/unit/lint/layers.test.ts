/**
 * The layers inside the main process are lint (ARCHITECTURE.md#layers-inside-main): the project's own ESLint
 * config, the one `npm run check` runs, refuses an import that runs up or sideways between folders of electron/,
 * type-only ones too, and accepts every import down. The overrides for the thin Electron files keep the ban on
 * importing the panel.
 */
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { LAYERS, layerViolation } from '../../../scripts/eslint/layers.mjs';

const root = join(import.meta.dirname, '..', '..', '..');
const eslint = new ESLint({
  cwd: root,
  ruleFilter: ({ ruleId }) => ruleId === 'greenroom/layers' || ruleId.endsWith('no-restricted-imports'),
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
});

async function errors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('the layers inside electron/', () => {
  beforeAll(() => eslint.calculateConfigForFile(join(root, 'electron/main.ts')), 60_000);

  it('refuses an import up a layer, type-only or not, naming both folders', async () => {
    expect(await errors('electron/ipc/handlers.ts', "import { createApp } from '../app/create-app';\n")).toEqual([
      'greenroom/layers: electron/ipc/ may not import electron/app/, a layer above it; move what both need down a layer or pass it in',
    ]);
    expect(await errors('electron/core/clock.ts', "import type { Feed } from '../services/feed';\n")).toEqual([
      expect.stringContaining('electron/core/ may not import electron/services/, a layer above it'),
    ]);
    expect(await errors('electron/kick/auth/sign-in.ts', "export { x } from '../../webhooks/receiver';\n")).toEqual([
      expect.stringContaining('electron/kick/ may not import electron/webhooks/'),
    ]);
    expect(await errors('electron/secrets/redact.ts', "const m = import('../app/config');\nvoid m;\n")).toEqual([
      expect.stringContaining('electron/secrets/ may not import electron/app/'),
    ]);
  });

  it('judges the webhook side room by room: down is fine, up or sideways is not', async () => {
    expect(await errors('electron/webhooks/dedup/dedup.ts', "import { x } from '../receive/receiver';\n")).toEqual([
      expect.stringContaining('electron/webhooks/dedup/ may not import electron/webhooks/receive/, a layer above it'),
    ]);
    expect(await errors('electron/webhooks/journal/journal.ts', "import { x } from '../dedup/dedup';\n")).toEqual([
      expect.stringContaining('a layer beside it'),
    ]);
    expect(await errors('electron/webhooks/receive/receiver.ts', "import { x } from '../webhook-service';\n")).toEqual([
      expect.stringContaining('may not import electron/webhooks/, a layer above it'),
    ]);
  });

  it('refuses an import sideways, between two folders of one layer', async () => {
    expect(await errors('electron/ipc/router.ts', "import { x } from '../shell/tray-status';\n")).toEqual([
      expect.stringContaining('a layer beside it'),
    ]);
  });

  it('accepts imports down the layers, inside a folder, and to shared/', async () => {
    const allowed: [string, string][] = [
      ['electron/app/create-app.ts', "import { Feed } from '../services/feed';\n"],
      ['electron/launch/app-host.ts', "import { createApp } from '../app/create-app';\n"],
      ['electron/main.ts', "import { launch } from './launch/launch-greenroom';\n"],
      ['electron/kick/auth/sign-in.ts', "import type { SecretStore } from '../../secrets/secret-store';\n"],
      ['electron/webhooks/receive/receiver.ts', "import { x } from '../dedup/dedup';\n"],
      ['electron/webhooks/webhook-service.ts', "import { x } from './subscriptions/subscription-reconciler';\n"],
      ['electron/webhooks/tunnel/tunnel.ts', "import { x } from './tunnel-sockets';\n"],
      ['electron/services/feed.ts', "import { x } from '../../shared/views';\n"],
    ];
    for (const [path, code] of allowed) {
      expect(await errors(path, code), path).toEqual([]);
    }
  });

  it('checks the same when ESLint runs from a subfolder, as an editor opened on electron/ does', async () => {
    const fromSubfolder = new ESLint({
      cwd: join(root, 'electron'),
      ruleFilter: ({ ruleId }) => ruleId === 'greenroom/layers',
      overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
    });
    const [result] = await fromSubfolder.lintText("import type { AppConfig } from '../app/config';\n", {
      filePath: join(root, 'electron/core/clock.ts'),
    });
    expect(result?.messages.map((m) => m.message)).toEqual([
      expect.stringContaining('electron/core/ may not import electron/app/'),
    ]);
  }, 60_000);

  it('keeps the ban on importing the panel in the files whose import rule is overridden', async () => {
    for (const [path, up] of [
      ['electron/main.ts', '../'],
      ['electron/secrets/safe-storage-cipher.ts', '../../'],
      ['electron/ipc/register.ts', '../../'],
      ['electron/preload/index.ts', '../../'],
    ]) {
      expect(await errors(path!, `import { x } from '${up}renderer/src/lib/format';\n`), path).toEqual([
        expect.stringContaining('Main never imports the panel'),
      ]);
    }
  });

  it('places every folder of electron/ in exactly one layer', async () => {
    const { readdirSync, statSync } = await import('node:fs');
    const folders = readdirSync(join(root, 'electron')).filter((name) =>
      statSync(join(root, 'electron', name)).isDirectory(),
    );
    const placed = LAYERS.flat();
    expect(new Set(placed).size).toBe(placed.length);
    expect(folders.filter((folder) => !placed.includes(folder))).toEqual([]);
    const rooms = readdirSync(join(root, 'electron', 'webhooks')).filter((name) =>
      statSync(join(root, 'electron', 'webhooks', name)).isDirectory(),
    );
    expect(rooms.filter((room) => !placed.includes(`webhooks/${room}`))).toEqual([]);
    expect(layerViolation('core', 'nowhere')).toContain('has no place in the layers');
  });
});
