/**
 * How `npm run sandbox -- trigger …` finds a running sandbox without flags: a running sandbox writes a
 * small file into Greenroom's data dir (`sandbox.json` for the app's embedded one, `sandbox-standalone.json`
 * for `npm run sandbox`) with its admin URL, admin token and process id, mode 0600 because the token
 * controls it, and removes the file when it closes. A file whose process is gone (a crash, `kill -9`) is
 * stale and ignored.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NO_FOLLOW } from '../electron/core/data-files';

/** The embedded sandbox's file, in the app's data dir. */
export const APP_SANDBOX_FILE = 'sandbox.json';
/** `npm run sandbox`'s file, in the same data dir. */
export const STANDALONE_SANDBOX_FILE = 'sandbox-standalone.json';

/** What a running sandbox publishes about itself. */
export interface SandboxDiscovery {
  adminUrl: string;
  adminToken: string;
  pid: number;
}

/** Writes the file atomically (a reader never sees half of it), 0600; returns its path. */
export async function writeSandboxDiscovery(
  dataDir: string,
  fileName: string,
  entry: SandboxDiscovery,
): Promise<string> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, fileName);
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  // A new file only (never through a link at the temporary name); the rename replaces a link, never follows it.
  await writeFile(temp, `${JSON.stringify(entry)}\n`, { mode: 0o600, flag: 'wx' });
  await rename(temp, file);
  return file;
}

/** Removes the file if it still describes `entry` (another sandbox may have replaced it since). */
export async function removeSandboxDiscovery(
  dataDir: string,
  fileName: string,
  entry: SandboxDiscovery,
): Promise<void> {
  const file = join(dataDir, fileName);
  const current = await readEntry(file);
  if (current.kind === 'found' && current.entry.pid === entry.pid && current.entry.adminToken === entry.adminToken) {
    await rm(file, { force: true });
  }
}

/** True while a process with this id exists (EPERM: it exists but belongs to someone else). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

type ReadOutcome = { kind: 'found'; entry: SandboxDiscovery } | { kind: 'missing' } | { kind: 'unreadable' };

async function readEntry(file: string): Promise<ReadOutcome> {
  let text: string;
  try {
    // Not through a link: the admin token would be read from wherever it points.
    text = await readFile(file, { encoding: 'utf8', flag: NO_FOLLOW.read });
  } catch {
    return { kind: 'missing' };
  }
  try {
    const value = JSON.parse(text) as Partial<SandboxDiscovery>;
    if (
      typeof value.adminUrl === 'string' &&
      URL.canParse(value.adminUrl) &&
      typeof value.adminToken === 'string' &&
      Number.isSafeInteger(value.pid) &&
      (value.pid ?? 0) > 0
    ) {
      return { kind: 'found', entry: { adminUrl: value.adminUrl, adminToken: value.adminToken, pid: value.pid! } };
    }
  } catch {
    // Fall through: a damaged file is reported as such, never trusted.
  }
  return { kind: 'unreadable' };
}

/** Where subcommands send their request, and what they learned on the way (for a stderr note). */
export type AdminTarget =
  { ok: true; adminUrl: string; adminToken: string | undefined; note: string | null } | { ok: false; message: string };

/**
 * Picks the admin API for a subcommand. An explicit URL (flag or environment) wins, with the explicit
 * token or else the token of the running sandbox at that URL; without one, the running app's sandbox,
 * then a running `npm run sandbox`.
 */
export async function resolveAdminTarget(
  given: { adminUrl?: string; adminToken?: string },
  where: { dataDir: string; isAlive?: (pid: number) => boolean },
): Promise<AdminTarget> {
  const isAlive = where.isAlive ?? processAlive;
  const notes: string[] = [];
  const running: { file: string; entry: SandboxDiscovery }[] = [];
  for (const fileName of [APP_SANDBOX_FILE, STANDALONE_SANDBOX_FILE]) {
    const file = join(where.dataDir, fileName);
    const outcome = await readEntry(file);
    if (outcome.kind === 'found' && isAlive(outcome.entry.pid)) {
      running.push({ file, entry: outcome.entry });
    } else if (outcome.kind === 'found') {
      notes.push(`ignored ${file}: its process ${outcome.entry.pid} is gone`);
    } else if (outcome.kind === 'unreadable') {
      notes.push(`ignored ${file}: not a sandbox description`);
    }
  }
  if (given.adminUrl !== undefined) {
    const same = running.find((r) => r.entry.adminUrl === given.adminUrl);
    return { ok: true, adminUrl: given.adminUrl, adminToken: given.adminToken ?? same?.entry.adminToken, note: null };
  }
  const chosen = running[0];
  if (chosen) {
    const whose = chosen.file.endsWith(APP_SANDBOX_FILE)
      ? "the running Greenroom app's sandbox"
      : 'the running npm run sandbox';
    return {
      ok: true,
      adminUrl: chosen.entry.adminUrl,
      adminToken: given.adminToken ?? chosen.entry.adminToken,
      note: `using ${whose} at ${chosen.entry.adminUrl}`,
    };
  }
  const why = notes.length > 0 ? ` (${notes.join('; ')})` : '';
  return {
    ok: false,
    message:
      `no running Greenroom app or npm run sandbox found in ${where.dataDir}${why}; start one, ` +
      'or pass --admin-url and --admin-token',
  };
}
