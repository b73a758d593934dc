import { mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ALERT_PROGRESS_FILE,
  OVERLAY_MEDIA_DIR,
  openAlertProgress,
  readOverlayMedia,
} from '../../../../electron/overlays/overlay-files';
import { tempDir } from '../../../helpers/temp-dir';

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
});
