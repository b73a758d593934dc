/**
 * "Save diagnostics" ([logging](../../docs/logging.md#save-diagnostics)): one file a streamer can attach to a
 * report, with the versions, the settings as the panel shows them (they hold no secret), the Health view,
 * this run's recent warnings and errors, and the last 2,000 log lines. The whole file passes the logger's
 * redaction before it is written, so it carries no secret the log would not.
 *
 * Saved in the data folder's `diagnostics` folder, whose path the panel shows, and handed back as text too,
 * so a panel in a browser or an OBS dock can download it; when the folder cannot be written the text is
 * still handed back, with one line saying why.
 */
import { join } from 'node:path';
import type { Clock } from './clock';
import { writeDataFile } from './data-files';
import { ensureDataFolder } from './refused-path';
import { RECENT_LINES, type Logger } from './logger';

export const DIAGNOSTICS_DIR_NAME = 'diagnostics';

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

export function saveDiagnostics(deps: DiagnosticsDeps, parts: DiagnosticsParts): DiagnosticsFile {
  const now = deps.clock.now();
  const record = {
    savedAt: new Date(now).toISOString(),
    versions: deps.versions,
    settings: parts.settings,
    health: parts.health,
    recentErrors: deps.logger.recentErrors(),
    log: deps.logger.recentLines(RECENT_LINES),
  };
  const text = deps.logger.secrets.redact(`${JSON.stringify(record, null, 2)}\n`);
  const fileName = `greenroom-diagnostics-${fileStamp(now)}.json`;
  const dir = join(deps.dataDir, DIAGNOSTICS_DIR_NAME);
  const file: DiagnosticsFile = { fileName, mimeType: 'application/json', text, path: null };
  try {
    ensureDataFolder(dir);
    const path = join(dir, fileName);
    writeDataFile(path, text);
    file.path = path;
  } catch (error) {
    file.notice = `It could not be saved in ${dir} (${error instanceof Error ? error.message : String(error)}); download it instead.`;
  }
  return file;
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
