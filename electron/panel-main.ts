/**
 * The panel-only entry (no Electron): `npm run panel`, and `npm start` where no Electron runtime exists.
 * Builds the same app as the desktop entry, with the Node secret store, starts the panel server and
 * prints one line with its URL (two in sandbox mode), then runs until SIGINT or SIGTERM and stops
 * cleanly. Logs go to stderr so stdout carries only those lines.
 */
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isAppError } from '../shared/errors';
import { defaultDataDir } from './launch/default-data-dir';
import { launchGreenroom, LaunchError } from './launch/launch-greenroom';
import { createAppWebhookPort } from './launch/webhook-port';
import { guardOpenExternal } from './shell/open-external';
import { createNodeSecretStore } from './secrets/node-secret-store';

const here = dirname(fileURLToPath(import.meta.url));
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

/** Without a desktop, a sign-in link cannot open a browser by itself: it is printed for the user to open. */
const printLink = guardOpenExternal((url) => {
  process.stdout.write(`Open this link to continue: ${url}\n`);
  return Promise.resolve();
});

async function main(): Promise<void> {
  const launched = await launchGreenroom({
    env: process.env,
    defaultDataDir: defaultDataDir(process.platform, process.env, homedir()),
    // out/main/panel.js → out/renderer
    staticDir: join(here, '..', 'renderer'),
    openSecretStore: (dir) => Promise.resolve(createNodeSecretStore(dir, { log })),
    openExternal: printLink,
    webhooks: createAppWebhookPort,
    log,
    panelRequired: true,
  });
  process.stdout.write(`Greenroom panel: ${launched.panel!.url}\n`);
  if (launched.app.config.mode === 'sandbox') {
    process.stdout.write(
      'Greenroom runs on its embedded sandbox (a simulated Kick); add Kick app credentials in Settings to go live.\n',
    );
  }
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      return;
    }
    stopping = true;
    log(`panel: ${signal}, stopping`);
    launched.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log(`panel: stopping failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  // A known failure (bad configuration, port taken) is one plain line; anything else keeps its stack.
  const known = error instanceof LaunchError || isAppError(error);
  const message = known ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`Greenroom panel could not start: ${message}\n`);
  process.exit(1);
});
