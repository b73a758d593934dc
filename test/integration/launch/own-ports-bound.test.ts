/**
 * With every port set to 0 (a free one each start), a redirect URL on a port Greenroom actually bound is
 * refused by `settings:update` through the real app's router, as the panel sends it: the panel server's, the
 * webhook receiver's and the embedded sandbox's ports are only known once bound
 * ([Redirect URL](../../../docs/settings.md#redirect-url)).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSettings } from '../../../electron/app/settings';
import { launchGreenroom, type Launched } from '../../../electron/launch/launch-greenroom';
import { createAppWebhookPort } from '../../../electron/app/webhook-port';
import { createNodeSecretStore } from '../../../electron/secrets/node-secret-store';
import { PORT_USES } from '../../../shared/loopback-redirect';
import { makeRendererDir } from '../../helpers/panel-fakes';

let dir: string;
let launched: Launched;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'greenroom-bound-ports-'));
  openSettings(dir, { randomBytes }).update({ redirectUri: 'http://127.0.0.1:0/callback' });
  launched = await launchGreenroom({
    env: {
      GREENROOM_DATA_DIR: dir,
      GREENROOM_PANEL_PORT: '0',
      GREENROOM_WEBHOOK_PORT: '0',
      GREENROOM_SANDBOX_ACTIVITY: 'off',
    },
    defaultDataDir: join(dir, 'unused'),
    staticDir: makeRendererDir().dir,
    openSecretStore: (d) => Promise.resolve(createNodeSecretStore(d)),
    openExternal: () => Promise.resolve(),
    webhooks: createAppWebhookPort,
    log: () => undefined,
    panelRequired: true,
  });
}, 30_000);

afterAll(async () => {
  await launched?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const update = (redirectUri: string) => launched.router.invoke('settings:update', [{ redirectUri }]);
const portOf = (url: string) => Number(new URL(url).port);

/** A port nothing listens on now: the OS picks it, and it is let go at once. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('settings:update with ports picked at start', () => {
  it("refuses a redirect URL on the panel server's bound port", async () => {
    const port = launched.panel!.port;
    const result = await update(`http://127.0.0.1:${port}/callback`);
    expect(result).toMatchObject({ ok: false, error: { code: 'InvalidArgument' } });
    expect(JSON.stringify(result)).toContain(PORT_USES.panel);
  });

  it("refuses one on the webhook receiver's bound port", async () => {
    const port = launched.app.snapshot().health.receiver.port!;
    expect(port).toBeGreaterThan(0);
    const result = await update(`http://localhost:${port}/callback`);
    expect(result).toMatchObject({ ok: false, error: { code: 'InvalidArgument' } });
    expect(JSON.stringify(result)).toContain(PORT_USES.webhook);
  });

  it("refuses one on each of the embedded sandbox's ports", async () => {
    const { api, auth, admin } = launched.app.sandbox!.urls;
    const urls: string[] = [api, auth, admin];
    for (const url of urls) {
      const result = await update(`http://127.0.0.1:${portOf(url)}/callback`);
      expect(result, url).toMatchObject({ ok: false, error: { code: 'InvalidArgument' } });
      expect(JSON.stringify(result)).toContain(PORT_USES.sandbox);
    }
  });

  it('still takes a port nothing of Greenroom holds', async () => {
    const port = await freePort();
    await expect(update(`http://127.0.0.1:${port}/callback`)).resolves.toMatchObject({ ok: true });
  });
});
