/**
 * "Save diagnostics" ([logging](../../docs/logging.md#save-diagnostics)): one file a streamer can attach to a
 * report, with the versions, the settings as the panel shows them (they hold no secret), the Health view,
 * this run's recent warnings and errors, and the last 2,000 log lines. The whole file passes the logger's
 * redaction before it is written, so it carries no secret the log would not.
 *
 * Saved in the data folder's `diagnostics` folder, whose path the panel shows, and handed back as text too,
 * so a panel in a browser or an OBS dock can download it; when the folder cannot be written the text is
 * still handed back, with one line saying why.
 *
 * A panel can ask again and again, so the folder keeps only the newest files, a second save within seconds
 * is refused, and the file is capped in size; the home folder in every path is written `~`, so the file does
 * not carry the computer's user name.
 */
import { readdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../../shared/errors';
import type { Clock } from './clock';
import { writeDataFile } from './data-files';
import { ensureDataFolder } from './refused-path';
import { clip, RECENT_LINES, type Logger } from './logger';

export const DIAGNOSTICS_DIR_NAME = 'diagnostics';
/** How many diagnostics files the folder keeps; older ones are removed as a new one is saved. */
export const DIAGNOSTICS_KEPT = 5;
/** A second save sooner than this after the last is refused. */
export const DIAGNOSTICS_INTERVAL_MS = 10_000;
/** The log lines' share of the file, in characters: the newest lines that fit are kept. */
export const DIAGNOSTICS_LOG_CHARS = 3_000_000;
/** The longest single log line the file keeps. */
const LINE_CHARS = 8_192;
const FILE_PATTERN = /^greenroom-diagnostics-\d{8}-\d{6}\.json$/;

export interface DiagnosticsFile {
  fileName: string;
  mimeType: string;
  text: string;
  /** Where it was saved, or null when the data folder refused it (`notice` says why). */
  path: string | null;
  notice?: string;
}

export interface DiagnosticsDeps {
  dataDir: string;
  clock: Clock;
  logger: Pick<Logger, 'recentLines' | 'recentErrors' | 'secrets'>;
  /** Greenroom's, the runtime's and the system's. */
  versions: Record<string, string>;
  /** The home folder, written `~` in the file; the computer's when not given. */
  home?: string;
}

/** What the app knows when the streamer asks. */
export interface DiagnosticsParts {
  settings: unknown;
  health: unknown;
}

/** `2026-11-27T23:40:05.120Z` → `20261127-234005`: sortable, and a valid file name everywhere. */
function fileStamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/** The newest `lines` whose total fits in {@link DIAGNOSTICS_LOG_CHARS}, each cut to a few KB. */
function newestThatFit(lines: string[]): { kept: string[]; leftOut: number } {
  const kept: string[] = [];
  let total = 0;
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = clip(lines[index]!, LINE_CHARS);
    // As the file holds it: escaped, so a line full of quotes counts twice.
    total += JSON.stringify(line).length;
    if (total > DIAGNOSTICS_LOG_CHARS) {
      break;
    }
    kept.unshift(line);
  }
  return { kept, leftOut: lines.length - kept.length };
}

/** `text` with the home folder (as written, and JSON-escaped: Windows' backslashes) replaced by `~`. */
function withoutHome(text: string, home: string): string {
  const bare = home.replace(/[\\/]+$/, '');
  if (bare.length < 2) {
    return text;
  }
  const spellings = [...new Set([JSON.stringify(bare).slice(1, -1), bare])];
  return spellings.reduce((out, spelling) => out.split(spelling).join('~'), text);
}

/** Removes all but the newest {@link DIAGNOSTICS_KEPT} diagnostics files (their names sort by time). */
function pruneOlder(dir: string): void {
  const names = readdirSync(dir)
    .filter((name) => FILE_PATTERN.test(name))
    .sort();
  for (const name of names.slice(0, Math.max(0, names.length - DIAGNOSTICS_KEPT))) {
    rmSync(join(dir, name), { force: true });
  }
}

export function saveDiagnostics(deps: DiagnosticsDeps, parts: DiagnosticsParts): DiagnosticsFile {
  const now = deps.clock.now();
  const log = newestThatFit(deps.logger.recentLines(RECENT_LINES));
  const record = {
    savedAt: new Date(now).toISOString(),
    versions: deps.versions,
    settings: parts.settings,
    health: parts.health,
    recentErrors: deps.logger.recentErrors().map((line) => clip(line, LINE_CHARS)),
    ...(log.leftOut > 0 ? { logLinesLeftOut: log.leftOut } : {}),
    log: log.kept,
  };
  const text = withoutHome(deps.logger.secrets.redact(`${JSON.stringify(record, null, 2)}\n`), deps.home ?? homedir());
  const fileName = `greenroom-diagnostics-${fileStamp(now)}.json`;
  const dir = join(deps.dataDir, DIAGNOSTICS_DIR_NAME);
  const file: DiagnosticsFile = { fileName, mimeType: 'application/json', text, path: null };
  try {
    ensureDataFolder(dir);
    const path = join(dir, fileName);
    writeDataFile(path, text);
    file.path = path;
    pruneOlder(dir);
  } catch (error) {
    file.notice = withoutHome(
      `It could not be saved in ${dir} (${error instanceof Error ? error.message : String(error)}).`,
      deps.home ?? homedir(),
    );
  }
  return file;
}

/**
 * "Save diagnostics" as the app offers it: {@link saveDiagnostics}, refused with `Ratelimited` when asked
 * again within {@link DIAGNOSTICS_INTERVAL_MS} of the last save, so a panel asking in a loop cannot fill the
 * disk or hold the main process on a sync to disk each second. `depsOf` is read at each save (the data
 * folder is known only after launch).
 */
export function createDiagnosticsSaver(depsOf: () => DiagnosticsDeps): (parts: DiagnosticsParts) => DiagnosticsFile {
  let lastAt: number | null = null;
  return (parts) => {
    const deps = depsOf();
    const now = deps.clock.now();
    if (lastAt !== null && now - lastAt < DIAGNOSTICS_INTERVAL_MS && now >= lastAt) {
      const wait = Math.ceil((DIAGNOSTICS_INTERVAL_MS - (now - lastAt)) / 1000);
      throw new AppError('Ratelimited', `Diagnostics were saved a moment ago. Wait ${wait} s, then save again.`);
    }
    lastAt = now;
    return saveDiagnostics(deps, parts);
  };
}

/** The versions a report needs: Greenroom's, Node's and, in the desktop app, Electron's and Chromium's. */
export function runtimeVersions(
  appVersion: string,
  process: Pick<NodeJS.Process, 'versions' | 'platform' | 'arch'>,
): Record<string, string> {
  const versions: Record<string, string> = {
    greenroom: appVersion,
    node: process.versions.node,
    system: `${process.platform} ${process.arch}`,
  };
  const { electron, chrome } = process.versions as Record<string, string | undefined>;
  if (electron) {
    versions.electron = electron;
  }
  if (chrome) {
    versions.chromium = chrome;
  }
  return versions;
}
