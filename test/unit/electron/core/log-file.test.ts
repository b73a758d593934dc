import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOG_DIR_NAME, LOG_FILE_NAME, openLogFile, type LogFile } from '../../../../electron/core/log-file';

let dataDir: string;
let notices: string[];
let opened: LogFile[];

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'greenroom-log-'));
  notices = [];
  opened = [];
});
afterEach(() => {
  opened.forEach((file) => file.close());
  rmSync(dataDir, { recursive: true, force: true });
});

function open(options: { maxBytes?: number; files?: number } = {}): LogFile {
  const file = openLogFile({
    dataDir,
    nowMs: () => 1_700_000_000_000,
    notice: (line) => notices.push(line),
    ...options,
  });
  if (!file) {
    throw new Error(`no log file: ${notices.join(' | ')}`);
  }
  opened.push(file);
  return file;
}

const logs = (): string => join(dataDir, LOG_DIR_NAME);
const line = (n: number): string => `${JSON.stringify({ n, msg: 'x'.repeat(80) })}\n`;

describe('the log file', () => {
  it('appends lines to logs/greenroom.log, readable by the streamer alone', () => {
    const file = open();
    file.write(line(1));
    file.write(line(2));
    expect(file.path).toBe(join(logs(), LOG_FILE_NAME));
    expect(readFileSync(file.path, 'utf8')).toBe(line(1) + line(2));
    if (process.platform !== 'win32') {
      expect(statSync(file.path).mode & 0o777).toBe(0o600);
      expect(statSync(logs()).mode & 0o777).toBe(0o700);
    }
  });

  it('rotates at the cap and never keeps more than files × maxBytes', () => {
    const file = open({ maxBytes: 1000, files: 3 });
    for (let n = 0; n < 200; n++) {
      file.write(line(n));
    }
    const names = readdirSync(logs()).sort();
    expect(names).toEqual([LOG_FILE_NAME, `${LOG_FILE_NAME}.1`, `${LOG_FILE_NAME}.2`]);
    for (const name of names) {
      expect(statSync(join(logs(), name)).size).toBeLessThanOrEqual(1000);
    }
    // The newest line is in the current file, and the tail reaches back across the rotated ones in order.
    const tail = file.tail(15).map((text) => (JSON.parse(text) as { n: number }).n);
    expect(tail).toEqual(Array.from({ length: 15 }, (_, i) => 185 + i));
  });

  it('carries on after a restart from the size already on disk', () => {
    const first = open({ maxBytes: 1000 });
    for (let n = 0; n < 10; n++) {
      first.write(line(n));
    }
    first.close();
    const second = open({ maxBytes: 1000 });
    second.write(line(10));
    expect(readdirSync(logs())).toContain(`${LOG_FILE_NAME}.1`);
    expect(statSync(second.path).size).toBe(Buffer.byteLength(line(10)));
  });

  it('moves a damaged file aside with one plain line instead of writing after it', () => {
    mkdirSync(logs(), { mode: 0o700 });
    const path = join(logs(), LOG_FILE_NAME);
    writeFileSync(path, Buffer.concat([Buffer.from(line(1)), Buffer.alloc(64)]));
    const file = open();
    file.write(line(2));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('was damaged (it holds NUL bytes)');
    expect(readFileSync(path, 'utf8')).toBe(line(2));
    const aside = readdirSync(logs()).find((name) => name.includes('.damaged-'));
    expect(aside).toBeDefined();
    expect(readFileSync(join(logs(), aside!)).subarray(0, 10).toString()).toBe(line(1).slice(0, 10));
  });

  it('moves aside a file that is not text', () => {
    mkdirSync(logs(), { mode: 0o700 });
    writeFileSync(join(logs(), LOG_FILE_NAME), Buffer.from([0x7b, 0xff, 0xfe, 0x0a]));
    open();
    expect(notices[0]).toContain('not text');
  });

  it('starts a record on its own line after a line a crash cut short', () => {
    mkdirSync(logs(), { mode: 0o700 });
    const path = join(logs(), LOG_FILE_NAME);
    writeFileSync(path, '{"n":1,"msg":"cut sh');
    open().write(line(2));
    expect(readFileSync(path, 'utf8').split('\n')[1]).toBe(line(2).trimEnd());
    expect(notices).toEqual([]);
  });

  it.skipIf(process.platform === 'win32')('never writes through a link planted at its name', () => {
    mkdirSync(logs(), { mode: 0o700 });
    const elsewhere = join(dataDir, 'elsewhere.txt');
    writeFileSync(elsewhere, 'kept\n');
    symlinkSync(elsewhere, join(logs(), LOG_FILE_NAME));
    open().write(line(1));
    expect(readFileSync(elsewhere, 'utf8')).toBe('kept\n');
    expect(notices[0]).toContain('link');
  });

  it('gives up the file with one line when the logs folder cannot be made, and the app goes on', () => {
    writeFileSync(logs(), 'a file where the folder belongs');
    const file = openLogFile({ dataDir, nowMs: () => 0, notice: (text) => notices.push(text) });
    expect(file).toBeNull();
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('logs go to the terminal only');
  });
});
