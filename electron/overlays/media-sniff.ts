/**
 * What an alert image or sound really is, read from its first bytes rather than from its name
 * ([Alert designs](../../docs/overlays.md#your-own-images-and-sounds)): a program renamed `.png` is none of
 * these and is refused. An SVG is text that a browser could run, so it is also read whole and refused when
 * it holds a script, an event handler, an embedded page or a link to another file. Pure.
 */

export type ImageType = 'png' | 'gif' | 'webp' | 'jpg' | 'svg';
export type SoundType = 'mp3' | 'ogg' | 'wav';
export type MediaType = ImageType | SoundType;

export const IMAGE_TYPES: readonly ImageType[] = ['png', 'gif', 'webp', 'jpg', 'svg'];
export const SOUND_TYPES: readonly SoundType[] = ['mp3', 'ogg', 'wav'];

/** How a type is named to the streamer. */
export const TYPE_NAMES: Readonly<Record<MediaType, string>> = {
  png: 'PNG',
  gif: 'GIF',
  webp: 'WebP',
  jpg: 'JPEG',
  svg: 'SVG',
  mp3: 'MP3',
  ogg: 'OGG',
  wav: 'WAV',
};

const ascii = (bytes: Uint8Array, at: number, text: string): boolean =>
  bytes.length >= at + text.length && [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));

/** The media type the bytes begin like, or null for anything else (a program, a document, a video…). */
export function sniffMediaType(bytes: Uint8Array): MediaType | null {
  if (ascii(bytes, 0, '\x89PNG\r\n\x1a\n')) {
    return 'png';
  }
  if (ascii(bytes, 0, 'GIF87a') || ascii(bytes, 0, 'GIF89a')) {
    return 'gif';
  }
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP')) {
    return 'webp';
  }
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WAVE')) {
    return 'wav';
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return 'jpg';
  }
  if (ascii(bytes, 0, 'OggS')) {
    return 'ogg';
  }
  // An ID3 tag, or straight into an MPEG audio frame (an 11-bit sync, then layer III).
  if (ascii(bytes, 0, 'ID3') || (bytes[0] === 0xff && bytes[1] !== undefined && (bytes[1] & 0xe6) === 0xe2)) {
    return 'mp3';
  }
  if (looksLikeSvg(bytes)) {
    return 'svg';
  }
  return null;
}

/** Text (UTF-8, optionally with a byte-order mark) whose first element, after any prolog, is `<svg`. */
function looksLikeSvg(bytes: Uint8Array): boolean {
  const head = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 4096)).replace(/^\uFEFF/, '');
  const rest = head.replace(/^(\s|<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>)*/i, '');
  return /^<svg[\s>/]/i.test(rest);
}

/**
 * Why an SVG is unsafe to show, or null. Strict on purpose: an alert image needs shapes, gradients and
 * perhaps an embedded picture, never a script, an event handler, an embedded page, a document type
 * (entities can expand without end) or anything loaded from elsewhere.
 */
export function svgProblem(bytes: Uint8Array): string | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return 'it is not readable text';
  }
  // Character references could spell `javascript:` past a plain search: read them as the browser would.
  const decoded = text
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => safeChar(parseInt(hex, 16)))
    .replace(/&#([0-9]+);?/g, (_, dec: string) => safeChar(parseInt(dec, 10)));
  const checks: [RegExp, string][] = [
    [/<!DOCTYPE|<!ENTITY/i, 'it declares a document type or entities'],
    [/<script\b/i, 'it has a script'],
    [/\son[a-z]+\s*=/i, 'it has an event handler (an on… attribute)'],
    [/<(foreignObject|iframe|embed|object|audio|video|handler|listener)\b/i, 'it embeds a page or other content'],
    [/javascript\s*:|vbscript\s*:|data\s*:\s*text\/html/i, 'it has a script link'],
    [/@import\b/i, 'it imports a style sheet'],
  ];
  for (const [pattern, reason] of checks) {
    if (pattern.test(decoded)) {
      return reason;
    }
  }
  // Links: only to its own parts (#id) or to an embedded picture.
  for (const match of decoded.matchAll(/\b(?:xlink:)?href\s*=\s*(["'])(.*?)\1/gis)) {
    if (!isInternal(match[2]!)) {
      return `it links to another file (${match[2]!.slice(0, 60)})`;
    }
  }
  for (const match of decoded.matchAll(/\burl\(\s*(['"]?)([^'")]*)/gi)) {
    if (!isInternal(match[2]!)) {
      return `it loads another file (${match[2]!.slice(0, 60)})`;
    }
  }
  return null;
}

function isInternal(target: string): boolean {
  const value = target.trim();
  return value.startsWith('#') || /^data:image\/(png|gif|webp|jpeg);base64,/i.test(value);
}

function safeChar(code: number): string {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\uFFFD';
}
