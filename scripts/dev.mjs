#!/usr/bin/env node
// `npm run dev`: the panel with hot reload, for work on the renderer. Vite serves renderer/ from source, and
// an edited component replaces itself in the open page without a reload; main runs as the panel-only app
// (out/main/panel.js, the same app `npm run panel` runs, on the embedded sandbox unless credentials are
// set), rebuilt and restarted when a file under electron/, shared/ or sandbox/ changes.
//
// The page reaches main the way an OBS dock does, over the panel WebSocket: Vite proxies `/ws` to the panel
// server and presents the panel server's own origin, so the server's origin and Host checks stay exactly
// as in production (ARCHITECTURE.md, "Processes and the one contract"). The access token is the panel's usual one;
// the printed link carries it once, as the panel server's does.
//
// Environment: GREENROOM_DEV_PORT (Vite, default 5173, the next free one if taken); every GREENROOM_*
// variable of the app passes through (GREENROOM_DATA_DIR to keep dev data apart from a real install).
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PANEL_LINE = /^Greenroom panel: (http:\/\/127\.0\.0\.1:(\d+)\/\S*)$/m;
const WS_PATH = '/ws';

const [{ createServer }, esbuild] = await Promise.all([import('vite'), import('esbuild')]);

// The panel server insists on a static folder; the page itself comes from Vite.
mkdirSync(join(root, 'out', 'renderer'), { recursive: true });

/** @type {import('node:child_process').ChildProcess | null} */
let main = null;
/** The panel server's port, kept across restarts so the proxy and an open page keep working. */
let panelPort = 0;
let token = '';

/** Starts out/main/panel.js; resolves once it printed its panel URL. */
function startMain() {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, GREENROOM_PANEL_PORT: String(panelPort) };
    const child = spawn(process.execPath, [join(root, 'out', 'main', 'panel.js')], {
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

// Main is built by esbuild's watcher (its first build starts the app) and restarted after each later one.
let restarting = Promise.resolve();
/** @type {(ok: boolean) => void} */
let firstBuilt = () => {};
const built = new Promise((resolve) => (firstBuilt = resolve));
const restartOnRebuild = {
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
};
const mainBuild = await esbuild.context({
  absWorkingDir: root,
  entryPoints: ['electron/panel-main.ts'],
  outfile: 'out/main/panel.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: 'inline',
  logLevel: 'warning',
  plugins: [restartOnRebuild],
});
await mainBuild.watch();
if (!(await built)) {
  console.error('Greenroom dev: main did not build; see above.');
  process.exit(1);
}
await startMain();

const vite = await createServer({
  configFile: join(root, 'vite.config.ts'),
  root: join(root, 'renderer'),
  mode: 'development',
  server: {
    host: '127.0.0.1',
    port: Number(process.env.GREENROOM_DEV_PORT ?? 5173),
    proxy: {
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
console.log(`Greenroom dev panel: http://127.0.0.1:${vitePort}/?token=${token}`);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (closing) {
      return;
    }
    closing = true;
    void Promise.allSettled([vite.close(), mainBuild.dispose(), stopMain()]).then(() => process.exit(0));
  });
}
