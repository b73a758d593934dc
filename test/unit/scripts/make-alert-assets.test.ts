import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sniffMediaType, svgProblem } from '../../../electron/overlays/media-sniff';
import { MEDIA_DIR, makeAlertSounds, SAMPLE_RATE } from '../../../scripts/make-alert-assets.mjs';
import { BUILTIN_IMAGES, BUILTIN_SOUNDS } from '../../../shared/alert-design';

const file = (ref: string): string => join(MEDIA_DIR, ref.replace(/^builtin:/, ''));

describe('Greenroom’s own alert images and sounds', () => {
  it('are the sounds the generator makes, byte for byte: the committed files are not edited by hand', () => {
    const made = makeAlertSounds();
    expect(Object.keys(made).sort()).toEqual(BUILTIN_SOUNDS.map((ref) => ref.replace(/^builtin:/, '')).sort());
    for (const [name, bytes] of Object.entries(made)) {
      expect(readFileSync(join(MEDIA_DIR, name)).equals(bytes), name).toBe(true);
    }
  });

  it('are short, small mono WAVs that pass Greenroom’s own upload check', () => {
    for (const ref of BUILTIN_SOUNDS) {
      const bytes = readFileSync(file(ref));
      expect(sniffMediaType(bytes), ref).toBe('wav');
      expect(bytes.readUInt16LE(22), `${ref} channels`).toBe(1);
      expect(bytes.readUInt32LE(24)).toBe(SAMPLE_RATE);
      const seconds = bytes.readUInt32LE(40) / 2 / SAMPLE_RATE;
      expect(seconds, ref).toBeGreaterThan(0.5);
      expect(seconds, ref).toBeLessThan(2);
    }
  });

  it('are SVGs that Greenroom itself would accept from a streamer, and every one named has its file', () => {
    for (const ref of BUILTIN_IMAGES) {
      const bytes = readFileSync(file(ref));
      expect(sniffMediaType(bytes), ref).toBe('svg');
      expect(svgProblem(bytes), ref).toBeNull();
      expect(bytes.length, ref).toBeLessThan(4096);
    }
    const named = new Set([...BUILTIN_IMAGES, ...BUILTIN_SOUNDS].map((ref) => ref.replace(/^builtin:/, '')));
    expect(readdirSync(MEDIA_DIR).filter((name) => !named.has(name))).toEqual([]);
  });
});
