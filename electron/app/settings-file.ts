/**
 * The settings file itself: `greenroom-settings.json` in the data dir, 0600, replaced whole on each save
 * (a synced new file renamed over the old one, electron/core/data-files.ts). Whatever stands there that is
 * not a settings document is moved aside (`<name>.damaged-<time>`) and Greenroom starts from the defaults,
 * saying so in one line: text that is not JSON, JSON that is not an object (`null`, a list, the settings
 * wrapped in `[ … ]`), a link to another place (never followed, [design notes](../../docs/design-notes.md#files-in-the-data-folder)),
 * a folder or a pipe. One that cannot even be moved gives defaults in memory and is left as it is.
 *
 * The file was a `conf` store until links were refused: conf follows a link at the config path on reading
 * and writes through it on saving, and resets a document that is not an object without a word.
 */
import { join } from 'node:path';
import { readDataFile, RefusedPathError, writeDataFile } from '../core/data-files';
import { asideReason, fsReason, moveAside } from '../secrets/damaged-file';

/** The settings file's name in the data dir, without `.json`. */
export const SETTINGS_FILE_NAME = 'greenroom-settings';

/** Where the document lives; the file in the app, anything with the same members in a test. */
export interface SettingsFile {
  /** Named in the lines that tell the streamer about this file. */
  readonly path: string;
  read(): unknown;
  write(doc: Record<string, unknown>): void;
  /**
   * Keeps the file as it was read, beside it under a dated name, before a write leaves part of it out;
   * returns that name. Absent where there is no file to keep (a test's document in memory).
   */
  keepOriginal?(): string;
}

/** What opening the settings may tell the streamer, and the clock for a moved-aside file's name. */
export interface SettingsDeps {
  log?: (line: string) => void;
  /**
   * One plain line for the streamer about a problem with the file (the panel shows it too), with the
   * technical part apart; `log` when absent.
   */
  notice?: (line: string, details?: string) => void;
  nowMs?: () => number;
}

/** The settings file in `dir`, read once. */
export function openSettingsFile(dir: string, options: SettingsDeps = {}): SettingsFile {
  const notice = options.notice ?? options.log ?? (() => undefined);
  const nowMs = options.nowMs ?? Date.now;
  const path = join(dir, `${SETTINGS_FILE_NAME}.json`);
  let bytes: Buffer | null;
  try {
    bytes = readDataFile(path);
  } catch (error) {
    // An unreadable file (permission) is not damage Greenroom can repair: the start says so and stops.
    if (!(error instanceof RefusedPathError)) {
      throw error;
    }
    return replaced(path, asideReason(error), { notice, nowMs });
  }
  if (bytes === null) {
    return fileAt(path, undefined, null, nowMs);
  }
  const doc = parseDocument(bytes);
  if (typeof doc === 'string') {
    return replaced(path, `was damaged (${doc})`, { notice, nowMs });
  }
  return fileAt(path, doc, bytes, nowMs);
}

/** The document, or what is wrong with the bytes as a settings document. */
function parseDocument(bytes: Buffer): Record<string, unknown> | string {
  let value: unknown;
  try {
    // An editor may save a byte order mark, which is not part of the JSON.
    value = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    return 'not valid JSON';
  }
  if (value === null) {
    return 'it holds null, not settings';
  }
  if (Array.isArray(value)) {
    return 'it holds a list, not settings';
  }
  return typeof value === 'object' ? (value as Record<string, unknown>) : 'it holds a single value, not settings';
}

/** Moves what is at `path` aside and starts a fresh file; says so in one line either way. */
function replaced(
  path: string,
  reason: string,
  options: { notice: (line: string) => void; nowMs: () => number },
): SettingsFile {
  let aside: string;
  try {
    aside = moveAside(path, options.nowMs());
  } catch (moveError) {
    options.notice(
      `Greenroom: the settings file ${path} ${reason}, and it could not be moved aside (${fsReason(moveError)}); ` +
        'Greenroom starts with default settings and leaves it as it is.',
    );
    return unwritableFile(path, moveError);
  }
  options.notice(
    `Greenroom: the settings file ${path} ${reason}; it was moved to ${aside} and Greenroom starts with default settings.`,
  );
  return fileAt(path, undefined, null, options.nowMs);
}

function fileAt(path: string, doc: unknown, original: Buffer | null, nowMs: () => number): SettingsFile {
  return {
    path,
    read: () => doc,
    // Tabs, as the conf store wrote it, so a file stays as readable as streamers knew it.
    write: (next) => writeDataFile(path, JSON.stringify(next, undefined, '\t')),
    ...(original ? { keepOriginal: () => moveAside(path, nowMs(), { copy: original }) } : {}),
  };
}

/** Defaults in memory for a file that could not be moved: writing would only fail again. */
function unwritableFile(path: string, cause: unknown): SettingsFile {
  return {
    path,
    read: () => ({}),
    write: () => {
      throw new Error(`${path} could not be moved aside`, { cause });
    },
  };
}
