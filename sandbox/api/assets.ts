/**
 * Sandbox-only picture routes, NOT Kick API paths: the avatars, banners, thumbnails and category art the
 * world's URLs point at (`/assets/<kind>/<id>.png`, see `picture()` in world.ts), and emote images at
 * `/emotes/<id>/fullsize` (the shape of Kick's files.kick.com emote CDN). Each is a small PNG drawn in
 * code, coloured from its id, so every URL a client renders resolves offline. No token is needed.
 */
import { crc32, deflateSync } from 'node:zlib';
import type { SandboxContext } from '../context';
import type { Router } from '../http/router';
import type { SandboxResponse } from '../http/types';
import { fail } from './respond';

/** Pixel size per picture kind, roughly the aspect ratios Kick uses for each. */
const KIND_SIZES: Record<string, [width: number, height: number]> = {
  avatars: [64, 64],
  banners: [160, 40],
  thumbnails: [128, 72],
  categories: [90, 120],
};
const EMOTE_SIZE: [number, number] = [32, 32];

const FILE_NAME = /^([A-Za-z0-9_-]{1,64})\.png$/;
const EMOTE_ID = /^\d{1,20}$/;

/** Registers the picture and emote routes. */
export function registerAssetRoutes(router: Router, ctx: SandboxContext): void {
  void ctx; // Pictures depend only on the URL; nothing in state is read.
  router.get('/assets/:kind/:file', (req) => {
    const size = KIND_SIZES[req.params.kind ?? ''];
    const id = FILE_NAME.exec(req.params.file ?? '')?.[1];
    if (!size || id === undefined) {
      fail(404, 'no such sandbox picture');
    }
    return pngAnswer(renderPicture(`${req.params.kind}/${id}`, size));
  });
  router.get('/emotes/:id/fullsize', (req) => {
    const id = req.params.id ?? '';
    if (!EMOTE_ID.test(id)) {
      fail(404, 'no such sandbox emote');
    }
    return pngAnswer(renderPicture(`emotes/${id}`, EMOTE_SIZE));
  });
}

function pngAnswer(png: Buffer): SandboxResponse {
  return {
    status: 200,
    // The same URL always draws the same picture, so clients may cache it for good.
    headers: { 'content-type': 'image/png', 'cache-control': 'public, max-age=31536000, immutable' },
    body: png,
  };
}

// --- Drawing ---

/** A solid tile in a colour derived from `key`, with a lighter centred square so pictures are told apart. */
export function renderPicture(key: string, [width, height]: [number, number]): Buffer {
  const hue = fnv1a(key) % 360;
  const outer = hslToRgb(hue, 0.55, 0.45);
  const inner = hslToRgb(hue, 0.55, 0.75);
  const box = Math.floor(Math.min(width, height) / 2);
  const left = Math.floor((width - box) / 2);
  const top = Math.floor((height - box) / 2);
  const rowBytes = 1 + width * 3;
  const raw = Buffer.alloc(rowBytes * height);
  for (let y = 0; y < height; y++) {
    raw[y * rowBytes] = 0; // filter type "None"
    for (let x = 0; x < width; x++) {
      const inBox = x >= left && x < left + box && y >= top && y < top + box;
      const [r, g, b] = inBox ? inner : outer;
      const at = y * rowBytes + 1 + x * 3;
      raw[at] = r;
      raw[at + 1] = g;
      raw[at + 2] = b;
    }
  }
  return encodePng(width, height, raw);
}

/** A PNG (RFC 2083): signature, IHDR (8-bit truecolour), one zlib IDAT of the filtered rows, IEND. */
function encodePng(width: number, height: number, filteredRows: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  header[10] = 0; // compression: deflate
  header[11] = 0; // filter method: adaptive
  header[12] = 0; // interlace: none
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(filteredRows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** length, type, data, then the CRC-32 of type + data. */
function chunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length, 0);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData) >>> 0, 0);
  return Buffer.concat([length, typeAndData, crc]);
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function hslToRgb(hue: number, saturation: number, lightness: number): [number, number, number] {
  const c = (1 - Math.abs(2 * lightness - 1)) * saturation;
  const x = c * (1 - Math.abs(((hue / 60) % 2) - 1));
  const m = lightness - c / 2;
  const sector = Math.floor(hue / 60) % 6;
  const table: [number, number, number][] = [
    [c, x, 0],
    [x, c, 0],
    [0, c, x],
    [0, x, c],
    [x, 0, c],
    [c, 0, x],
  ];
  const [r, g, b] = table[sector] ?? [c, x, 0];
  return [Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255)];
}
