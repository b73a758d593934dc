#!/usr/bin/env node
// `npm run dev`: the panel with hot reload, for work on the renderer. Vite serves renderer/ from source, and
// an edited component replaces itself in the open page without a reload. Main runs beside it and is rebuilt
// and restarted when a file under electron/, shared/ or sandbox/ changes:
// - with an Electron binary, the desktop app, whose window loads the panel from Vite (GREENROOM_RENDERER_URL,
//   honoured by electron/main.ts in an unpackaged app);
// - without one, or with `npm run dev -- --panel`, the panel-only app (out/main/panel.js, what `npm run
//   panel` runs), and the panel opens in the browser from the printed link. Vite proxies `/ws` to the panel
//   server and presents the panel server's own origin, so the server's origin and Host checks stay exactly
//   as in production (ARCHITECTURE.md, "Processes and the one contract"). The link carries the panel's
//   usual access token.
// Either way main runs on the embedded sandbox unless Kick credentials are set.
//
// Environment: GREENROOM_DEV_PORT (Vite, default 5173, the next free one if taken); every GREENROOM_*
// variable of the app passes through (GREENROOM_DATA_DIR to keep dev data apart from a real install).
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { APP_NODE_FLAGS, appNodeEnv, electronJsFlags } from './app-node-flags.mjs';
import { mainTargets } from './build.mjs';
import { findElectronBinary } from './find-electron.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PANEL_LINE = /^Greenroom panel: (http:\/\/127\.0\.0\.1:(\d+)\/\S*)$/m;
const WS_PATH = '/ws';

const electron = process.argv.includes('--panel') ? null : findElectronBinary(root);
const desktop = electron?.ok ? electron.path : null;
if (electron && !electron.ok) {
  console.log(`Greenroom dev: no desktop window (${electron.reason}); the panel runs in the browser.`);
}

const [{ createServer }, esbuild] = await Promise.all([import('vite'), import('esbuild')]);

/** @type {import('node:child_process').ChildProcess | null} */
let main = null;
/** The panel server's port, kept across restarts so the proxy and an open page keep working. */
let panelPort = 0;
let token = '';
let viteUrl = '';

/** Panel mode: starts out/main/panel.js; resolves once it printed its panel URL. */
function startPanelApp() {
  return new Promise((resolve, reject) => {
    const env = appNodeEnv({ ...process.env, GREENROOM_PANEL_PORT: String(panelPort) });
    const child = spawn(process.execPath, [...APP_NODE_FLAGS, join(root, 'out', 'main', 'panel.js')], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    main = child;
    let out = '';
    let ready = false;
    child.stdout.on('data', (chunk) => {
      const text = chunk.toString('utf8');
      if (ready) {
        process.stdout.write(text);
        return;
      }
      out += text;
      const found = PANEL_LINE.exec(out);
      if (found) {
        ready = true;
        panelPort = Number(found[2]);
        token = new URL(found[1]).searchParams.get('token') ?? token;
        // The other start-up lines (webhook URL, sandbox admin URL) are useful in dev too.
        process.stdout.write(out.replace(PANEL_LINE, '').replace(/^\n+/, ''));
        resolve();
      }
    });
    child.on('exit', (code, signal) => {
      if (main === child) {
        main = null;
      }
      if (!ready) {
        reject(new Error(`the app exited ${signal ?? `with code ${code}`} before its panel was up`));
      }
    });
  });
}

/** Desktop mode: starts Electron on the built main, its window on Vite's panel. */
function startDesktopApp() {
  const child = spawn(desktop, [electronJsFlags(), root], {
    cwd: root,
    env: { ...process.env, GREENROOM_RENDERER_URL: viteUrl },
    stdio: 'inherit',
  });
  main = child;
  child.on('exit', () => {
    if (main === child) {
      // The streamer closed the window (not a restart): dev ends with it.
      main = null;
      void shutDown();
    }
  });
  return Promise.resolve();
}

let closing = false;
/** @type {import('vite').ViteDevServer | null} */
let vite = null;
/** @type {import('esbuild').BuildContext[]} */
let contexts = [];

/**
 * Ends dev: Vite, the watchers and main. Called on Ctrl-C or SIGTERM, and when the desktop window closes.
 */
async function shutDown() {
  if (closing) {
    return;
  }
  closing = true;
  await Promise.allSettled([vite?.close(), ...contexts.map((context) => context.dispose()), stopMain()]);
  process.exit(0);
}

const startMain = () => (desktop ? startDesktopApp() : startPanelApp());

function stopMain() {
  const child = main;
  if (!child) {
    return Promise.resolve();
  }
  main = null;
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

// The panel server insists on a static folder; the page itself comes from Vite.
mkdirSync(join(root, 'out', 'renderer'), { recursive: true });

// Main is built by esbuild's watchers (their first builds start the app) and restarted after each later one.
let restarting = Promise.resolve();
const restartOnRebuild = (firstBuilt) => ({
  name: 'restart-main',
  setup(build) {
    let first = true;
    build.onEnd((result) => {
      if (first) {
        first = false;
        firstBuilt(result.errors.length === 0);
        return;
      }
      if (result.errors.length > 0) {
        console.error('Greenroom dev: main did not build; the running app stays as it was.');
        return;
      }
      restarting = restarting.then(async () => {
        console.log('Greenroom dev: main changed, restarting it');
        await stopMain();
        await startMain().catch((error) => console.error(`Greenroom dev: ${error.message}`));
      });
    });
  },
});
const targets = mainTargets();
const watched = desktop ? [targets.main, targets.preload] : [targets.panel];
const built = [];
contexts = await Promise.all(
  watched.map((target) => {
    let firstBuilt = () => {};
    built.push(new Promise((resolve) => (firstBuilt = resolve)));
    return esbuild.context({ ...target, sourcemap: 'inline', plugins: [restartOnRebuild(firstBuilt)] });
  }),
);
await Promise.all(contexts.map((context) => context.watch()));
if (!(await Promise.all(built)).every(Boolean)) {
  console.error('Greenroom dev: main did not build; see above.');
  process.exit(1);
}
if (!desktop) {
  await startPanelApp();
}

vite = await createServer({
  configFile: join(root, 'vite.config.ts'),
  root: join(root, 'renderer'),
  mode: 'development',
  server: {
    host: '127.0.0.1',
    port: Number(process.env.GREENROOM_DEV_PORT ?? 5173),
    proxy: desktop
      ? undefined
      : {
          [WS_PATH]: {
            target: `http://127.0.0.1:${panelPort}`,
            ws: true,
            changeOrigin: true,
            // The panel server accepts WebSockets only from its own origin (cross-site WebSocket hijacking).
            configure: (proxy) => {
              proxy.on('proxyReqWs', (request) => request.setHeader('origin', `http://127.0.0.1:${panelPort}`));
            },
          },
        },
  },
});
await vite.listen();
const address = vite.httpServer?.address();
const vitePort = typeof address === 'object' && address ? address.port : 0;
viteUrl = `http://127.0.0.1:${vitePort}/`;
if (desktop) {
  await startDesktopApp();
  console.log(`Greenroom dev: the desktop window shows the panel from ${viteUrl}`);
} else {
  console.log(`Greenroom dev panel: ${viteUrl}?token=${token}`);
}

// Vite ends the process on SIGTERM as soon as its own server is closed, which can leave main running
// orphaned; shutDown closes Vite too, and waits for main.
process.removeAllListeners('SIGTERM');
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => void shutDown());
}
