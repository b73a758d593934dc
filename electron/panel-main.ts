/**
 * The panel-only entry (no Electron): `npm run panel`, and `npm start` where no Electron runtime exists.
 * Builds the same app as the desktop entry, with the Node secret store, starts the panel server and
 * prints its URL, the webhook receiver's URL and, in sandbox mode, the embedded sandbox's admin URL, then
 * runs until SIGINT or SIGTERM and stops cleanly. Logs go to stderr so stdout carries only what the
 * streamer reads: those lines, a start-up problem (a damaged file moved aside) and the sign-in link.
 */
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultDataDir } from './launch/default-data-dir';
import { launchGreenroom, startFailureText } from './launch/launch-greenroom';
import { startupLines } from './launch/startup-lines';
import { createAppWebhookPort } from './launch/webhook-port';
import { guardOpenExternal } from './shell/open-external';
import { createNodeSecretStore } from './secrets/node-secret-store';

const here = dirname(fileURLToPath(import.meta.url));
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};
const say = (line: string): void => {
  process.stdout.write(`${line}\n`);
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
    openSecretStore: (dir, notice) => Promise.resolve(createNodeSecretStore(dir, { log, notice })),
    openExternal: printLink,
    webhooks: createAppWebhookPort,
    log,
    notice: say,
    panelRequired: true,
  });
  say(`Greenroom panel: ${launched.panel!.url}`);
  startupLines(launched.app, launched.dataDir).forEach(say);
  if (launched.app.config.mode === 'sandbox') {
    say(
      'Greenroom runs on its embedded sandbox (a simulated Kick); OBS can stream to it. For real viewers, add Kick app credentials in Settings.',
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
  process.stderr.write(`Greenroom panel could not start: ${startFailureText(error)}\n`);
  process.exit(1);
});
