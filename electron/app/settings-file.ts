/**
 * The settings file itself: a 0600 `conf` file (electron-store's engine) in the data dir, written
 * atomically (conf writes a temp file and renames it). A file that is not JSON is moved aside
 * (`<name>.damaged-<time>`) and Greenroom starts from the defaults, saying so in one line; one that cannot
 * even be moved gives defaults in memory and is left as it is.
 */
import Conf from 'conf';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fsReason, moveAside } from '../secrets/damaged-file';

/** The settings file's name in the data dir (`.json` is added by conf). */
export const SETTINGS_FILE_NAME = 'greenroom-settings';

/** Where the document lives; conf in the app, anything with the same members in a test. */
export interface SettingsFile {
  /** Named in the lines that tell the streamer about this file. */
  readonly path: string;
  read(): unknown;
  write(doc: Record<string, unknown>): void;
}

/** What opening the settings may tell the streamer, and the clock for a moved-aside file's name. */
export interface SettingsOptions {
  log?: (line: string) => void;
  /** One plain line for the streamer about a start-up problem with the file; `log` when absent. */
  notice?: (line: string) => void;
  nowMs?: () => number;
}

/** The 0600 conf file in `dir`. */
export function openSettingsFile(dir: string, options: SettingsOptions = {}): SettingsFile {
  const notice = options.notice ?? options.log ?? (() => undefined);
  const path = join(dir, `${SETTINGS_FILE_NAME}.json`);
  const open = (): Conf<Record<string, unknown>> =>
    new Conf<Record<string, unknown>>({
      cwd: dir,
      configName: SETTINGS_FILE_NAME,
      configFileMode: 0o600,
      projectName: 'greenroom',
      clearInvalidConfig: false,
    });
  let conf: Conf<Record<string, unknown>>;
  try {
    conf = open();
  } catch (error) {
    // conf says "not valid JSON" with a SyntaxError; anything else (unreadable, a directory) is not damage.
    if (!(error instanceof SyntaxError) || !existsSync(path)) {
      throw error;
    }
    let aside: string;
    try {
      aside = moveAside(path, (options.nowMs ?? Date.now)());
    } catch (moveError) {
      notice(
        `Greenroom: the settings file ${path} is damaged (not valid JSON) and could not be moved aside ` +
          `(${fsReason(moveError)}); Greenroom starts with default settings and leaves the file as it is.`,
      );
      return unwritableFile(path, moveError);
    }
    notice(
      `Greenroom: the settings file ${path} was damaged (not valid JSON); it was moved to ${aside} and Greenroom starts with default settings.`,
    );
    conf = open();
  }
  return {
    path,
    read: () => conf.store,
    write: (doc) => {
      conf.store = doc;
    },
  };
}

/** Defaults in memory for a damaged file that could not be moved: writing would only fail again. */
function unwritableFile(path: string, cause: unknown): SettingsFile {
  return {
    path,
    read: () => ({}),
    write: () => {
      throw new Error(`${path} is damaged and could not be moved aside`, { cause });
    },
  };
}
