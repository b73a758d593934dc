/**
 * The overlays' files in the data dir (docs/overlays.md):
 * - `overlay-key`: the key in every overlay URL. Separate from the panel token, so a URL pasted into OBS,
 *   or seen on stream, can never open the panel; regenerating it retires every overlay URL at once.
 * - `overlay-alerts.json`: the last alert shown (alert-queue.ts), replaced whole through a synced temporary
 *   file, so a crash mid-write leaves the old record or the new one.
 * - `overlay-media/`: alert images and sounds the streamer chose, copied in under a content-hash name,
 *   each checked for what it really is (media-sniff.ts) and its size
 *   ([your own images and sounds](../../docs/overlays.md#your-own-images-and-sounds)).
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { AppError } from '../../shared/errors';
import { MEDIA_NAME, OVERLAY_MEDIA_MAX_BYTES, OVERLAY_MEDIA_TYPES } from '../../shared/overlays';
import { ensureDataFolder, readDataFile, unexpectedAt, writeDataFile } from '../core/data-files';
import { createPanelToken } from '../secrets/access-token';
import { fsReason } from '../secrets/damaged-file';
import type { AlertProgress, AlertProgressStore } from './alert-queue';
import { IMAGE_TYPES, type MediaType, SOUND_TYPES, sniffMediaType, svgProblem, TYPE_NAMES } from './media-sniff';

export const OVERLAY_KEY_FILE = 'overlay-key';
export const ALERT_PROGRESS_FILE = 'overlay-alerts.json';
export const OVERLAY_MEDIA_DIR = 'overlay-media';

const KEY_SHAPE = /^[A-Za-z0-9_-]{32,128}$/;

/** The overlay key: read, or created and stored on first use. */
export function loadOrCreateOverlayKey(dataDir: string): string {
  try {
    // Never through a link (electron/core/data-files.ts); the start moves a link here aside (data-dir-check.ts).
    const stored = readDataFile(join(dataDir, OVERLAY_KEY_FILE))?.toString('utf8').trim();
    if (stored !== undefined && KEY_SHAPE.test(stored)) {
      return stored;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw error;
    }
  }
  return regenerateOverlayKey(dataDir);
}

/** A fresh overlay key, stored; the old one stops working. */
export function regenerateOverlayKey(dataDir: string): string {
  const key = createPanelToken();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeWhole(join(dataDir, OVERLAY_KEY_FILE), `${key}\n`);
  return key;
}

const progressSchema = z.object({ lastShownId: z.string().min(1).max(200), lastShownAtMs: z.number() });

/** The alert progress file; a damaged one reads as "nothing shown yet" and is logged. */
export function openAlertProgress(dataDir: string, log: (line: string) => void): AlertProgressStore {
  const path = join(dataDir, ALERT_PROGRESS_FILE);
  return {
    read(): AlertProgress | null {
      let text: string;
      try {
        const bytes = readDataFile(path);
        if (bytes === null) {
          return null;
        }
        text = bytes.toString('utf8');
      } catch {
        return null;
      }
      try {
        const parsed = progressSchema.safeParse(JSON.parse(text));
        if (parsed.success) {
          return parsed.data;
        }
      } catch {
        // Reported below.
      }
      log(`overlays: ${path} is damaged; alerts start from the next event`);
      return null;
    },
    write(progress: AlertProgress): void {
      writeWhole(path, JSON.stringify(progress));
    },
  };
}

/** Which picker a file came from: an alert's image or its sound. */
export type MediaSlot = 'image' | 'sound';

const mib = (bytes: number): string => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
const names = (types: readonly MediaType[]): string => types.map((type) => TYPE_NAMES[type]).join(', ');

function refuse(message: string): never {
  throw new AppError('InvalidArgument', `file: ${message}`, { details: { field: 'file' } });
}

/**
 * Copies an alert image or sound into the data dir; returns its stored name. What the file is comes from
 * its content, never its name: a program renamed `.png` is refused, and so is an SVG that could run
 * something. The size is limited (OVERLAY_MEDIA_MAX_BYTES) so one file cannot fill a frame or OBS's memory.
 */
export function storeOverlayMedia(dataDir: string, fileName: string, bytes: Buffer, slot?: MediaSlot): string {
  const shown = JSON.stringify(fileName.slice(0, 80));
  if (bytes.length === 0) {
    refuse(`${shown} is empty`);
  }
  if (bytes.length > OVERLAY_MEDIA_MAX_BYTES) {
    const limit = mib(OVERLAY_MEDIA_MAX_BYTES);
    refuse(
      mib(bytes.length) === limit
        ? `${shown} is just over the limit of ${limit}`
        : `${shown} is ${mib(bytes.length)}; the limit is ${limit}`,
    );
  }
  const wanted: readonly MediaType[] =
    slot === 'image' ? IMAGE_TYPES : slot === 'sound' ? SOUND_TYPES : [...IMAGE_TYPES, ...SOUND_TYPES];
  const type = sniffMediaType(bytes);
  if (type === null) {
    refuse(`${shown} is not a ${names(wanted).replace(/, (\w+)$/, ' or $1')} file (whatever its name says)`);
  }
  if (!wanted.includes(type)) {
    refuse(
      `${shown} is ${slot === 'image' ? 'a sound' : 'an image'} (${TYPE_NAMES[type]}); pick ${slot === 'image' ? 'an image' : 'a sound'} here`,
    );
  }
  if (type === 'svg') {
    const problem = svgProblem(bytes);
    if (problem !== null) {
      refuse(`${shown} is an SVG Greenroom will not show: ${problem}`);
    }
  }
  const name = `${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}.${type}`;
  const dir = join(dataDir, OVERLAY_MEDIA_DIR);
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    // A link standing for the folder is refused, not followed (electron/core/data-files.ts).
    ensureDataFolder(dir);
    writeWhole(join(dir, name), bytes);
  } catch (error) {
    throw new AppError('Internal', `Greenroom could not copy ${shown} into ${dir} (${fsReason(error)})`, {
      cause: error,
    });
  }
  return name;
}

/** A stored media file's bytes and type, or null (unknown name, missing file). */
export function readOverlayMedia(dataDir: string, name: string): { body: Buffer; contentType: string } | null {
  if (!MEDIA_NAME.test(name)) {
    return null;
  }
  const extension = name.slice(name.lastIndexOf('.') + 1);
  try {
    // A link here (the file, or the folder) would serve a file from elsewhere to whoever has the overlay
    // key: refused, not followed.
    if (unexpectedAt(join(dataDir, OVERLAY_MEDIA_DIR), 'folder') !== null) {
      return null;
    }
    const body = readDataFile(join(dataDir, OVERLAY_MEDIA_DIR, name));
    return body ? { body, contentType: OVERLAY_MEDIA_TYPES[extension]! } : null;
  } catch {
    return null;
  }
}

function writeWhole(path: string, data: string | Buffer): void {
  writeDataFile(path, data);
}
