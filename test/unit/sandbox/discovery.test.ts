/** How subcommands pick a running sandbox from the data dir's discovery files (sandbox/discovery.ts). */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  APP_SANDBOX_FILE,
  removeSandboxDiscovery,
  resolveAdminTarget,
  STANDALONE_SANDBOX_FILE,
  writeSandboxDiscovery,
} from '../../../sandbox/discovery';

const APP = { adminUrl: 'http://127.0.0.1:4001', adminToken: 'app-token', pid: 101 };
const STANDALONE = { adminUrl: 'http://127.0.0.1:4002', adminToken: 'standalone-token', pid: 202 };

let dir: string;
let alive: Set<number>;
const where = (): { dataDir: string; isAlive: (pid: number) => boolean } => ({
  dataDir: dir,
  isAlive: (pid) => alive.has(pid),
});

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'greenroom-discovery-'));
  alive = new Set([APP.pid, STANDALONE.pid]);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('resolveAdminTarget', () => {
  it("prefers the running app's sandbox, then a standalone one", async () => {
    await writeSandboxDiscovery(dir, APP_SANDBOX_FILE, APP);
    await writeSandboxDiscovery(dir, STANDALONE_SANDBOX_FILE, STANDALONE);
    expect(await resolveAdminTarget({}, where())).toEqual({
      ok: true,
      adminUrl: APP.adminUrl,
      adminToken: APP.adminToken,
      note: `using the running Greenroom app's sandbox at ${APP.adminUrl}`,
    });
    alive.delete(APP.pid);
    expect(await resolveAdminTarget({}, where())).toMatchObject({
      ok: true,
      adminUrl: STANDALONE.adminUrl,
      adminToken: STANDALONE.adminToken,
      note: `using the running npm run sandbox at ${STANDALONE.adminUrl}`,
    });
  });

  it("takes an explicit URL, with the explicit token or else that sandbox's own", async () => {
    await writeSandboxDiscovery(dir, STANDALONE_SANDBOX_FILE, STANDALONE);
    expect(await resolveAdminTarget({ adminUrl: STANDALONE.adminUrl }, where())).toEqual({
      ok: true,
      adminUrl: STANDALONE.adminUrl,
      adminToken: STANDALONE.adminToken,
      note: null,
    });
    expect(await resolveAdminTarget({ adminUrl: 'http://127.0.0.1:9', adminToken: 't' }, where())).toMatchObject({
      adminUrl: 'http://127.0.0.1:9',
      adminToken: 't',
    });
    // Another sandbox's token is never sent to a URL it does not belong to.
    expect(await resolveAdminTarget({ adminUrl: 'http://127.0.0.1:9' }, where())).toMatchObject({
      adminToken: undefined,
    });
  });

  it('ignores a stale or damaged file and says what it looked at', async () => {
    await writeSandboxDiscovery(dir, APP_SANDBOX_FILE, APP);
    writeFileSync(join(dir, STANDALONE_SANDBOX_FILE), '{"adminUrl": 12');
    alive.clear();
    const result = await resolveAdminTarget({}, where());
    expect(result).toEqual({
      ok: false,
      message:
        `no running Greenroom app or npm run sandbox found in ${dir} (ignored ${join(dir, APP_SANDBOX_FILE)}: ` +
        `its process ${APP.pid} is gone; ignored ${join(dir, STANDALONE_SANDBOX_FILE)}: not a sandbox ` +
        'description); start one, or pass --admin-url and --admin-token',
    });
  });
});

describe('writeSandboxDiscovery and removeSandboxDiscovery', () => {
  it('leaves no temporary file behind and removes only its own entry', async () => {
    await writeSandboxDiscovery(dir, APP_SANDBOX_FILE, APP);
    expect(readdirSync(dir)).toEqual([APP_SANDBOX_FILE]);
    // A second app on the same data dir replaced the file: the first one's close must not delete it.
    const second = { ...APP, pid: 303, adminToken: 'second' };
    await writeSandboxDiscovery(dir, APP_SANDBOX_FILE, second);
    await removeSandboxDiscovery(dir, APP_SANDBOX_FILE, APP);
    expect(readdirSync(dir)).toEqual([APP_SANDBOX_FILE]);
    await removeSandboxDiscovery(dir, APP_SANDBOX_FILE, second);
    expect(readdirSync(dir)).toEqual([]);
  });
});
