/**
 * The log file in the data dir ([logging](../../docs/logging.md#the-log-file)): `logs/greenroom.log`, one
 * JSON line per record, capped in size. When the next line would take it past `maxBytes` it becomes
 * `greenroom.log.1` (the older `.1` becomes `.2`, and so on up to `files - 1`; the oldest goes), so the logs
 * never hold more than `maxBytes × files` bytes.
 *
 * Written synchronously, line by line: a line written just before a crash is in the file, and a log line is
 * rare next to chat (debug lines are off unless asked for). The file is opened like every data file
 * ([design notes](../../docs/design-notes.md#files-in-the-data-folder)): never through a link, 0600. What
 * stands at its name (or at a rotated one) that is not a plain file, or a file that is damaged (NUL bytes or text that is not
 * UTF-8, as a crash mid-write on some disks leaves), is moved aside with one plain line, never overwritten.
 */
import {
  accessSync,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { FILE_MODE, NO_FOLLOW } from './data-files';
import { ensureDataFolder } from './refused-path';

export const LOG_DIR_NAME = 'logs';
export const LOG_FILE_NAME = 'greenroom.log';
/** 5 MB × 3 files: weeks of ordinary logging, and small enough to attach to a report. */
export const LOG_MAX_BYTES = 5_000_000;
export const LOG_FILES = 3;
/** How far back from its end a file is checked for damage when it is opened. */
const CHECK_BYTES = 65_536;

export interface LogFileDeps {
  /** The data dir; the file lives in its `logs` folder. */
  dataDir: string;
  maxBytes?: number;
  files?: number;
  nowMs: () => number;
  /** One plain line for the streamer: a damaged file moved aside, or the log file given up. */
  notice: (line: string) => void;
}

export interface LogFile {
  readonly path: string;
  /** Appends `text` (whole lines), rotating first when it would pass the cap. */
  write(text: string): void;
  /** The newest `count` lines across the current file and the rotated ones, oldest first. */
  tail(count: number): string[];
  close(): void;
}

/** The `index`th file: 0 is the current one, 1 the one before, … */
function nth(path: string, index: number): string {
  return index === 0 ? path : `${path}.${index}`;
}

/** Why an existing log file cannot be appended to, or null when it can. */
function damage(path: string): string | null {
  const seen = lstatSync(path, { throwIfNoEntry: false });
  if (!seen) {
    return null;
  }
  if (seen.isSymbolicLink()) {
    return 'is a link to another place, which Greenroom does not follow';
  }
  if (!seen.isFile()) {
    return 'is not a plain file';
  }
  if (seen.nlink > 1) {
    return 'has a second name elsewhere (a hard link), which Greenroom will not write through';
  }
  const fd = openSync(path, NO_FOLLOW.read);
  try {
    const length = Math.min(seen.size, CHECK_BYTES);
    const end = Buffer.alloc(length);
    readAt(fd, end, seen.size - length);
    // From a line start: a cut through a multi-byte letter at the window's edge is not damage.
    const firstLine = end.indexOf(0x0a);
    const whole = seen.size > length && firstLine >= 0 ? end.subarray(firstLine + 1) : end;
    if (whole.includes(0)) {
      return 'was damaged (it holds NUL bytes)';
    }
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(whole);
    } catch {
      return 'was damaged (it is not text)';
    }
  } finally {
    closeSync(fd);
  }
  return null;
}

function readAt(fd: number, into: Buffer, position: number): void {
  let done = 0;
  while (done < into.length) {
    const read = readSync(fd, into, done, into.length - done, position + done);
    if (read === 0) {
      break;
    }
    done += read;
  }
}

/** Whether `dir` itself may be written (false on a read-only disk or a folder the user cannot write). */
function folderWritable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Opens (or makes) the log file. Null when the logs folder or the file cannot be used (a read-only disk, a
 * link where the folder belongs): one line says so and Greenroom runs with its logs on stderr only.
 */
export function openLogFile(options: LogFileDeps): LogFile | null {
  const maxBytes = options.maxBytes ?? LOG_MAX_BYTES;
  const files = Math.max(1, options.files ?? LOG_FILES);
  const dir = join(options.dataDir, LOG_DIR_NAME);
  const path = join(dir, LOG_FILE_NAME);
  let fd: number;
  let size: number;
  const open = (): void => {
    fd = openSync(path, NO_FOLLOW.append, FILE_MODE);
    size = fstatSync(fd).size;
    if (size > 0) {
      // A line cut short by a crash: the next record starts on a line of its own.
      const last = Buffer.alloc(1);
      const reader = openSync(path, NO_FOLLOW.read);
      try {
        readAt(reader, last, size - 1);
      } finally {
        closeSync(reader);
      }
      if (last[0] !== 0x0a) {
        size += writeSync(fd, '\n');
      }
    }
  };
  /** Moves aside what stands at the `index`th name and is not a plain file: rotation would fail on it. */
  const clearRotated = (): void => {
    for (let index = 1; index < files; index++) {
      const name = nth(path, index);
      const seen = lstatSync(name, { throwIfNoEntry: false });
      if (seen && (seen.isSymbolicLink() || !seen.isFile())) {
        const aside = `${name}.damaged-${options.nowMs()}`;
        renameSync(name, aside);
        options.notice(`Greenroom: ${name} is not a plain log file; it was moved to ${aside}.`);
      }
    }
  };
  try {
    ensureDataFolder(dir);
    const why = damage(path);
    if (why) {
      const aside = `${path}.damaged-${options.nowMs()}`;
      renameSync(path, aside);
      options.notice(`Greenroom: the log file ${path} ${why}; it was moved to ${aside} and a new one begun.`);
    }
    clearRotated();
    open();
  } catch (error) {
    // A data folder that cannot be written at all is already said at start, in one line that names it
    // (launch/data-dir-check.ts); a second line about the log file inside it would add nothing.
    if (!folderWritable(options.dataDir)) {
      return null;
    }
    options.notice(
      `Greenroom: the log file in ${dir} cannot be used (${String(error)}); logs go to the terminal only.`,
    );
    return null;
  }
  let broken = false;
  const rotate = (): void => {
    closeSync(fd);
    // Planted since the file was opened: checked again, so a folder at `greenroom.log.2` cannot stop the log.
    clearRotated();
    rmSync(nth(path, files - 1), { force: true });
    for (let index = files - 2; index >= 0; index--) {
      if (lstatSync(nth(path, index), { throwIfNoEntry: false })) {
        renameSync(nth(path, index), nth(path, index + 1));
      }
    }
    open();
  };
  return {
    path,
    write(text) {
      if (broken) {
        return;
      }
      const bytes = Buffer.from(text, 'utf8');
      try {
        if (size > 0 && size + bytes.length > maxBytes) {
          if (files > 1) {
            rotate();
          } else {
            return;
          }
        }
        writeSync(fd, bytes);
        size += bytes.length;
      } catch (error) {
        // A full or vanished disk: said once, and the app goes on (its lines still reach the terminal).
        broken = true;
        options.notice(
          `Greenroom: writing the log file ${path} failed (${String(error)}); logs go to the terminal only.`,
        );
      }
    },
    tail(count) {
      const lines: string[] = [];
      for (let index = 0; index < files && lines.length < count; index++) {
        let text: string;
        try {
          const reader = openSync(nth(path, index), NO_FOLLOW.read);
          try {
            text = readFileSync(reader, 'utf8');
          } finally {
            closeSync(reader);
          }
        } catch {
          break;
        }
        const these = text.split('\n').filter((line) => line.length > 0);
        lines.unshift(...these.slice(Math.max(0, these.length - (count - lines.length))));
      }
      return lines;
    },
    close() {
      if (!broken) {
        closeSync(fd);
        broken = true;
      }
    },
  };
}
