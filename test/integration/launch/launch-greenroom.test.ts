/**
 * The panel-only start path end to end, as `npm start` runs it without Electron: launchGreenroom with the
 * Node secret store in sandbox mode, the real webhook side (receiver, journal, reconciler) fed by the
 * embedded sandbox's signed deliveries, and the panel server. A browser-side transport signs in over the
 * panel WebSocket, a sandbox chat message arrives as a `kick:event`, and stop() closes everything.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { openSettings, SETTINGS_FILE_NAME } from '../../../electron/app/settings';
import {
  launchGreenroom,
  LaunchError,
  type Launched,
  startFailureText,
} from '../../../electron/launch/launch-greenroom';
import { probablyRunningText } from '../../../electron/launch/running-greenroom';
import { startupLines } from '../../../electron/launch/startup-lines';
import { createAppWebhookPort } from '../../../electron/app/webhook-port';
import { PANEL_TOKEN_FILE_NAME } from '../../../electron/panel-server/panel-token';
import { triggerEvent } from '../../../sandbox/triggers';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { createNodeSecretStore, SECRETS_FILE_NAME, SIGN_IN_AGAIN } from '../../../electron/secrets/node-secret-store';
import type { EventPayloads } from '../../../shared/ipc-contract';
import { createPanelApi } from '../../../shared/panel-api';
import { createWebSocketTransport, type PanelConnection } from '../../../renderer/src/lib/transport';
import { makeRendererDir, rawGet } from '../../helpers/panel-fakes';

/** Plays the system browser: follows redirects from the sandbox's auto-approved authorize URL to our callback. */
async function visit(url: string): Promise<void> {
  let next: string | undefined = url;
  for (let hops = 0; next && hops < 5; hops++) {
    const res: Awaited<ReturnType<typeof request>> = await request(next);
    await res.body.text();
    const location: unknown = res.headers.location;
    next = typeof location === 'string' ? new URL(location, next).href : undefined;
  }
}

/** A second start on `dataDir` that asks for the running one's panel port, as `npm start` or the desktop app would. */
function startBeside(dataDir: string, port: number, options: { panelRequired: boolean; log?: (line: string) => void }) {
  return launchGreenroom({
    env: {
      GREENROOM_DATA_DIR: dataDir,
      GREENROOM_PANEL_PORT: String(port),
      GREENROOM_WEBHOOK_PORT: '0',
      GREENROOM_SANDBOX_ACTIVITY: 'off',
    },
    defaultDataDir: dataDir,
    staticDir: dataDir,
    openSecretStore: (d) => Promise.resolve(createNodeSecretStore(d)),
    openExternal: () => Promise.resolve(),
    webhooks: createAppWebhookPort,
    log: options.log ?? (() => undefined),
    panelRequired: options.panelRequired,
  });
}

describe('launchGreenroom (panel-only, sandbox mode)', () => {
  let dir: string;
  let launched: Launched;
  let connection: PanelConnection;
  const logs: string[] = [];
  const opened: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'greenroom-launch-'));
    // The loopback sign-in listener takes a free port; sandbox mode registers whatever it picked.
    const settings = openSettings(dir, { randomBytes });
    settings.update({ redirectUri: 'http://127.0.0.1:0/callback' });
    // The chat test below follows the webhook path; with the live socket on, the socket would show it first.
    settings.setLiveSocket({ ...settings.values().liveSocket, enabled: false });
    launched = await launchGreenroom({
      env: {
        GREENROOM_DATA_DIR: dir,
        GREENROOM_PANEL_PORT: '0',
        GREENROOM_WEBHOOK_PORT: '0',
        GREENROOM_SANDBOX_ACTIVITY: 'off',
        GREENROOM_SANDBOX_AUTO_APPROVE: String(STREAMER_USER_ID),
      },
      defaultDataDir: join(dir, 'unused'),
      staticDir: makeRendererDir().dir,
      openSecretStore: (d) => Promise.resolve(createNodeSecretStore(d)),
      openExternal: async (url) => {
        opened.push(url);
        await visit(url);
      },
      webhooks: createAppWebhookPort,
      log: (line) => logs.push(line),
      panelRequired: true,
    });
    const port = launched.panel!.port;
    connection = createWebSocketTransport({
      url: `ws://127.0.0.1:${port}/ws`,
      token: launched.panel!.token,
      WebSocketImpl: class extends WebSocket {
        constructor(url: string) {
          super(url, { origin: `http://127.0.0.1:${port}` });
        }
      },
    });
  });

  afterAll(async () => {
    connection?.close();
    await launched?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts in sandbox mode with the panel on a kept token and says so in the snapshot', async () => {
    expect(launched.dataDir).toBe(dir);
    expect(existsSync(join(dir, PANEL_TOKEN_FILE_NAME))).toBe(true);
    expect(launched.panel!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
    const page = await rawGet(launched.panel!.port, `/?token=${launched.panel!.token}`);
    expect(page.status).toBe(200);
    // The emote host of the embedded sandbox is allowed for images, on any port of this computer.
    expect(new URL(launched.app.sandbox!.urls.api).hostname).toBe('127.0.0.1');
    expect(page.headers['content-security-policy']).toContain(`img-src 'self' data: http://127.0.0.1:*`);
    const api = createPanelApi(connection);
    const snapshot = await api.app.snapshot();
    expect(snapshot).toMatchObject({
      ok: true,
      value: { mode: 'sandbox', dockUrl: launched.panel!.url, health: { secretStore: { backend: 'node-aes-gcm' } } },
    });
  });

  it('signs in over the panel WebSocket and receives a sandbox chat message through the webhook path', async () => {
    const api = createPanelApi(connection);
    const signedIn = await api.auth.startLogin({});
    expect(signedIn).toMatchObject({ ok: true, value: { signedIn: true, userId: STREAMER_USER_ID } });
    expect(opened[0]).toContain('/oauth/authorize');

    const chat: EventPayloads['kick:event'][] = [];
    connection.on('kick:event', (payload) => chat.push(payload as EventPayloads['kick:event']));
    // The reconciler subscribes after sign-in; deliveries start once the subscription exists.
    await expect
      .poll(
        () =>
          launched.app
            .snapshot()
            .health.subscriptions.some((s) => s.type === 'chat.message.sent' && s.state === 'active'),
        {
          timeout: 10_000,
        },
      )
      .toBe(true);
    triggerEvent(launched.app.sandbox!.ctx, 'chat.message.sent', { overrides: { content: 'hello from the sandbox' } });
    await expect
      .poll(() => chat.find((e) => e.kind === 'chat' && e.message.content === 'hello from the sandbox'), {
        timeout: 10_000,
      })
      .toBeDefined();
    // Chat is shown while its journal write is on its way; the delivery counts as accepted once that write is
    // durable (docs/decisions.md, "Shown while the journal write is on its way"), which can be a little later.
    await expect.poll(() => launched.app.snapshot().health.counters.accepted, { timeout: 10_000 }).toBeGreaterThan(0);
  });

  it('says the port is probably held by Greenroom, naming no page, when a second start finds it', async () => {
    const taken = launched.panel!.port;
    const other = mkdtempSync(join(tmpdir(), 'greenroom-launch-'));
    try {
      await expect(startBeside(other, taken, { panelRequired: true })).rejects.toThrow(
        new LaunchError(probablyRunningText(taken)),
      );
      // Refused before it opened anything: no settings, journal, history or sandbox of its own beside the running one.
      expect(readdirSync(other)).toEqual([]);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("refuses a second start on the same data dir before it touches the running one's files", async () => {
    const taken = launched.panel!.port;
    const discovery = readFileSync(join(dir, 'sandbox.json'), 'utf8');
    const before = readdirSync(dir).sort();
    await expect(startBeside(dir, taken, { panelRequired: true })).rejects.toThrow(
      new LaunchError(probablyRunningText(taken)),
    );
    // The running app's sandbox is still found by `npm run sandbox -- trigger`, and nothing new was made beside it.
    expect(readFileSync(join(dir, 'sandbox.json'), 'utf8')).toBe(discovery);
    expect(readdirSync(dir).sort()).toEqual(before);
  });

  it('on the desktop, where the panel is optional, still says a Greenroom holds its port, and starts', async () => {
    const taken = launched.panel!.port;
    const other = mkdtempSync(join(tmpdir(), 'greenroom-launch-'));
    const lines: string[] = [];
    try {
      const desktop = await startBeside(other, taken, {
        panelRequired: false,
        log: (line) => lines.push(line),
      });
      await desktop.stop();
      expect(desktop.panel).toBeNull();
      expect(lines).toContain(`panel: not started: ${probablyRunningText(taken)}`);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('says where the webhook receiver listens, and the sandbox admin API', () => {
    const receiver = launched.app.snapshot().health.receiver.url;
    expect(receiver).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/kick\/webhook$/);
    expect(startupLines(launched.app, dir)).toEqual([
      `Webhook receiver: ${receiver}`,
      `Sandbox admin API: ${launched.app.sandbox!.urls.admin} (its token is in ${join(dir, 'sandbox.json')}; ` +
        'npm run sandbox -- trigger … finds it there)',
    ]);
  });

  it('refuses a webhook port already taken, in one line naming the setting and the variable', async () => {
    const taken = launched.app.snapshot().health.receiver.port!;
    const other = mkdtempSync(join(tmpdir(), 'greenroom-launch-'));
    try {
      // The port comes from the settings file, as on a streamer's machine.
      openSettings(other, { randomBytes });
      const file = join(other, `${SETTINGS_FILE_NAME}.json`);
      writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), webhookPort: taken }));
      const start = (env: Record<string, string>) =>
        launchGreenroom({
          env: { GREENROOM_DATA_DIR: other, GREENROOM_PANEL_PORT: '0', GREENROOM_SANDBOX_ACTIVITY: 'off', ...env },
          defaultDataDir: other,
          staticDir: other,
          openSecretStore: (d) => Promise.resolve(createNodeSecretStore(d)),
          openExternal: () => Promise.resolve(),
          webhooks: createAppWebhookPort,
          log: () => undefined,
          panelRequired: true,
        });
      await expect(start({})).rejects.toThrow(
        new LaunchError(
          `the webhook port ${taken} is in use; set webhookPort in ${file} (or GREENROOM_WEBHOOK_PORT) to another ` +
            'port, and point your own tunnel or proxy there if you use one (0 picks a free one)',
        ),
      );
      await expect(start({ GREENROOM_WEBHOOK_PORT: String(taken) })).rejects.toThrow(
        /^the webhook port \d+ is in use; set GREENROOM_WEBHOOK_PORT to another port/,
      );
      expect(startFailureText(new LaunchError('one line'))).toBe('one line');
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('launchGreenroom with damaged files in the data dir', () => {
  it('moves the damaged settings and secrets aside, says so in one line each, and starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'greenroom-launch-'));
    const notices: string[] = [];
    try {
      writeFileSync(join(dir, `${SETTINGS_FILE_NAME}.json`), '{"version": 2, "chatScr');
      writeFileSync(join(dir, `${SECRETS_FILE_NAME}.json`), '');
      const launched = await launchGreenroom({
        env: {
          GREENROOM_DATA_DIR: dir,
          GREENROOM_PANEL_PORT: '0',
          GREENROOM_WEBHOOK_PORT: '0',
          GREENROOM_SANDBOX_ACTIVITY: 'off',
        },
        defaultDataDir: dir,
        staticDir: makeRendererDir().dir,
        openSecretStore: (d) => Promise.resolve(createNodeSecretStore(d, { notice: (l) => notices.push(l) })),
        openExternal: () => Promise.resolve(),
        webhooks: createAppWebhookPort,
        log: () => undefined,
        notice: (l) => notices.push(l),
        panelRequired: true,
      });
      await launched.stop();
      expect(notices).toHaveLength(2);
      expect(notices[0]).toMatch(
        new RegExp(
          `^Greenroom: the settings file ${dir}/greenroom-settings\\.json was damaged \\(not valid JSON\\); it was moved to ${dir}/greenroom-settings\\.json\\.damaged-[0-9TZ-]+ and Greenroom starts with default settings\\.$`,
        ),
      );
      expect(notices[1]).toMatch(
        new RegExp(`^Greenroom: the saved sign-in ${dir}/greenroom-secrets\\.json was damaged`),
      );
      expect(notices[1]).toContain(SIGN_IN_AGAIN);
      expect(readdirSync(dir).filter((f) => f.includes('.damaged-'))).toHaveLength(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says in one line when the data folder cannot be created', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'greenroom-launch-'));
    try {
      // A file where a folder should be: mkdir fails (ENOTDIR) for root too.
      writeFileSync(join(dir, 'file'), '');
      const inside = join(dir, 'file', 'data');
      await expect(
        launchGreenroom({
          // Port 0: whatever holds the default panel port (a Greenroom the developer runs) must not answer first.
          env: { GREENROOM_DATA_DIR: inside, GREENROOM_PANEL_PORT: '0' },
          defaultDataDir: inside,
          staticDir: dir,
          openSecretStore: (d) => Promise.resolve(createNodeSecretStore(d)),
          openExternal: () => Promise.resolve(),
          webhooks: createAppWebhookPort,
          log: () => undefined,
          panelRequired: true,
        }),
      ).rejects.toThrow(
        new LaunchError(
          `the data folder ${inside} cannot be created (ENOTDIR); set GREENROOM_DATA_DIR to a folder you can write`,
        ),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
