/**
 * Greenroom's icons drawn in code: the tray's status dots (made at run time, so no image files need to
 * ship inside the app) and the application icon set that `scripts/make-icons.ts` writes to `build/` for
 * electron-builder. A minimal RGBA PNG encoder (RFC 2083: signature, IHDR, one zlib IDAT, IEND).
 */
import { crc32, deflateSync } from 'node:zlib';
import type { TrayLevel } from './tray-status';

type Rgb = readonly [number, number, number];

const LEVEL_COLOURS: Record<TrayLevel, Rgb> = {
  ok: [0x22, 0xc5, 0x5e],
  warn: [0xf5, 0x9e, 0x0b],
  off: [0x9c, 0xa3, 0xaf],
};
const BRAND_DARK: Rgb = [0x0b, 0x1f, 0x14];
const BRAND_GREEN: Rgb = [0x53, 0xfc, 0x18];

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** Encodes `rgba` (width × height × 4 bytes, rows top to bottom) as a PNG. */
export function encodePngRgba(width: number, height: number, rgba: Buffer): Buffer {
  if (rgba.length !== width * height * 4) {
    throw new RangeError(`expected ${width * height * 4} bytes of RGBA, got ${rgba.length}`);
  }
  const rowBytes = width * 4;
  const raw = Buffer.alloc((rowBytes + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (rowBytes + 1)] = 0; // filter type "None"
    rgba.copy(raw, y * (rowBytes + 1) + 1, y * rowBytes, (y + 1) * rowBytes);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Paints pixels from a coverage function: `shade(x, y)` returns the colour and its alpha (0..1) at a
 * pixel centre. Four samples per pixel smooth the edges.
 */
function paint(size: number, shade: (x: number, y: number) => [Rgb, number]): Buffer {
  const rgba = Buffer.alloc(size * size * 4);
  const offsets = [0.25, 0.75];
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (const oy of offsets) {
        for (const ox of offsets) {
          const [colour, alpha] = shade((x + ox) / size, (y + oy) / size);
          r += colour[0] * alpha;
          g += colour[1] * alpha;
          b += colour[2] * alpha;
          a += alpha;
        }
      }
      const at = (y * size + x) * 4;
      if (a > 0) {
        rgba[at] = Math.round(r / a);
        rgba[at + 1] = Math.round(g / a);
        rgba[at + 2] = Math.round(b / a);
      }
      rgba[at + 3] = Math.round((a / 4) * 255);
    }
  }
  return rgba;
}

/** The tray icon: a round dot in the status colour on a transparent background. */
export function drawStatusDot(size: number, level: TrayLevel): Buffer {
  const colour = LEVEL_COLOURS[level];
  const rgba = paint(size, (x, y) => [colour, Math.hypot(x - 0.5, y - 0.5) <= 0.42 ? 1 : 0]);
  return encodePngRgba(size, size, rgba);
}

/** The application icon: a dark rounded square with a green ring (a "room" with the light on). */
export function drawAppIcon(size: number): Buffer {
  const radius = 0.2;
  const inSquare = (x: number, y: number): boolean => {
    const dx = Math.max(Math.abs(x - 0.5) - (0.5 - radius - 0.04), 0);
    const dy = Math.max(Math.abs(y - 0.5) - (0.5 - radius - 0.04), 0);
    return Math.hypot(dx, dy) <= radius;
  };
  const rgba = paint(size, (x, y) => {
    if (!inSquare(x, y)) {
      return [BRAND_DARK, 0];
    }
    const d = Math.hypot(x - 0.5, y - 0.5);
    return [d >= 0.2 && d <= 0.3 ? BRAND_GREEN : BRAND_DARK, 1];
  });
  return encodePngRgba(size, size, rgba);
}
