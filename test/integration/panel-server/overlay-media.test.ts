/**
 * Alert media over the real panel server (docs/overlays.md#your-own-images-and-sounds): what the overlay
 * key opens under `/overlay/media/`, the policy a file is served with, a link planted in the media folder,
 * and the size limit the contract puts on an upload before main reads it.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/core/clock';
import { OVERLAY_MEDIA_DIR, openAlertProgress, storeOverlayMedia } from '../../../electron/overlays/overlay-files';
import { OverlayHub } from '../../../electron/overlays/overlay-hub';
import { type PanelServer, startPanelServer } from '../../../electron/panel-server/panel-server';
import { DEFAULT_OVERLAY_SETTINGS } from '../../../shared/overlays';
import { createFakeApp, type FakeApp, makeRendererDir, rawGet } from '../../helpers/panel-fakes';

const KEY = 'k'.repeat(43);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>');

let dataDir: string;
let rendererDir: string;
let hub: OverlayHub;
let app: FakeApp;
let server: PanelServer;

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'greenroom-overlay-media-'));
  rendererDir = makeRendererDir().dir;
  hub = new OverlayHub({
    clock: systemClock,
    settings: () => DEFAULT_OVERLAY_SETTINGS,
    emoteHost: () => '',
    mediaUrl: (name) => `/overlay/media/${name}`,
    progress: openAlertProgress(dataDir, () => undefined),
    chatMessages: () => [],
    feedItems: () => [],
    log: () => undefined,
  });
  app = createFakeApp();
  server = await startPanelServer({
    port: 0,
    staticDir: rendererDir,
    router: app.router,
    events: app.events,
    overlays: { hub: () => hub, key: () => KEY, dataDir, emote: () => Promise.resolve(null) },
  });
});

afterEach(async () => {
  hub.stop();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(dirname(rendererDir), { recursive: true, force: true });
});

describe('alert media on the panel server', () => {
  it('serves an added SVG under the overlay key only, with a policy that runs nothing in it', async () => {
    const name = storeOverlayMedia(dataDir, 'dot.svg', SVG, 'image');
    expect((await rawGet(server.port, `/overlay/media/${name}`)).status).toBe(403);
    const served = await rawGet(server.port, `/overlay/media/${name}?key=${KEY}`);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/svg+xml');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    const policy = String(served.headers['content-security-policy']);
    expect(policy).toMatch(/^default-src 'none';/);
    expect(policy).toMatch(/\bsandbox\b/);
    expect(policy).not.toMatch(/script-src/);
    // The page itself may load fonts from itself, and nothing from elsewhere.
    const page = await rawGet(server.port, `/overlay/alerts?key=${KEY}`);
    expect(String(page.headers['content-security-policy'])).toMatch(/font-src 'self';/);
  });

  it('does not serve a link planted in the media folder, nor a media folder that is a link', async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'greenroom-overlay-elsewhere-'));
    try {
      writeFileSync(join(elsewhere, 'id_rsa'), 'PRIVATE KEY');
      mkdirSync(join(dataDir, OVERLAY_MEDIA_DIR));
      symlinkSync(join(elsewhere, 'id_rsa'), join(dataDir, OVERLAY_MEDIA_DIR, '0123456789abcdef.png'));
      const planted = await rawGet(server.port, `/overlay/media/0123456789abcdef.png?key=${KEY}`);
      expect(planted.status).toBe(404);
      expect(planted.body).not.toMatch(/PRIVATE/);

      rmSync(join(dataDir, OVERLAY_MEDIA_DIR), { recursive: true });
      writeFileSync(join(elsewhere, 'fedcba9876543210.svg'), SVG);
      symlinkSync(elsewhere, join(dataDir, OVERLAY_MEDIA_DIR));
      expect((await rawGet(server.port, `/overlay/media/fedcba9876543210.svg?key=${KEY}`)).status).toBe(404);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('refuses an upload over the limit before main reads it, naming the limit', async () => {
    const base64 = Buffer.alloc(3 * 1024 * 1024 + 3).toString('base64');
    const result = await app.router.invoke('overlays:add-media', [{ fileName: 'huge.gif', base64, slot: 'image' }]);
    expect(result).toMatchObject({ ok: false, error: { message: expect.stringMatching(/file: at most 3 MiB/) } });
    const wrongSlot = await app.router.invoke('overlays:add-media', [
      { fileName: 'a.png', base64: 'AA==', slot: 'video' },
    ]);
    expect(wrongSlot.ok).toBe(false);
    expect(app.calls.filter((call) => call.channel === 'overlays:add-media')).toEqual([]);
  });
});
