/**
 * The panel-only entry (no Electron): `npm run panel`, and `npm start` where no Electron runtime exists.
 * Builds the same app as the desktop entry, with the Node secret store, starts the panel server and
 * prints its URL, the webhook receiver's URL and, in sandbox mode, the embedded sandbox's admin URL, then
 * runs until SIGINT, SIGTERM or SIGHUP and stops cleanly. Logs go to stderr so stdout carries only what the
 * streamer reads: those lines, a start-up problem (a damaged file moved aside) and the sign-in link.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemClock } from './core/clock';
import { createDiagnosticsSaver, runtimeVersions } from './core/diagnostics';
import { openLogFile } from './core/log-file';
import { createEntryLogger } from './core/logger';
import { logProcessWarnings, warningSwitches } from './core/process-warnings';
import { learningSecretStore, panelTokenOf } from './core/logger-secrets';
import { defaultDataDir } from './launch/default-data-dir';
import { launchGreenroom, startFailureText } from './launch/launch-greenroom';
import { processRuns, watchLauncher } from './launch/launcher-watch';
import { unrefTimer } from './core/scheduler';
import { startupLines } from './launch/startup-lines';
import { createAppWebhookPort } from './app/webhook-port';
import { guardOpenExternal } from './shell/open-external';
import { createNodeSecretStore } from './secrets/node-secret-store';

const here = dirname(fileURLToPath(import.meta.url));
// One logger (docs/logging.md): the terminal's plain lines on stderr as before, and the log file in the data
// dir once it is known.
const logger = createEntryLogger(process.env, systemClock);
const log = logger.line;
logProcessWarnings(process, logger, warningSwitches(process, process.env));

/** Greenroom's version from its package.json (out/main/panel.js → ../../package.json). */
function appVersion(): string {
  try {
    return (
      (JSON.parse(readFileSync(join(here, '..', '..', 'package.json'), 'utf8')) as { version?: string }).version ??
      'unknown'
    );
  } catch {
    return 'unknown';
  }
}
const say = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

/** Without a desktop, a sign-in link cannot open a browser by itself: it is printed for the user to open. */
const printLink = guardOpenExternal((url) => {
  process.stdout.write(`Open this link to continue: ${url}\n`);
  return Promise.resolve();
});

/** How the panel stops once it is up; until then, `launcherGone` says whether it is to stop as soon as it is. */
let stopRunning: ((why: string) => void) | null = null;
let launcherGone = false;
const LAUNCHER_GONE = 'the npm start (or npm run panel) that started it is gone';
// Watched from the first moment: a launcher killed while the app starts must not leave it running afterwards.
watchLauncher({
  env: process.env,
  ppid: () => process.ppid,
  runs: processRuns,
  setTimer: unrefTimer,
  onGone: () => {
    launcherGone = true;
    stopRunning?.(LAUNCHER_GONE);
  },
});

async function main(): Promise<void> {
  let dataDir: string | null = null;
  const dataDirOf = (): string => {
    if (!dataDir) {
      throw new Error('diagnostics asked for before the data folder is known');
    }
    return dataDir;
  };
  const launched = await launchGreenroom({
    env: process.env,
    defaultDataDir: defaultDataDir(process.platform, process.env, homedir()),
    // out/main/panel.js → out/renderer
    staticDir: join(here, '..', 'renderer'),
    openSecretStore: (dir, notice) =>
      Promise.resolve(learningSecretStore(createNodeSecretStore(dir, { log, notice }), logger.secrets)),
    openExternal: printLink,
    webhooks: (deps) => createAppWebhookPort(deps, () => logger.enabled('debug')),
    log,
    notice: say,
    panelRequired: true,
    diagnostics: createDiagnosticsSaver(() => ({
      dataDir: dataDirOf(),
      clock: systemClock,
      logger,
      versions: runtimeVersions(appVersion(), process),
    })),
  });
  dataDir = launched.dataDir;
  // The secrets the app holds outside the secret store (the overlay key, the configuration's client secret, the
  // stream key once read from Kick) are read at each line, so a new one or a restarted app is known before it
  // could be logged.
  logger.secrets.add(panelTokenOf(launched.panel?.url));
  logger.secrets.watch(() => launched.app.heldSecrets());
  const file = openLogFile({ dataDir, nowMs: () => Date.now(), notice: say });
  if (file) {
    logger.attachFile(file);
  }
  say(`Greenroom panel: ${launched.panel!.url}`);
  startupLines(launched.app, launched.dataDir).forEach(say);
  if (launched.app.config.mode === 'sandbox') {
    say(
      'Greenroom runs on its embedded sandbox (a simulated Kick); OBS can stream to it. For real viewers, add Kick app credentials in Settings.',
    );
  }
  let stopping = false;
  const stop = (why: string): void => {
    if (stopping) {
      return;
    }
    stopping = true;
    log(`panel: ${why}, stopping`);
    launched.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log(`panel: stopping failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  // SIGHUP: the terminal it runs in was closed. Stopped as on Ctrl-C, so the journal and the history close cleanly;
  // the terminal's streams are gone by then, so a line that cannot reach them is let go (the log file has it).
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', () => undefined);
  }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, stop);
  }
  stopRunning = stop;
  if (launcherGone) {
    stop(LAUNCHER_GONE);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`Greenroom panel could not start: ${startFailureText(error)}\n`);
  process.exit(1);
});
