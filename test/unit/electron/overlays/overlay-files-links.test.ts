import { mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ALERT_PROGRESS_FILE,
  OVERLAY_MEDIA_DIR,
  openAlertProgress,
  readOverlayMedia,
  storeOverlayMedia,
} from '../../../../electron/overlays/overlay-files';
import { tempDir } from '../../../helpers/temp-dir';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe('links among the overlays’ files are not followed', () => {
  it('a link in the media folder is not served, whatever it points at', () => {
    const dir = tempDir('greenroom-overlay-links-');
    const secret = join(tempDir('greenroom-overlay-elsewhere-'), 'not-for-overlays.txt');
    writeFileSync(secret, 'a private key');
    mkdirSync(join(dir, OVERLAY_MEDIA_DIR));
    symlinkSync(secret, join(dir, OVERLAY_MEDIA_DIR, '0123456789abcdef.png'));
    expect(readOverlayMedia(dir, '0123456789abcdef.png')).toBeNull();
  });

  it('the alert progress is not read through a link, and a write is refused, the link and its target kept', () => {
    const dir = tempDir('greenroom-overlay-links-');
    const elsewhere = join(dir, 'elsewhere.json');
    const text = JSON.stringify({ lastShownId: 'from-elsewhere', lastShownAtMs: 1 });
    writeFileSync(elsewhere, text);
    symlinkSync(elsewhere, join(dir, ALERT_PROGRESS_FILE));
    const store = openAlertProgress(dir, () => undefined);
    expect(store.read()).toBeNull();
    expect(() => store.write({ lastShownId: 'mine', lastShownAtMs: 2 })).toThrow(/link to another place/);
    expect(readFileSync(elsewhere, 'utf8')).toBe(text);
    expect(readlinkSync(join(dir, ALERT_PROGRESS_FILE))).toBe(elsewhere);
  });

  it('an added image is not written through a link standing for the media folder or the file, nor read back', () => {
    const dir = tempDir('greenroom-overlay-links-');
    const elsewhere = tempDir('greenroom-overlay-elsewhere-');
    symlinkSync(elsewhere, join(dir, OVERLAY_MEDIA_DIR));
    expect(() => storeOverlayMedia(dir, 'logo.png', PNG)).toThrow(/could not copy "logo.png".*link to another place/);
    expect(readdirSync(elsewhere)).toEqual([]);
    // A file already there, seen through the linked folder, is not served either.
    writeFileSync(join(elsewhere, '0123456789abcdef.png'), PNG);
    expect(readOverlayMedia(dir, '0123456789abcdef.png')).toBeNull();

    const other = tempDir('greenroom-overlay-links-');
    mkdirSync(join(other, OVERLAY_MEDIA_DIR));
    const name = storeOverlayMedia(tempDir('greenroom-overlay-probe-'), 'logo.png', PNG);
    const target = join(elsewhere, 'kept.png');
    writeFileSync(target, 'not yours');
    symlinkSync(target, join(other, OVERLAY_MEDIA_DIR, name));
    expect(() => storeOverlayMedia(other, 'logo.png', PNG)).toThrow(/link to another place/);
    expect(readFileSync(target, 'utf8')).toBe('not yours');
  });
});
