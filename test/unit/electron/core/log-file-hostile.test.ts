import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOG_DIR_NAME, LOG_FILE_NAME, openLogFile, type LogFile } from '../../../../electron/core/log-file';

let dataDir: string;
let logs: string;
let notices: string[];
let file: LogFile | null;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'greenroom-logr-'));
  logs = join(dataDir, LOG_DIR_NAME);
  mkdirSync(logs);
  notices = [];
  file = null;
});
afterEach(() => {
  file?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const open = (): LogFile => {
  file = openLogFile({
    dataDir,
    maxBytes: 100,
    files: 3,
    nowMs: () => 1_700_000_000_000,
    notice: (l) => notices.push(l),
  });
  return file!;
};
/** Ten records of 40 bytes: three rotations and more. */
const writeMany = (log: LogFile): void => {
  for (let n = 0; n < 10; n++) {
    log.write(`${`record ${n}`.padEnd(39, '.')}\n`);
  }
};

describe('the log file against things planted at its rotated names', () => {
  it('moves a folder at a rotated name aside when it opens, and keeps logging', () => {
    mkdirSync(join(logs, `${LOG_FILE_NAME}.2`));
    const log = open();
    writeMany(log);
    expect(readFileSync(log.path, 'utf8')).toContain('record 9');
    expect(log.tail(10).at(-1)).toContain('record 9');
    expect(notices.join('\n')).toContain(`${LOG_FILE_NAME}.2 is not a plain log file`);
    expect(readdirSync(logs)).toContain(`${LOG_FILE_NAME}.2.damaged-1700000000000`);
    expect(notices.join('\n')).not.toContain('terminal only');
  });

  it('moves a folder planted after it opened aside before it rotates', () => {
    const log = open();
    log.write(`${'first'.padEnd(39, '.')}\n`);
    mkdirSync(join(logs, `${LOG_FILE_NAME}.1`));
    mkdirSync(join(logs, `${LOG_FILE_NAME}.2`));
    writeMany(log);
    expect(readFileSync(log.path, 'utf8')).toContain('record 9');
    expect(notices.join('\n')).not.toContain('terminal only');
  });

  it('moves a link at a rotated name aside, never writing through it', () => {
    const target = join(dataDir, 'elsewhere.txt');
    writeFileSync(target, 'untouched');
    symlinkSync(target, join(logs, `${LOG_FILE_NAME}.1`));
    const log = open();
    writeMany(log);
    expect(readFileSync(target, 'utf8')).toBe('untouched');
    expect(existsSync(join(logs, `${LOG_FILE_NAME}.1.damaged-1700000000000`))).toBe(true);
    expect(readFileSync(log.path, 'utf8')).toContain('record 9');
  });
});
