/**
 * A panel left open across a restart in sandbox mode ([panel in a browser](../../../docs/panel-in-a-browser.md#emotes-after-a-restart)):
 * the embedded sandbox comes back on another port, and the panel reads the new emote address from the
 * snapshot on reconnect. The page keeps the Content-Security-Policy it was served with, so that policy must
 * already allow images from the new port, or every emote shows as its name until the page is reloaded.
 * Through launchGreenroom twice on one data dir, as `npm start` runs it, and the panel server over HTTP.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { launchGreenroom, type Launched } from '../../../electron/launch/launch-greenroom';
import { createAppWebhookPort } from '../../../electron/app/webhook-port';
import { createNodeSecretStore } from '../../../electron/secrets/node-secret-store';
import { makeRendererDir, rawGet } from '../../helpers/panel-fakes';

function launch(dir: string, panelPort: string): Promise<Launched> {
  return launchGreenroom({
    env: {
      GREENROOM_DATA_DIR: dir,
      GREENROOM_PANEL_PORT: panelPort,
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
}

/** Whether a CSP source list allows an image at `url` (the origin forms Greenroom writes: exact, or `:*`). */
function allows(sources: string[], url: string): boolean {
  const { protocol, hostname, origin } = new URL(url);
  return sources.some((s) => s === origin || s === `${protocol}//${hostname}:*`);
}

describe('the panel page served before a sandbox-mode restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'greenroom-emotes-restart-'));
  let launched: Launched | null = null;

  afterAll(async () => {
    await launched?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("allows the emote images of the sandbox the app starts next, on that sandbox's new port", async () => {
    launched = await launch(dir, '0');
    const panelPort = launched.panel!.port;
    const page = await rawGet(panelPort, `/?token=${launched.panel!.token}`);
    const csp = String(page.headers['content-security-policy']);
    const imgSrc = /img-src ([^;]+)/.exec(csp)![1]!.split(' ');
    const before = launched.app.snapshot().settings.emoteHost;
    expect(allows(imgSrc, `${before}/emotes/37226/fullsize`)).toBe(true);

    await launched.stop();
    launched = await launch(dir, String(panelPort));
    const after = launched.app.snapshot().settings.emoteHost;
    // The sandbox took another port: what the reconnecting panel is told to load from.
    expect(new URL(after).port).not.toBe(new URL(before).port);
    expect(allows(imgSrc, `${after}/emotes/37226/fullsize`)).toBe(true);
    // Still no image host beyond this computer and Kick's.
    expect(imgSrc.filter((s) => !["'self'", 'data:'].includes(s))).toEqual([
      'http://127.0.0.1:*',
      'https://files.kick.com',
    ]);
  });
});
