/**
 * How an alert looks ([Alert designs](../docs/overlays.md#alert-designs)): the design presets, the layouts
 * and animations an alert may use, Greenroom's own images and sounds, the variations by amount, the template
 * text with plurals and the parts the alert box emphasises, and the custom CSS rules. Platform-free and
 * without zod (the settings' schemas are in alert-design-schemas.ts), so the overlay page, which imports
 * it, carries no schema code: main builds an alert with it, the overlay page and the panel's preview draw one.
 */
/** The looks an alert can take; each is drawn by the alert box's CSS (renderer/src/overlay/alert-presets.css). */
export const ALERT_PRESETS = ['card', 'banner', 'neon', 'plain'] as const;
export type AlertPreset = (typeof ALERT_PRESETS)[number];

/** Where the image sits: above the text, or beside it. */
export const ALERT_LAYOUTS = ['above', 'beside'] as const;
export type AlertLayout = (typeof ALERT_LAYOUTS)[number];

/** The animations in and out (CSS keyframes in overlay.css; reduced to a fade-free cut for reduced motion). */
export const ALERT_ANIMATIONS = ['none', 'fade', 'slide', 'drop', 'pop', 'bounce'] as const;
export type AlertAnimation = (typeof ALERT_ANIMATIONS)[number];

/**
 * Greenroom's own images and sounds, drawn and synthesised for it (renderer/src/overlay/media/, made by
 * scripts/make-alert-assets.mjs). A template names one as `builtin:<file>`; the overlay page ships them.
 */
export const BUILTIN_IMAGES = [
  'builtin:heart.svg',
  'builtin:star.svg',
  'builtin:crown.svg',
  'builtin:gift.svg',
  'builtin:gift-stack.svg',
  'builtin:coin.svg',
  'builtin:coin-pile.svg',
  'builtin:ticket.svg',
  'builtin:broadcast.svg',
] as const;
export const BUILTIN_SOUNDS = [
  'builtin:chime.wav',
  'builtin:sparkle.wav',
  'builtin:bells.wav',
  'builtin:pop.wav',
  'builtin:fanfare.wav',
  'builtin:coins.wav',
  'builtin:jackpot.wav',
  'builtin:whoosh.wav',
  'builtin:rise.wav',
] as const;
export type BuiltinImage = (typeof BUILTIN_IMAGES)[number];
export type BuiltinSound = (typeof BUILTIN_SOUNDS)[number];

/** Whether a template's media reference names one of Greenroom's own files. */
export function isBuiltinMedia(ref: string): boolean {
  return (BUILTIN_IMAGES as readonly string[]).includes(ref) || (BUILTIN_SOUNDS as readonly string[]).includes(ref);
}

/** A stored media file's name: a content hash and its extension (electron/overlays/overlay-files.ts). */
export const MEDIA_NAME = /^[0-9a-f]{16}\.(png|gif|webp|svg|jpe?g|mp3|ogg|wav)$/;
export const IMAGE_NAME = /^[0-9a-f]{16}\.(png|gif|webp|svg|jpe?g)$/;
export const SOUND_NAME = /^[0-9a-f]{16}\.(mp3|ogg|wav)$/;

// --- Variations by amount ---

/** Most variations one alert may have. */
export const ALERT_VARIATIONS_MAX = 4;

/**
 * A different look for a bigger gift: from `minAmount` on (gifted subs: how many; KICKs: how much), each
 * set field replaces the template's; a null field keeps the template's.
 */
export interface AlertVariation {
  minAmount: number;
  text: string | null;
  preset: AlertPreset | null;
  image: string | null;
  sound: string | null;
}

/**
 * The variation an amount picks: the one with the highest minimum the amount reaches (the first of equal
 * ones), or null when it reaches none. Order in the list does not matter otherwise.
 */
export function pickVariation(variations: readonly AlertVariation[], amount: number): AlertVariation | null {
  let best: AlertVariation | null = null;
  for (const variation of variations) {
    if (amount >= variation.minAmount && (best === null || variation.minAmount > best.minAmount)) {
      best = variation;
    }
  }
  return best;
}

// --- Template text ---

/** One piece of an alert's text; the alert box emphasises a name, an amount and a reward. */
export interface AlertTextPart {
  text: string;
  em?: 'name' | 'amount' | 'reward';
}

const EMPHASIS: Readonly<Record<string, AlertTextPart['em']>> = {
  user: 'name',
  count: 'amount',
  amount: 'amount',
  months: 'amount',
  reward: 'reward',
};

/**
 * `{field}`, or `{field:one|other}` for a number with its word in the right form: the form for 1 or for
 * any other number. Where either form has a `#`, it stands for the number; where neither has, the number
 * goes in front.
 * `{count:a sub|# subs}` reads "a sub" or "5 subs"; `{months:month|months}` reads "1 month" or "6 months".
 */
const FIELD = /\{(\w+)(?::([^{}|]*)\|([^{}|]*))?\}/g;

/** The fields that hold an amount. */
const AMOUNTS = new Set(['count', 'amount', 'months']);

/**
 * An amount reads with thousands separators ("1,000 KICKs"). Only amounts: a chat command's `{args}` of
 * "2024" stays as typed (the chat bot fills its replies with this too).
 */
function readable(value: string): string {
  return /^\d{4,15}$/.test(value) ? Number(value).toLocaleString('en-US') : value;
}

function plural(value: string, one: string, other: string): string {
  const form = Number(value) === 1 ? one : other;
  const number = readable(value);
  const placed = one.includes('#') || other.includes('#');
  return placed ? form.replaceAll('#', number) : `${number} ${form}`;
}

/** Fills a template into parts; unknown or missing fields are left as typed. */
export function fillTemplateParts(text: string, fields: Partial<Record<string, string>>): AlertTextPart[] {
  const parts: AlertTextPart[] = [];
  let at = 0;
  for (const match of text.matchAll(FIELD)) {
    const [whole, name, one, other] = match;
    const value = fields[name!];
    if (value === undefined) {
      continue;
    }
    if (match.index > at) {
      parts.push({ text: text.slice(at, match.index) });
    }
    const filled =
      one !== undefined && /^\d+$/.test(value)
        ? plural(value, one, other!)
        : AMOUNTS.has(name!)
          ? readable(value)
          : value;
    const em = EMPHASIS[name!];
    parts.push(em && filled !== '' ? { text: filled, em } : { text: filled });
    at = match.index + whole.length;
  }
  if (at < text.length) {
    parts.push({ text: text.slice(at) });
  }
  return parts;
}

/** Fills a template's `{field}`s (and plural forms) into one string. */
export function fillTemplate(text: string, fields: Partial<Record<string, string>>): string {
  return fillTemplateParts(text, fields)
    .map((part) => part.text)
    .join('');
}

// --- Custom CSS ---

/** Longest custom CSS an alert box takes. */
export const CUSTOM_CSS_MAX = 5000;

/**
 * Why a custom CSS would reach outside the overlay, or null when it does not. The overlay page's policy
 * blocks every load from another host anyway (docs/overlays.md#custom-css); refusing it at Save tells the
 * streamer why their background image never shows. Allowed: `url(data:…)`, and this overlay's own media.
 */
export function customCssProblem(css: string): string | null {
  // Comments could hide an @import from a reader, not from a browser: judge the text without them.
  const plain = css.replace(/\/\*[\s\S]*?(\*\/|$)/g, ' ');
  if (/@import\b/i.test(plain)) {
    return 'may not @import other style sheets';
  }
  if (/\\/.test(plain)) {
    return 'may not use backslash escapes';
  }
  if (/<\/?style|<script/i.test(plain)) {
    return 'is CSS only, without HTML tags';
  }
  if (/(image-set|(^|[^-\w])src)\(/i.test(plain)) {
    return 'may not use image-set() or src(): use url() with an image added in the Overlays tab';
  }
  for (const match of plain.matchAll(/\burl\(\s*(['"]?)([^'")]*)/gi)) {
    const target = match[2]!.trim();
    if (
      !/^data:image\/(png|gif|webp|jpeg);base64,/i.test(target) &&
      !/^\/overlay\/media\/[0-9a-f]{16}\.\w+$/.test(target)
    ) {
      return `may not load "${target.slice(0, 60)}": only images added in the Overlays tab, or data: images`;
    }
  }
  return null;
}
