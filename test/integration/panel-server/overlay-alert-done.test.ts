/**
 * `alert-done` through the real overlay socket (`/overlay/ws` on the panel server, the overlay key in the
 * URL, the real hub and alert queue behind it). Probe finding: anyone holding the overlay key could skip
 * every alert by answering each with `alert-done`. Now a done counts only for the alert that overlay is
 * showing, once, and the alert ends when every overlay showing it is done (../../../docs/overlays.md#alerts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { systemClock } from '../../../electron/core/clock';
import { openAlertProgress } from '../../../electron/overlays/overlay-files';
import { OverlayHub } from '../../../electron/overlays/overlay-hub';
import { type PanelServer, startPanelServer } from '../../../electron/panel-server/panel-server';
import { type AlertView, DEFAULT_OVERLAY_SETTINGS, type OverlayFrame } from '../../../shared/overlays';
import { createFakeApp, makeRendererDir } from '../../helpers/panel-fakes';

const KEY = 'k'.repeat(43);

/** An alert box as OBS runs it, reduced to its socket: the alerts it was sent, and its one frame. */
class AlertOverlay {
  readonly ws: WebSocket;
  readonly alerts: AlertView[] = [];
  readonly #waiting: ((alert: AlertView) => void)[] = [];

  constructor(port: number) {
    const origin = `http://127.0.0.1:${port}`;
    this.ws = new WebSocket(`ws://127.0.0.1:${port}/overlay/ws?kind=alerts&key=${KEY}`, { origin });
    this.ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString('utf8')) as OverlayFrame;
      if (frame.type === 'alert') {
        this.alerts.push(frame.alert);
        this.#waiting.shift()?.(frame.alert);
      }
    });
  }

  opened(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
  }

  /** The next alert sent after those already seen (`seen` of them). */
  alert(seen: number): Promise<AlertView> {
    return this.alerts.length > seen
      ? Promise.resolve(this.alerts[seen]!)
      : new Promise((resolve) => this.#waiting.push(resolve));
  }

  done(id: string): void {
    this.ws.send(JSON.stringify({ type: 'alert-done', id }));
  }

  /** Resolves once the server has handled every frame sent before: it answers a ping after them. */
  sync(): Promise<void> {
    return new Promise((resolve) => {
      this.ws.once('pong', () => resolve());
      this.ws.ping();
    });
  }
}

let dataDir: string;
let rendererDir: string;
let hub: OverlayHub;
let server: PanelServer;
let overlays: AlertOverlay[];

async function overlay(): Promise<AlertOverlay> {
  const opened = new AlertOverlay(server.port);
  overlays.push(opened);
  await opened.opened();
  return opened;
}

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'greenroom-overlay-done-'));
  rendererDir = makeRendererDir().dir;
  const settings = structuredClone(DEFAULT_OVERLAY_SETTINGS);
  // Long enough that no alert ends by its own timer while a test runs.
  for (const template of Object.values(settings.alerts)) {
    template.durationMs = 30_000;
  }
  hub = new OverlayHub({
    clock: systemClock,
    settings: () => settings,
    emoteHost: () => '',
    mediaUrl: (name) => `/overlay/media/${name}`,
    progress: openAlertProgress(dataDir, () => undefined),
    chatMessages: () => [],
    feedItems: () => [],
    log: () => undefined,
  });
  hub.endReplay();
  server = await startPanelServer({
    port: 0,
    staticDir: rendererDir,
    // The panel's side is not what this is about: overlay sockets never reach the router.
    ...(({ router, events }) => ({ router, events }))(createFakeApp()),
    overlays: { hub: () => hub, key: () => KEY, dataDir, emote: () => Promise.resolve(null) },
  });
  overlays = [];
});

afterEach(async () => {
  overlays.forEach((o) => o.ws.terminate());
  hub.stop();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(dirname(rendererDir), { recursive: true, force: true });
});

describe('alert-done over the overlay socket', () => {
  it('from a second page holding the key, does not end the alert the streamer’s overlay is showing', async () => {
    const obs = await overlay();
    const other = await overlay();
    hub.testAlert('follow');
    hub.testAlert('subscription');
    const first = await obs.alert(0);
    expect((await other.alert(0)).id).toBe(first.id);
    other.done(first.id);
    other.done(first.id);
    other.done('test-1-1');
    await other.sync();
    expect(hub.alerts.current()?.id).toBe(first.id);
    expect(obs.alerts).toHaveLength(1);
    // The streamer's overlay finishing it is what moves the queue on.
    obs.done(first.id);
    expect((await obs.alert(1)).kind).toBe('subscription');
  });

  it('from a page that opened mid-alert, does not end it either', async () => {
    const obs = await overlay();
    hub.testAlert('follow');
    hub.testAlert('kicks');
    const first = await obs.alert(0);
    const late = await overlay();
    expect((await late.alert(0)).id).toBe(first.id);
    late.done(first.id);
    await late.sync();
    expect(hub.alerts.current()?.id).toBe(first.id);
  });

  it('counts only for the alert that overlay is showing, and only once', async () => {
    const obs = await overlay();
    hub.testAlert('follow');
    hub.testAlert('renewal');
    hub.testAlert('kicks');
    const first = await obs.alert(0);
    obs.done('not-this-one');
    await obs.sync();
    expect(hub.alerts.current()?.id).toBe(first.id);
    obs.done(first.id);
    const second = await obs.alert(1);
    // Its own done again, for the alert it already finished: the next one keeps playing.
    obs.done(first.id);
    await obs.sync();
    expect(hub.alerts.current()?.id).toBe(second.id);
    expect(obs.alerts).toHaveLength(2);
  });

  it('moves on when the overlays that did not report it close', async () => {
    const obs = await overlay();
    const preview = await overlay();
    hub.testAlert('follow');
    hub.testAlert('redemption');
    const first = await obs.alert(0);
    await preview.alert(0);
    obs.done(first.id);
    await obs.sync();
    expect(hub.alerts.current()?.id).toBe(first.id);
    preview.ws.close();
    expect((await obs.alert(1)).kind).toBe('redemption');
  });
});
