/**
 * The architecture rules electron/README.md states are lint, not convention: ESLint, with the project's own
 * config, refuses each forbidden import and accepts the allowed ones.
 */
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const eslint = new ESLint({
  cwd: root,
  // Only the import rules: the type-aware rules need the files to exist in a tsconfig project.
  ruleFilter: ({ ruleId }) => ruleId.endsWith('no-restricted-imports'),
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
});

/** The import-rule messages ESLint reports for `code` as if it were the file at `path`. */
async function importErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('architecture lint rules', () => {
  // Loading the project's ESLint config (its plugins and parsers) is a one-time cost of several seconds on a slow
  // two-core machine; it is set-up, not what these tests time, so it gets its own allowance.
  beforeAll(() => eslint.calculateConfigForFile(join(root, 'electron/main.ts')), 60_000);

  it('refuses an electron import outside the four thin files, and allows it in them', async () => {
    expect(await importErrors('electron/services/feed.ts', "import { app } from 'electron';\n")).toEqual([
      expect.stringContaining('import electron; everything else runs in plain Node'),
    ]);
    for (const file of ['electron/main.ts', 'electron/secrets/safe-storage-cipher.ts']) {
      expect(await importErrors(file, "import { app } from 'electron';\n")).toEqual([]);
    }
    expect(await importErrors('electron/ipc/register.ts', "import { ipcMain } from 'electron';\n")).toEqual([]);
    expect(await importErrors('electron/main.ts', "import { ipcMain } from 'electron';\n")).toHaveLength(1);
  });

  it('refuses main importing the panel, and the panel importing main', async () => {
    expect(
      await importErrors('electron/app/config.ts', "import { x } from '../../renderer/src/lib/format';\n"),
    ).toEqual([expect.stringContaining('Main never imports the panel')]);
    expect(
      await importErrors('renderer/src/lib/format.ts', "import { x } from '../../../electron/app/config';\n"),
    ).toEqual([expect.stringContaining('go through the contract')]);
  });

  it('refuses a sandbox import outside the composition root, but allows its types', async () => {
    expect(
      await importErrors('electron/services/feed.ts', "import { createSandbox } from '../../sandbox/index';\n"),
    ).toEqual([expect.stringContaining('Only electron/app/embedded-sandbox.ts may import the Kick sandbox')]);
    expect(
      await importErrors('electron/services/feed.ts', "import type { Sandbox } from '../../sandbox/index';\n"),
    ).toEqual([]);
    expect(
      await importErrors('electron/app/embedded-sandbox.ts', "import { createSandbox } from '../../sandbox/index';\n"),
    ).toEqual([]);
  });

  it('keeps the sandbox apart from the app: no electron, panel or main code beyond core and the data dir', async () => {
    expect(await importErrors('sandbox/api/chat.ts', "import { app } from 'electron';\n")).toHaveLength(1);
    expect(
      await importErrors('sandbox/api/chat.ts', "import { Moderation } from '../../electron/services/moderation';\n"),
    ).toEqual([expect.stringContaining('The Kick sandbox may use shared/, electron/core/')]);
    expect(
      await importErrors('sandbox/api/chat.ts', "import { x } from '../../renderer/src/lib/format';\n"),
    ).toHaveLength(1);
    expect(
      await importErrors('sandbox/api/chat.ts', "import { systemClock } from '../../electron/core/clock';\n"),
    ).toEqual([]);
    expect(await importErrors('sandbox/cli.ts', "import { resolveDataDir } from '../electron/app/config';\n")).toEqual(
      [],
    );
  });

  it('keeps shared/ platform-free', async () => {
    expect(await importErrors('shared/limits.ts', "import { readFileSync } from 'node:fs';\n")).toHaveLength(1);
  });
});
