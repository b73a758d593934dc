import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ALERT_PROGRESS_FILE,
  loadOrCreateOverlayKey,
  openAlertProgress,
  readOverlayMedia,
  regenerateOverlayKey,
  storeOverlayMedia,
} from '../../../../electron/overlays/overlay-files';
import { tempDir } from '../../../helpers/temp-dir';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe('the overlays’ files', () => {
  it('keeps one overlay key across starts, and a regenerated one replaces it', () => {
    const dir = tempDir('greenroom-overlay-key-');
    const key = loadOrCreateOverlayKey(dir);
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(loadOrCreateOverlayKey(dir)).toBe(key);
    const fresh = regenerateOverlayKey(dir);
    expect(fresh).not.toBe(key);
    expect(loadOrCreateOverlayKey(dir)).toBe(fresh);
  });

  it('reads a damaged progress file as nothing shown yet, and says so', () => {
    const dir = tempDir('greenroom-overlay-progress-');
    const lines: string[] = [];
    const store = openAlertProgress(dir, (line) => lines.push(line));
    expect(store.read()).toBeNull();
    store.write({ lastShownId: 'm1', lastShownAtMs: 5 });
    expect(store.read()).toEqual({ lastShownId: 'm1', lastShownAtMs: 5 });
    writeFileSync(join(dir, ALERT_PROGRESS_FILE), '{"lastShownId": "m');
    expect(store.read()).toBeNull();
    expect(lines.join()).toMatch(/is damaged; alerts start from the next event/);
    expect(existsSync(join(dir, `${ALERT_PROGRESS_FILE}.tmp`))).toBe(false);
  });

  it('copies alert media in under a content name, and serves it back by that name only', () => {
    const dir = tempDir('greenroom-overlay-media-');
    const name = storeOverlayMedia(dir, 'My Alert.PNG', PNG);
    expect(name).toMatch(/^[0-9a-f]{16}\.png$/);
    expect(storeOverlayMedia(dir, 'copy.png', PNG)).toBe(name);
    expect(readOverlayMedia(dir, name)).toEqual({ body: PNG, contentType: 'image/png' });
    expect(readFileSync(join(dir, 'overlay-media', name))).toEqual(PNG);
    expect(readOverlayMedia(dir, '../settings.json')).toBeNull();
    expect(readOverlayMedia(dir, '0000000000000000.png')).toBeNull();
  });

  it('refuses a file that is not an image or a sound, or too large, naming the field and the limit', () => {
    const dir = tempDir('greenroom-overlay-media-');
    expect(() => storeOverlayMedia(dir, 'notes.txt', Buffer.from('just words'))).toThrow(
      /^file: "notes.txt" is not a PNG, GIF, WebP, JPEG, SVG, MP3, OGG or WAV file/,
    );
    expect(() => storeOverlayMedia(dir, 'big.gif', Buffer.alloc(3 * 1024 * 1024 + 1))).toThrow(
      /^file: "big.gif" is just over the limit of 3 MiB/,
    );
    expect(() => storeOverlayMedia(dir, 'empty.mp3', Buffer.alloc(0))).toThrow(/^file: "empty.mp3" is empty/);
  });

  it('goes by what a file is, not what it is called: a program renamed .png is refused, a PNG called .gif kept', () => {
    const dir = tempDir('greenroom-overlay-media-');
    const program = Buffer.concat([Buffer.from('MZ\x90\x00', 'latin1'), Buffer.alloc(4096)]);
    expect(() => storeOverlayMedia(dir, 'cute-cat.png', program, 'image')).toThrow(
      /^file: "cute-cat.png" is not a PNG, GIF, WebP, JPEG or SVG file \(whatever its name says\)$/,
    );
    expect(storeOverlayMedia(dir, 'really-a-png.gif', PNG, 'image')).toMatch(/^[0-9a-f]{16}\.png$/);
    expect(existsSync(join(dir, 'overlay-media'))).toBe(true);
    expect(readdirSync(join(dir, 'overlay-media'))).toHaveLength(1);
  });

  it('refuses a 50 MB file by its size, naming the limit, and keeps nothing of it', () => {
    const dir = tempDir('greenroom-overlay-media-');
    const huge = Buffer.concat([PNG, Buffer.alloc(50 * 1024 * 1024)]);
    expect(() => storeOverlayMedia(dir, 'huge.png', huge)).toThrow(/^file: "huge.png" is 50 MiB; the limit is 3 MiB$/);
    expect(existsSync(join(dir, 'overlay-media'))).toBe(false);
  });

  it('refuses an SVG with a script, and a sound where an image belongs', () => {
    const dir = tempDir('greenroom-overlay-media-');
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("//e.example")</script></svg>');
    expect(() => storeOverlayMedia(dir, 'badge.svg', svg, 'image')).toThrow(
      /^file: "badge.svg" is an SVG Greenroom will not show: it has a script$/,
    );
    const wav = Buffer.concat([Buffer.from('RIFF\x10\x00\x00\x00WAVEfmt ', 'latin1'), Buffer.alloc(64)]);
    expect(() => storeOverlayMedia(dir, 'ding.wav', wav, 'image')).toThrow(
      /^file: "ding.wav" is a sound \(WAV\); pick an image here$/,
    );
    expect(storeOverlayMedia(dir, 'ding.wav', wav, 'sound')).toMatch(/\.wav$/);
    const clean = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>');
    const name = storeOverlayMedia(dir, 'dot.svg', clean, 'image');
    expect(readOverlayMedia(dir, name)).toEqual({ body: clean, contentType: 'image/svg+xml' });
  });
});
