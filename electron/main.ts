/**
 * The Electron entry: one instance, the shared launch (electron/launch/launch-greenroom.ts) with the
 * safeStorage secret store and the system browser, IPC registered with its sender check, the windows
 * (main, pop-out chat, always-on-top companion) with remembered placement, the tray with the connection
 * status, desktop notifications, and the panel server for the OBS dock. Decisions live in the pure
 * modules under electron/shell/; this file only applies them to Electron objects.
 */
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  Menu,
  nativeImage,
  net,
  Notification,
  protocol,
  screen,
  session,
  shell,
  Tray,
  type WebContents,
} from 'electron';
import ElectronStore from 'electron-store';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemClock } from './core/clock';
import { createDiagnosticsSaver, runtimeVersions } from './core/diagnostics';
import { openLogFile } from './core/log-file';
import { createEntryLogger } from './core/logger';
import { logProcessWarnings, warningSwitches } from './core/process-warnings';
import { learningSecretStore, panelTokenOf } from './core/logger-secrets';
import { NotificationBursts } from '../shared/notification-bursts';
import { resolveDataDir } from './app/config';
import { isAllowedExternalUrl, linkPolicyFor } from './ipc/external-links';
import { registerIpc } from './ipc/register';
import { launchGreenroom, type Launched, startFailureText } from './launch/launch-greenroom';
import { startupFailureDialog } from './launch/startup-dialog';
import { startupLines } from './launch/startup-lines';
import { createAppWebhookPort } from './app/webhook-port';
import { openMovingAsideDamage } from './secrets/damaged-file';
import { EncryptedSecretStore } from './secrets/encrypted-secret-store';
import { SIGN_IN_AGAIN } from './secrets/node-secret-store';
import { createSafeStorageCipher } from './secrets/safe-storage-cipher';
import { APP_USER_MODEL_ID } from './shell/app-id';
import { desktopImgSrc } from './shell/desktop-csp';
import { drawStatusDot } from './shell/icon-png';
import { guardOpenExternal } from './shell/open-external';
import { createRendererFileHandler } from './shell/renderer-file-handler';
import { createTrayPainter } from './shell/tray-status';
import { createPageSenderCheck } from './shell/trusted-sender';
import { routeUrl, WINDOW_ROUTES, windowOptions } from './shell/window-options';
import { parseWindowState, placeWindow, WINDOW_SIZES, type WindowKind } from './shell/window-state';

const here = dirname(fileURLToPath(import.meta.url)); // out/main
const rendererIndex = join(here, '..', 'renderer', 'index.html');
const preload = join(here, '..', 'preload', 'index.cjs');
// A dev server only for unpackaged runs; a packaged app always loads its own files.
const devServerUrl = app.isPackaged ? undefined : process.env.GREENROOM_RENDERER_URL;

// One logger (docs/logging.md): the terminal's plain lines on stderr as before, and the log file in the data
// dir once it is known.
const logger = createEntryLogger(process.env, systemClock);
const log = logger.line;
logProcessWarnings(process, logger, warningSwitches(process, process.env));
/** What the streamer should read at start: on stdout (the terminal `npm start` runs in) and in the log. */
const say = (line: string): boolean => process.stdout.write(`${line}\n`);

/**
 * The desktop secret store's file; one that is not JSON is moved aside (the tokens in it are lost, the
 * streamer signs in again) instead of stopping the start.
 */
function openSecretsFile(dir: string, notice: (line: string) => void): ElectronStore {
  const name = 'greenroom-secrets-os';
  const file = join(dir, `${name}.json`);
  const onMovedAside = (aside: string, reason: string): void =>
    notice(`Greenroom: the saved sign-in ${file} ${reason}; it was moved to ${aside}. ${SIGN_IN_AGAIN}`);
  const open = (): ElectronStore => new ElectronStore({ cwd: dir, name, configFileMode: 0o600 });
  return openMovingAsideDamage(file, open, { nowMs: Date.now, onMovedAside });
}

/** Opens a link from the panel in the system browser when the link policy allows it. */
function openLink(launched: Launched | null, url: string): void {
  if (isAllowedExternalUrl(url, linkPolicyFor(launched?.app.sandbox?.urls))) {
    void shell.openExternal(url);
  } else {
    log(`window: refused to open ${url.slice(0, 100)}`);
  }
}

/** Window open and navigation guards for every web contents the app ever creates ([code style point 8](../docs/code-style.md#security-baseline)). */
function hardenContents(contents: WebContents, launched: () => Launched | null): void {
  contents.setWindowOpenHandler(({ url }) => {
    openLink(launched(), url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    openLink(launched(), url);
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** The three window kinds, each opened at most once, with placement saved on close. */
function createWindows(store: ElectronStore) {
  const windows = new Map<WindowKind, BrowserWindow>();
  // Streamer mode: out of screen captures where the system allows it (Windows, macOS; docs/overlays.md).
  let captureProtected = false;
  const alive = (): BrowserWindow[] => [...windows.values()].filter((w) => !w.isDestroyed());
  const live = (kind: WindowKind): BrowserWindow | null => {
    const win = windows.get(kind);
    return win && !win.isDestroyed() ? win : null;
  };
  const open = (kind: WindowKind): BrowserWindow => {
    const existing = live(kind);
    if (existing) {
      if (existing.isMinimized()) {
        existing.restore();
      }
      existing.focus();
      return existing;
    }
    const saved = parseWindowState(store.get(`windows.${kind}`));
    const areas = screen.getAllDisplays().map((display) => display.workArea);
    const placement = placeWindow(saved, areas, WINDOW_SIZES[kind]);
    const win = new BrowserWindow(windowOptions(kind, placement, preload));
    win.setContentProtection(captureProtected);
    windows.set(kind, win);
    win.once('ready-to-show', () => {
      if (placement.maximized) {
        win.maximize();
      }
      win.show();
      if (kind === 'main') {
        // scripts/start.mjs waits for this line to know Electron really started.
        process.stdout.write('Greenroom: window open\n');
      }
    });
    win.on('close', () => {
      store.set(`windows.${kind}`, { bounds: win.getNormalBounds(), maximized: win.isMaximized() });
    });
    win.on('closed', () => windows.delete(kind));
    const loading = devServerUrl
      ? win.loadURL(routeUrl(devServerUrl, kind))
      : win.loadFile(rendererIndex, WINDOW_ROUTES[kind]);
    loading.catch((error: unknown) => log(`window: ${kind} failed to load: ${String(error)}`));
    return win;
  };
  return {
    open,
    toggle(kind: WindowKind): void {
      const win = live(kind);
      if (win) {
        win.close();
      } else {
        open(kind);
      }
    },
    contents: (): WebContents[] => alive().map((w) => w.webContents),
    protectFromCapture(on: boolean): void {
      captureProtected = on;
      alive().forEach((w) => w.setContentProtection(on));
    },
  };
}

type Windows = ReturnType<typeof createWindows>;

/** The tray icon: status colour and tooltip follow the session and health events. */
function createTray(launched: Launched, windows: Windows): Tray {
  const tray = new Tray(nativeImage.createEmpty());
  // Health changes a few times a second in a raid; the icon is redrawn only when its status changes.
  const paint = createTrayPainter((status) => {
    tray.setImage(nativeImage.createFromBuffer(drawStatusDot(32, status.level), { scaleFactor: 2 }));
    tray.setToolTip(status.tooltip);
  });
  const refresh = (): void => paint(launched.app.snapshot());
  tray.setContextMenu(
    Menu.buildFromTemplate([
      { label: 'Show Greenroom', click: () => windows.open('main') },
      { label: 'Pop out chat', click: () => windows.open('chat') },
      { label: 'Companion mode', click: () => windows.toggle('companion') },
      {
        label: 'Copy OBS dock URL',
        enabled: launched.panel !== null,
        click: () => {
          clipboard
            .writeText(launched.panel?.url ?? '')
            .catch((error: unknown) => log(`tray: copy failed: ${String(error)}`));
        },
      },
      { type: 'separator' },
      { label: 'Quit Greenroom', click: () => app.quit() },
    ]),
  );
  tray.on('click', () => windows.open('main'));
  // The launch's events, not one app's: a settings change may build a new app (launch/app-host.ts).
  launched.events.on('session:changed', refresh);
  launched.events.on('health:changed', refresh);
  launched.events.on('app:restarted', refresh);
  refresh();
  return tray;
}

/** Desktop notifications for the feed items the settings switch on, paced so a raid is not 300 pop-ups. */
function notifyFeed(launched: Launched, windows: Windows): void {
  const bursts = new NotificationBursts({
    now: Date.now,
    setTimeout: (fn, ms) => {
      const timer = setTimeout(fn, ms);
      return () => clearTimeout(timer);
    },
    canShow: () => Notification.isSupported(),
    show: (note) => {
      const shown = new Notification({ title: note.title, body: note.body });
      shown.on('click', () => windows.open('main'));
      shown.show();
    },
  });
  launched.events.on('kick:event', (event) => {
    if (event.kind === 'chat') {
      return;
    }
    const note = launched.app.notificationsFor(event.item);
    if (note) {
      bursts.offer(event.item, note);
    }
  });
}

/**
 * Our page is served with an image policy built from the emote host setting; when a settings change alters
 * that policy, open windows reload to take it ([emote images](../docs/desktop-runtime.md#emote-images-in-the-desktop-window)).
 */
function serveRendererPage(launched: Launched, windows: Windows): void {
  if (devServerUrl) {
    return;
  }
  const emoteHost = (): string => launched.app.snapshot().settings.emoteHost;
  protocol.handle(
    'file',
    createRendererFileHandler({
      rendererIndex,
      platform: process.platform,
      emoteHost,
      // Sync: Electron's fs reads inside the asar; the page is a few hundred bytes.
      readFile: (path) => Promise.resolve(readFileSync(path, 'utf8')),
      passThrough: (request) => net.fetch(request, { bypassCustomProtocolHandlers: true }),
    }),
  );
  let served = desktopImgSrc(emoteHost());
  launched.events.on('settings:changed', (view) => {
    const wanted = desktopImgSrc(view.emoteHost);
    if (wanted !== served) {
      served = wanted;
      windows.contents().forEach((contents) => contents.reload());
    }
  });
}

async function start(dataDir: string, holder: { launched: Launched | null; tray: Tray | null }): Promise<void> {
  // No web permission is ever needed except writing the dock URL to the clipboard.
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) =>
    callback(permission === 'clipboard-sanitized-write'),
  );
  // Window placement only: a damaged file is moved aside and the windows open at their default places.
  const windows = createWindows(
    openMovingAsideDamage(
      join(dataDir, 'greenroom-windows.json'),
      () => new ElectronStore({ cwd: dataDir, name: 'greenroom-windows', configFileMode: 0o600 }),
      {
        nowMs: Date.now,
        onMovedAside: (aside, reason) => log(`window: the placement file ${reason}; moved to ${aside}`),
      },
    ),
  );
  const launched = await launchGreenroom({
    env: process.env,
    defaultDataDir: dataDir,
    staticDir: join(here, '..', 'renderer'),
    openSecretStore: async (dir, notice) =>
      learningSecretStore(
        new EncryptedSecretStore({
          // Its own file: the panel-only mode's store uses another cipher, and each drops what it cannot read.
          kv: openSecretsFile(dir, notice),
          cipher: await createSafeStorageCipher(),
          log,
        }),
        logger.secrets,
      ),
    openExternal: guardOpenExternal((url) => shell.openExternal(url)),
    webhooks: (deps) => createAppWebhookPort(deps, () => logger.enabled('debug')),
    shell: { popOutChat: () => windows.open('chat'), toggleCompanion: () => windows.toggle('companion') },
    log,
    notice: say,
    panelRequired: false,
    diagnostics: createDiagnosticsSaver(() => ({
      dataDir,
      clock: systemClock,
      logger,
      versions: runtimeVersions(app.getVersion(), process),
    })),
  });
  holder.launched = launched;
  // The secrets held outside the secret store (the overlay key, the configuration's client secret, the stream
  // key once read from Kick) are read at each line, so a new one or a restarted app is known before it could be
  // logged.
  logger.secrets.add(panelTokenOf(launched.panel?.url));
  logger.secrets.watch(() => launched.app.heldSecrets());
  const logFile = openLogFile({ dataDir: launched.dataDir, nowMs: () => Date.now(), notice: say });
  if (logFile) {
    logger.attachFile(logFile);
  }
  registerIpc({
    router: launched.router,
    events: launched.events,
    // The page's file, compared as a path: its URL is Chromium's spelling (docs/desktop-runtime.md#who-may-use-ipc).
    isTrustedSender: createPageSenderCheck(devServerUrl ? { devServerUrl } : { file: rendererIndex }),
    targets: windows.contents,
    log,
  });
  windows.protectFromCapture(launched.app.snapshot().settings.streamerMode);
  serveRendererPage(launched, windows);
  launched.events.on('settings:changed', (view) => windows.protectFromCapture(view.streamerMode));
  windows.open('main');
  holder.tray = createTray(launched, windows);
  notifyFeed(launched, windows);
  app.on('second-instance', () => windows.open('main'));
  app.on('activate', () => windows.open('main'));
  if (launched.panel) {
    say(`Greenroom panel (OBS dock): ${launched.panel.url}`);
  }
  startupLines(launched.app, launched.dataDir).forEach(say);
}

function main(): void {
  const dataDir = resolveDataDir(process.env, app.getPath('userData'));
  // Before ready, so Chromium's own profile lives beside Greenroom's data (tests pass a temp dir).
  app.setPath('userData', dataDir);
  // After setPath: the lock belongs to the data folder, so a copy with its own GREENROOM_DATA_DIR runs beside
  // another Greenroom ([one copy per data folder](../docs/desktop-runtime.md#one-copy-per-data-folder)).
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  if (process.platform === 'win32') {
    // The installer's shortcut carries this id; without it Windows drops the app's notifications.
    app.setAppUserModelId(APP_USER_MODEL_ID);
  }
  const holder: { launched: Launched | null; tray: Tray | null } = { launched: null, tray: null };
  app.on('web-contents-created', (_event, contents) => hardenContents(contents, () => holder.launched));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') {
      app.quit();
    }
  });
  let stopped = false;
  app.on('before-quit', (event) => {
    if (stopped || !holder.launched) {
      return;
    }
    // Stop the services (journal flush, sandbox, panel server) before the process goes.
    event.preventDefault();
    holder.launched
      .stop()
      .catch((error: unknown) => log(`app: stopping failed: ${String(error)}`))
      .finally(() => {
        stopped = true;
        app.quit();
      });
  });
  app
    .whenReady()
    .then(() => start(dataDir, holder))
    .catch((error: unknown) => {
      log(`Greenroom could not start: ${startFailureText(error)}`);
      // A packaged app has no terminal: the same line in a native box, then a non-zero exit.
      const box = startupFailureDialog(error);
      dialog.showErrorBox(box.title, box.content);
      app.exit(1);
    });
}

main();
