import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type DataDirProbes,
  dataDirNotices,
  formatBytes,
  LOW_DISK_BYTES,
} from '../../../../electron/launch/data-dir-check';

const errno = (code: string) => Object.assign(new Error(code), { code });

function probes(over: Partial<DataDirProbes>): DataDirProbes {
  return { access: () => undefined, statfs: () => ({ bavail: 1_000_000, bsize: 4096 }), ...over };
}

describe('dataDirNotices', () => {
  it('says nothing about a writable folder with room (a real temp folder)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'greenroom-datadir-'));
    try {
      expect(dataDirNotices(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names a read-only folder and what happens next, in one line', () => {
    const lines = dataDirNotices(
      '/data',
      probes({
        access: () => {
          throw errno('EROFS');
        },
      }),
    );
    expect(lines).toEqual([
      'Greenroom: the data folder /data cannot be written (the disk is read-only). Greenroom starts, but ' +
        'changed settings, a new sign-in and events from Kick are not saved; Kick sends the events again ' +
        'later, so make the folder writable (or set GREENROOM_DATA_DIR to another one) and restart.',
    ]);
  });

  it('names a full disk with its free space, and stays quiet just above the bound', () => {
    const full = dataDirNotices('/data', probes({ statfs: () => ({ bavail: 3n, bsize: 4096n }) }));
    expect(full).toEqual([
      'Greenroom: the disk holding /data is full (12 kB free). Greenroom starts, but events from Kick that ' +
        'cannot be saved are refused, and Kick sends them again later; free some space.',
    ]);
    expect(dataDirNotices('/data', probes({ statfs: () => ({ bavail: LOW_DISK_BYTES, bsize: 1 }) }))).toEqual([]);
    expect(dataDirNotices('/data', probes({ statfs: () => ({ bavail: LOW_DISK_BYTES - 1, bsize: 1 }) }))).toHaveLength(
      1,
    );
  });

  it('says nothing when the free space cannot be asked', () => {
    expect(
      dataDirNotices(
        '/data',
        probes({
          statfs: () => {
            throw errno('ENOSYS');
          },
        }),
      ),
    ).toEqual([]);
  });

  it('formats sizes for people', () => {
    expect([0, 999, 1000, 12_345, 3_456_789].map(formatBytes)).toEqual([
      '0 bytes',
      '999 bytes',
      '1 kB',
      '12 kB',
      '3.5 MB',
    ]);
  });
});
