/**
 * `npm run sandbox`: runs the Kick sandbox standalone for any Kick client, or drives a running one.
 *
 * Started without a subcommand it prints, as its first stdout line, one JSON object (`describe()`: the
 * auth, API and admin URLs, client id and secret, broadcaster id, public key), then human-readable notes on
 * stderr, and runs until SIGINT or SIGTERM, when it closes cleanly and exits 0. While it runs, its admin
 * URL and token sit in Greenroom's data dir (discovery.ts). Its world lives in memory unless `--state FILE`
 * names a file to keep it in across runs (persist-file.ts); a file it cannot use stops it from starting, left
 * as it is. With `trigger`, `scenario`, `advance` or `stop` it calls a running sandbox's admin API (the
 * app's embedded one, else a standalone one, unless flags name another) and prints the JSON answer. Bad
 * arguments print one line on stderr and exit 2.
 *
 * `npm run sandbox` itself prints a two-line banner on stdout before the script starts (npm's, not ours);
 * `npm run -s sandbox …` leaves it out, so the JSON is then the very first line (README, "The Kick sandbox").
 */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { resolveDataDir } from '../electron/app/config';
import { defaultDataDir } from '../electron/launch/default-data-dir';
import { type AdminCall, CliUsageError, parseCliArgs, type ServeArgs, USAGE } from './admin/cli-args';
import {
  removeSandboxDiscovery,
  resolveAdminTarget,
  type SandboxDiscovery,
  STANDALONE_SANDBOX_FILE,
  writeSandboxDiscovery,
} from './discovery';
import { createSandbox, type Sandbox } from './index';
import { saveWorld, type SavedWorld } from './persist';
import { createWorldSaver, readWorldFile, type WorldSaver } from './persist-file';

/** How long a clean shutdown may take before the process gives up on it. */
const SHUTDOWN_TIMEOUT_MS = 5000;

function printErr(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** Greenroom's data dir, as the app resolves it: `GREENROOM_DATA_DIR` or the platform's default. */
function dataDir(): string {
  return resolveDataDir(process.env, defaultDataDir(process.platform, process.env, homedir()));
}

/**
 * The world saved in `--state FILE`, or null for a fresh one. A file that cannot be used is left as it is
 * (it may be another program's), with its line, and the sandbox does not start.
 */
function readStateFile(file: string): SavedWorld | null {
  const read = readWorldFile({ path: file, notice: printErr });
  if (!read.writable) {
    printErr('sandbox: not starting; move that file away or name another with --state');
    process.exit(1);
  }
  return read.world;
}

async function serve(args: ServeArgs): Promise<void> {
  const stateFile = args.stateFile === undefined ? undefined : resolve(args.stateFile);
  const savedWorld = stateFile === undefined ? null : readStateFile(stateFile);
  let sandbox: Sandbox;
  try {
    sandbox = await createSandbox({
      ...(savedWorld ? { savedWorld } : {}),
      port: args.port,
      authPort: args.authPort,
      adminPort: args.adminPort,
      clientId: args.clientId,
      clientSecret: args.clientSecret,
      redirectUris: args.redirectUris,
      webhookUrl: args.webhookUrl,
      autoApproveUserId: args.autoApproveUserId ?? null,
      tokenLifetimes:
        args.tokenLifetimeSeconds === undefined ? undefined : { accessSeconds: args.tokenLifetimeSeconds },
      log: printErr,
    });
  } catch (error) {
    printErr(`sandbox: could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }

  let saver: WorldSaver | null = null;
  if (stateFile !== undefined) {
    const running = sandbox;
    saver = createWorldSaver({
      path: stateFile,
      snapshot: () => saveWorld(running.ctx.state, running.urls.api),
      log: printErr,
    });
    const kept = saver;
    sandbox.onChange(() => kept.changed());
    sandbox.keepLastingChangesWith(() => kept.saveNow());
  }

  const description = sandbox.describe();
  const discovery: SandboxDiscovery = {
    adminUrl: description.adminUrl,
    adminToken: description.adminToken,
    pid: process.pid,
  };
  let publishing: Promise<string | null> = Promise.resolve(null);
  // Ctrl+C is heard from the moment the description is out: a caller may stop the sandbox as soon as it reads it.
  let closing = false;
  const shutdown = (signal: string): void => {
    if (closing) {
      return;
    }
    closing = true;
    printErr(`sandbox: ${signal}, closing`);
    const timer = setTimeout(() => {
      printErr('sandbox: close timed out');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    // A stop that comes while the admin URL is still being published waits for it, so no file is left behind.
    const unpublish = publishing.then((published) =>
      published === null ? undefined : removeSandboxDiscovery(published, STANDALONE_SANDBOX_FILE, discovery),
    );
    const closed = sandbox.close().then(() => saver?.stop());
    Promise.all([closed, unpublish.catch(() => undefined)]).then(
      () => process.exit(0),
      (error: unknown) => {
        printErr(`sandbox: close failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.stdout.write(`${JSON.stringify(description)}\n`);
  printErr('Kick sandbox running.');
  printErr(`  id.kick.com   → ${description.authUrl}`);
  printErr(`  api.kick.com  → ${description.apiUrl}`);
  printErr(`  admin API     → ${description.adminUrl}`);
  printErr(
    `  RTMP ingest   → ${description.rtmpUrl}   stream key ${sandbox.ctx.state.channels.get(description.broadcasterUserId)?.streamKey ?? '(none)'}`,
  );
  printErr(`  live socket   → ${description.socketUrl}   (Pusher /app/<key>, Centrifugo /connection/websocket)`);
  printErr(
    `  web host      → ${description.webUrl}   channel id ${description.channelId}, chatroom id ${description.chatroomId}`,
  );
  printErr(`  client id     ${description.clientId}`);
  printErr(`  redirect URIs ${description.redirectUris.join(', ')}`);
  printErr(`  streamer      sandbox_streamer (user id ${description.broadcasterUserId})`);
  printErr(
    stateFile === undefined
      ? '  world         in memory (--state FILE keeps it across runs)'
      : `  world         ${savedWorld ? 'restored from' : 'kept in'} ${stateFile}`,
  );
  publishing = (async () => {
    try {
      const published = dataDir();
      await writeSandboxDiscovery(published, STANDALONE_SANDBOX_FILE, discovery);
      printErr('Fire an event:  npm run sandbox -- trigger chat.message.sent   (in another terminal)');
      return published;
    } catch (error) {
      printErr(`sandbox: could not publish the admin URL for other commands: ${String(error)}`);
      printErr(
        `Fire an event:  npm run sandbox -- trigger chat.message.sent --admin-url ${description.adminUrl} ` +
          `--admin-token ${description.adminToken}`,
      );
      return null;
    }
  })();
  await publishing;
  printErr('Press Ctrl+C to stop.');

  if (args.activity) {
    const path = '/scenarios/simulated-activity';
    const answer = await requestAdmin(
      { adminUrl: description.adminUrl, adminToken: description.adminToken },
      { method: 'POST', path, body: {} },
    );
    printErr(
      answer.ok ? 'Simulated activity is running.' : `sandbox: simulated activity did not start: ${answer.text}`,
    );
  }
}

interface AdminAnswer {
  ok: boolean;
  /** The JSON answer on success, the error message otherwise. */
  text: string;
}

/** Calls the admin API; never throws (an unreachable sandbox is an answer too). */
async function requestAdmin(
  target: { adminUrl: string; adminToken: string | undefined },
  call: Pick<AdminCall, 'method' | 'path' | 'body'>,
): Promise<AdminAnswer> {
  const headers: Record<string, string> = {};
  if (target.adminToken !== undefined) {
    headers.authorization = `Bearer ${target.adminToken}`;
  }
  if (call.body !== undefined) {
    headers['content-type'] = 'application/json';
  }
  let response: Response;
  try {
    response = await fetch(`${target.adminUrl}${call.path}`, {
      method: call.method,
      headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
    });
  } catch (error) {
    const reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    return {
      ok: false,
      text: `cannot reach the admin API at ${target.adminUrl} (${reason}); is the sandbox still running?`,
    };
  }
  const text = await response.text();
  if (response.ok) {
    return { ok: true, text };
  }
  let message = text;
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (typeof parsed.error === 'string') {
      message = parsed.error;
    }
  } catch {
    // Not JSON: report it as it came.
  }
  return { ok: false, text: `refused (HTTP ${response.status}): ${message}` };
}

/** Runs a subcommand: the JSON answer goes to stdout, an error to stderr. */
async function runAdminCommand(call: AdminCall): Promise<boolean> {
  const target = await resolveAdminTarget(call, { dataDir: dataDir() });
  if (!target.ok) {
    printErr(`sandbox: ${target.message}`);
    return false;
  }
  if (target.note !== null) {
    printErr(`sandbox: ${target.note}`);
  }
  const answer = await requestAdmin(target, call);
  if (!answer.ok) {
    printErr(`sandbox: ${answer.text}`);
    return false;
  }
  process.stdout.write(answer.text.endsWith('\n') ? answer.text : `${answer.text}\n`);
  return true;
}

async function main(argv: string[]): Promise<void> {
  let command;
  try {
    command = parseCliArgs(argv, process.env);
  } catch (error) {
    if (!(error instanceof CliUsageError)) {
      throw error;
    }
    printErr(`sandbox: ${error.message} (see --help)`);
    process.exit(2);
  }
  if (command.kind === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  if (command.kind === 'serve') {
    await serve(command.args);
    return;
  }
  process.exitCode = (await runAdminCommand(command)) ? 0 : 1;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  printErr(`sandbox: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exit(1);
});
