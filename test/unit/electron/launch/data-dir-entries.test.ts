import { mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setAsideMisplacedEntries } from '../../../../electron/launch/data-dir-check';
import { OVERLAY_KEY_FILE, OVERLAY_MEDIA_DIR } from '../../../../electron/overlays/overlay-files';

const NOW_MS = Date.UTC(2025, 0, 31, 18, 4, 5, 123);
const SUFFIX = '.damaged-2025-01-31T18-04-05-123Z';

let root: string;
let dir: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'greenroom-entries-'));
  dir = join(root, 'data');
  mkdirSync(dir);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('what stands where the data folder’s folders belong', () => {
  it('says nothing when each is a real folder or file, or not there yet', () => {
    mkdirSync(join(dir, 'journal'));
    writeFileSync(join(dir, OVERLAY_KEY_FILE), 'k');
    expect(setAsideMisplacedEntries(dir, NOW_MS)).toEqual([]);
  });

  it('moves a linked journal, dedup or media folder and a linked overlay key aside, never what they point at', () => {
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, 'keep.txt'), 'mine');
    for (const name of ['journal', 'dedup', OVERLAY_MEDIA_DIR, OVERLAY_KEY_FILE]) {
      symlinkSync(elsewhere, join(dir, name));
    }
    const lines = setAsideMisplacedEntries(dir, NOW_MS);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe(
      `Greenroom: the folder ${join(dir, 'journal')}, which holds the events received from Kick (chat and the ` +
        `feed come back from it), is a link to another place (${elsewhere}), which Greenroom will not follow; ` +
        `it was moved to ${join(dir, 'journal')}${SUFFIX} and Greenroom starts with a new, empty one.`,
    );
    expect(readdirSync(dir).sort()).toEqual(
      ['dedup', 'journal', OVERLAY_KEY_FILE, OVERLAY_MEDIA_DIR].map((n) => `${n}${SUFFIX}`).sort(),
    );
    expect(readlinkSync(join(dir, `dedup${SUFFIX}`))).toBe(elsewhere);
    expect(readdirSync(elsewhere)).toEqual(['keep.txt']);
  });

  it('moves a file standing where a folder belongs aside', () => {
    writeFileSync(join(dir, 'dedup'), 'not a folder');
    expect(setAsideMisplacedEntries(dir, NOW_MS)).toEqual([
      expect.stringContaining(
        `${join(dir, 'dedup')}, which holds the ids of deliveries already received, is a file, not a folder`,
      ),
    ]);
  });
});
