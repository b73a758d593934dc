/**
 * The data folder's modes through the real start (launchGreenroom, panel-only, sandbox mode): a data folder
 * and folders of Greenroom's made earlier with modes others can read (an older build, or made by hand with
 * the usual 0755) are 0700 once Greenroom has started, with what they hold kept
 * ([design notes](../../../docs/design-notes.md#files-in-the-data-folder)). The data folder may be a link to
 * another disk: the folder it names is the one made 0700.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { launchGreenroom, type Launched } from '../../../electron/launch/launch-greenroom';
import { createAppWebhookPort } from '../../../electron/app/webhook-port';
import { createNodeSecretStore } from '../../../electron/secrets/node-secret-store';
import { makeRendererDir } from '../../helpers/panel-fakes';

const roots: string[] = [];
const started: Launched[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((launched) => launched.stop()));
  roots.splice(0).forEach((root) => rmSync(root, { recursive: true, force: true }));
});

async function start(dataDir: string, root: string): Promise<string[]> {
  const printed: string[] = [];
  const launched = await launchGreenroom({
    env: {
      GREENROOM_DATA_DIR: dataDir,
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
  started.push(launched);
  return printed;
}

/** A data folder left by an older build: the folder and each of Greenroom's folders open to others. */
function olderDataFolder(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const name of ['journal', 'dedup', 'overlay-media']) {
    mkdirSync(join(dir, name));
    chmodSync(join(dir, name), name === 'overlay-media' ? 0o777 : 0o755);
  }
  writeFileSync(join(dir, 'overlay-media', 'alert.png'), 'png');
  chmodSync(dir, 0o755);
}

const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8);

describe('a data folder others could read', () => {
  it('is 0700 after the start, and so is each of its folders, with what they hold kept', async () => {
    const root = mkdtempSync(join(tmpdir(), 'greenroom-data-modes-'));
    roots.push(root);
    const dir = join(root, 'data');
    olderDataFolder(dir);
    expect(await start(dir, root)).toEqual([]);
    expect(['', 'journal', 'dedup', 'overlay-media'].map((name) => `${name} ${modeOf(join(dir, name))}`)).toEqual([
      ' 700',
      'journal 700',
      'dedup 700',
      'overlay-media 700',
    ]);
    expect(readdirSync(join(dir, 'overlay-media'))).toContain('alert.png');
  });

  it('is made 0700 where a link to another disk points', async () => {
    const root = mkdtempSync(join(tmpdir(), 'greenroom-data-modes-'));
    roots.push(root);
    const disk = join(root, 'other-disk', 'greenroom');
    olderDataFolder(disk);
    symlinkSync(disk, join(root, 'data'));
    await start(join(root, 'data'), root);
    expect([modeOf(disk), modeOf(join(disk, 'journal'))]).toEqual(['700', '700']);
  });
});
