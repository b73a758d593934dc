/**
 * OBS browser-source overlays (docs/overlays.md): their settings (schema-validated, kept in the settings
 * file), what an overlay page receives over its WebSocket, and the one frame it may send. Platform-free:
 * main, the panel and the overlay pages import it.
 *
 * An overlay socket is a read-only feed. The server accepts exactly one client frame (`alert-done`) and
 * closes the socket on anything else; it never reaches the contract's router (docs/overlays.md, "What an
 * overlay URL can do").
 */
import { z } from 'zod';
import {
  ALERT_ANIMATIONS,
  ALERT_LAYOUTS,
  ALERT_PRESETS,
  ALERT_VARIATIONS_MAX,
  type AlertAnimation,
  type AlertLayout,
  type AlertPreset,
  type AlertTextPart,
  type AlertVariation,
} from './alert-design';
import { alertImageSchema, alertSoundSchema, alertVariationSchema, customCssSchema } from './alert-design-schemas';
import { OVERLAY_KINDS } from './overlay-paths';
import type { ChatMessageView, FeedItem, FeedKind } from './views';

export { fillTemplate, fillTemplateParts, MEDIA_NAME } from './alert-design';

export { OVERLAY_KINDS };
export type OverlayKind = (typeof OVERLAY_KINDS)[number];

/** What can raise an alert, one template each. */
export const ALERT_KINDS = [
  'follow',
  'subscription',
  'renewal',
  'gifted-subs',
  'kicks',
  'redemption',
  'live',
  'raid',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** The fields a template may use; `{user}` etc. in the text are replaced, anything else is left as typed. */
export const ALERT_FIELDS = ['user', 'count', 'amount', 'months', 'reward', 'message', 'title', 'viewers'] as const;
export type AlertFields = Partial<Record<(typeof ALERT_FIELDS)[number], string>>;

export { OVERLAY_MEDIA_PATH, OVERLAY_PATH_PREFIX, OVERLAY_WS_PATH } from './overlay-paths';

/** Alert media the overlay plays, by extension: images (animated included) and sounds. */
export const OVERLAY_MEDIA_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  // Served with a policy that runs nothing in it (overlay-routes.ts), and refused when it holds a script.
  svg: 'image/svg+xml',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
};
/** Largest alert image or sound, so it fits one panel frame (base64) and one OBS source's memory. */
export const OVERLAY_MEDIA_MAX_BYTES = 3 * 1024 * 1024;

// --- Settings ---

const colour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #1a2b3c');
/** A CSS font-family list of names only: it goes into a style attribute. */
const font = z
  .string()
  .min(1)
  .max(80)
  .regex(/^[A-Za-z0-9 ,'-]+$/, 'must be font names separated by commas');
const animation = z.enum(ALERT_ANIMATIONS);

export const overlayStyleSchema = z.object({
  font: font.default('Inter, Segoe UI, sans-serif'),
  sizePx: z.int().min(10).max(96).default(28),
  textColor: colour.default('#ffffff'),
  accentColor: colour.default('#53fc18'),
  /** Where the text sits against the image (alerts) or the box (others). */
  textPosition: z.enum(['top', 'middle', 'bottom']).default('bottom'),
  animationIn: animation.default('fade'),
  animationOut: animation.default('fade'),
  /** CSS scoped to this overlay's box (docs/overlays.md#custom-css). */
  customCss: customCssSchema.default(''),
});
export type OverlayStyle = z.infer<typeof overlayStyleSchema>;

export const alertTemplateSchema = z.object({
  enabled: z.boolean().default(true),
  text: z.string().min(1).max(200).default('{user}'),
  /** A stored media name (MEDIA_NAME), one of Greenroom's own (`builtin:…`), or null. */
  image: alertImageSchema.nullable().default(null),
  sound: alertSoundSchema.nullable().default(null),
  durationMs: z.int().min(1000).max(30_000).default(5000),
  /** Gifted subs: at least this many; KICKs: at least this amount; others ignore it. */
  minAmount: z.int().min(0).max(1_000_000).default(0),
  /** The look (docs/overlays.md#alert-designs). */
  preset: z.enum(ALERT_PRESETS).default('card'),
  layout: z.enum(ALERT_LAYOUTS).default('above'),
  animationIn: animation.default('pop'),
  animationOut: animation.default('fade'),
  /** Gifted subs and KICKs: a different look from a bigger amount on. */
  variations: z.array(alertVariationSchema).max(ALERT_VARIATIONS_MAX).default([]),
});
export type AlertTemplate = z.infer<typeof alertTemplateSchema>;

/** Each kind's design as a new install has it: Greenroom's own image and sound, a look and its motion. */
const DEFAULT_DESIGNS: Record<AlertKind, Omit<AlertTemplate, 'enabled' | 'durationMs' | 'minAmount'>> = {
  follow: {
    text: '{user} followed!',
    ...design('card', 'above', 'pop', 'fade', 'builtin:heart.svg', 'builtin:chime.wav'),
  },
  subscription: {
    text: '{user} subscribed!',
    ...design('banner', 'beside', 'slide', 'fade', 'builtin:star.svg', 'builtin:sparkle.wav'),
  },
  renewal: {
    text: '{user} resubscribed for {months:month|months}!',
    ...design('banner', 'beside', 'slide', 'fade', 'builtin:crown.svg', 'builtin:bells.wav'),
  },
  'gifted-subs': {
    text: '{user} gifted {count:a sub|# subs}!',
    ...design('card', 'above', 'bounce', 'fade', 'builtin:gift.svg', 'builtin:pop.wav'),
    variations: [
      {
        minAmount: 10,
        text: '{user} gifted {count:a sub|# subs}! Sub train!',
        preset: 'neon',
        image: 'builtin:gift-stack.svg',
        sound: 'builtin:fanfare.wav',
      },
    ],
  },
  kicks: {
    text: '{user} sent {amount:KICK|KICKs}!',
    ...design('neon', 'above', 'pop', 'fade', 'builtin:coin.svg', 'builtin:coins.wav'),
    variations: [
      {
        minAmount: 500,
        text: '{user} sent {amount:KICK|KICKs}! Legendary!',
        preset: 'card',
        image: 'builtin:coin-pile.svg',
        sound: 'builtin:jackpot.wav',
      },
    ],
  },
  redemption: {
    text: '{user} redeemed {reward}',
    ...design('banner', 'beside', 'drop', 'fade', 'builtin:ticket.svg', 'builtin:whoosh.wav'),
  },
  live: {
    text: 'We are live: {title}',
    ...design('neon', 'above', 'drop', 'fade', 'builtin:broadcast.svg', 'builtin:rise.wav'),
  },
  raid: {
    text: '{user} is raiding with {viewers:viewer|viewers}!',
    ...design('neon', 'above', 'bounce', 'fade', 'builtin:broadcast.svg', 'builtin:fanfare.wav'),
  },
};

function design(
  preset: AlertPreset,
  layout: AlertLayout,
  animationIn: AlertAnimation,
  animationOut: AlertAnimation,
  image: AlertTemplate['image'],
  sound: AlertTemplate['sound'],
): Omit<AlertTemplate, 'enabled' | 'durationMs' | 'minAmount' | 'text'> {
  return { preset, layout, animationIn, animationOut, image, sound, variations: [] };
}

/**
 * Texts earlier versions wrote as defaults, with a plural that was wrong for one ("gifted 1 subs"): a stored
 * one reads as today's default, so a streamer who never changed it gets the right plural too.
 */
const OLD_DEFAULT_TEXTS: Partial<Record<AlertKind, string>> = {
  renewal: '{user} resubscribed for {months} months!',
  'gifted-subs': '{user} gifted {count} subs!',
  kicks: '{user} sent {amount} KICKs!',
};

const template = (kind: AlertKind): z.ZodType<AlertTemplate> => {
  const { text, preset, layout, animationIn, animationOut, image, sound, variations } = DEFAULT_DESIGNS[kind];
  const shape = alertTemplateSchema.shape;
  return alertTemplateSchema.extend({
    text: shape.text
      .unwrap()
      .transform((typed) => (typed === OLD_DEFAULT_TEXTS[kind] ? text : typed))
      .default(text),
    preset: shape.preset.unwrap().default(preset),
    layout: shape.layout.unwrap().default(layout),
    animationIn: shape.animationIn.unwrap().default(animationIn),
    animationOut: shape.animationOut.unwrap().default(animationOut),
    image: shape.image.unwrap().default(image),
    sound: shape.sound.unwrap().default(sound),
    variations: shape.variations.unwrap().default(() => structuredClone(variations)),
  });
};

const alertsSchema = z.object(
  Object.fromEntries(ALERT_KINDS.map((kind) => [kind, template(kind).prefault({})])) as Record<
    AlertKind,
    z.ZodPrefault<z.ZodType<AlertTemplate>>
  >,
);

const styleDefault = overlayStyleSchema.prefault({});

// --- The alert queue's controls (docs/overlays.md#controlling-the-alert-queue) ---

/** How late an alert may still play: 10 s to 1 hour, 2 minutes unless set. */
export const ALERT_MAX_AGE_SEC = { min: 10, max: 3600, default: 120 } as const;

export const alertQueueSettingsSchema = z.object({
  /** An alert whose event is older than this when its turn comes is dropped and listed, not played late. */
  maxAgeSec: z
    .int('must be a whole number of seconds')
    .min(ALERT_MAX_AGE_SEC.min, `must be at least ${ALERT_MAX_AGE_SEC.min} seconds`)
    .max(ALERT_MAX_AGE_SEC.max, `must be at most ${ALERT_MAX_AGE_SEC.max} seconds (1 hour)`)
    .default(ALERT_MAX_AGE_SEC.default),
  /** Moderators and the streamer may use !skipalert, !pausealerts, !resumealerts and !clearalerts in chat. */
  chatCommands: z.boolean().default(true),
});
export type AlertQueueSettings = z.infer<typeof alertQueueSettingsSchema>;

export const overlaySettingsSchema = z.object({
  style: z
    .object({ alerts: styleDefault, chat: styleDefault, goal: styleDefault, events: styleDefault })
    .default(() => ({
      // A display font where its Fontsource package is installed (docs/overlays.md#fonts), else Inter or the system's.
      alerts: overlayStyleSchema.parse({ font: 'Lilita One, Inter Variable, Inter, Segoe UI, sans-serif' }),
      chat: overlayStyleSchema.parse({ sizePx: 20 }),
      goal: overlayStyleSchema.parse({ sizePx: 22 }),
      events: overlayStyleSchema.parse({ sizePx: 18 }),
    })),
  alerts: alertsSchema.prefault({}),
  chat: z
    .object({
      /** Seconds a line stays; 0 keeps it until pushed out. */
      fadeAfterSec: z.int().min(0).max(3600).default(30),
      maxLines: z.int().min(1).max(50).default(12),
      hideCommands: z.boolean().default(true),
      hideBots: z.boolean().default(true),
      botNames: z.array(z.string().min(1).max(25)).max(50).default(['BotRix', 'KickBot', 'Fossabot']),
    })
    .prefault({}),
  goal: z
    .object({
      metric: z.enum(['follows', 'subs', 'kicks', 'custom']).default('follows'),
      label: z.string().min(1).max(60).default('Follower goal'),
      target: z.int().min(1).max(10_000_000).default(50),
      /** For `custom`: the current value, set in the panel. */
      customValue: z.int().min(0).max(10_000_000).default(0),
    })
    .prefault({}),
  events: z.object({ count: z.int().min(1).max(20).default(5) }).prefault({}),
  queue: alertQueueSettingsSchema.prefault({}),
});
export type OverlaySettings = z.infer<typeof overlaySettingsSchema>;

export const DEFAULT_OVERLAY_SETTINGS: OverlaySettings = overlaySettingsSchema.parse({});

// --- The overlay feed ---

/** One alert as an overlay plays it. */
export interface AlertView {
  /** The Kick event's message id, or `test-…` for a test alert. */
  id: string;
  kind: AlertKind;
  text: string;
  /** The same text in pieces, the name and amount marked for emphasis. */
  parts: AlertTextPart[];
  /** Same-origin URLs of the stored media, `builtin:…` for Greenroom's own, or null. */
  image: string | null;
  sound: string | null;
  durationMs: number;
  design: { preset: AlertPreset; layout: AlertLayout; animationIn: AlertAnimation; animationOut: AlertAnimation };
  /** The minimum of the variation by amount that applied, or null for the template's own look. */
  variation: number | null;
}

export type { AlertTextPart, AlertVariation };

export interface GoalView {
  label: string;
  metric: OverlaySettings['goal']['metric'];
  current: number;
  target: number;
}

/**
 * Which limit held an alert back ([alerts and the late age](../docs/overlays.md#alerts-and-the-late-age)):
 * Kick delivered its event past the "late" age (`late-age`), or it waited past the alert box's own age
 * (`alert-age`).
 */
export type DroppedAlertLimit = 'late-age' | 'alert-age';

/** One alert dropped for being too old to play, as the panel lists it. */
export interface DroppedAlertView {
  /** The event's message id. */
  id: string;
  /** Its activity-feed entry, for "Replay alert". */
  feedItemId: string;
  kind: AlertKind;
  /** The alert's text as it would have played. */
  text: string;
  /**
   * When the event happened, and how late it was: for `alert-age`, its age when dropped; for `late-age`, how
   * late Kick delivered it as the late gate judged it (for a follow, which carries no time of its own, Kick's
   * delivery delay at the time).
   */
  eventAtMs: number;
  ageMs: number;
  limit: DroppedAlertLimit;
}

/** Most too-old alerts the panel lists (the count goes on past it). */
export const DROPPED_ALERTS_LISTED = 50;

/** The alert queue as the panel shows it (`alerts:status`, pushed as `alerts:changed`). */
export interface AlertQueueView {
  paused: boolean;
  /** The alert on screen now, or null. */
  current: { id: string; kind: AlertKind; text: string } | null;
  /** Alerts waiting behind it. */
  waiting: number;
  /** Alert boxes open now; with none, alerts wait. */
  boxesOpen: number;
  maxAgeSec: number;
  /**
   * Alerts dropped as too old since the list was last dismissed: how many, how many of those Kick delivered
   * past the late age (the rest waited past the alert box's age), and the newest, newest first.
   */
  tooOld: { count: number; lateCount: number; items: DroppedAlertView[] };
  /** The last control used, by whom (a moderator's name from chat; null for the panel) and when. */
  lastAction: AlertQueueAction | null;
}

/** A use of the queue's controls, for "Skipped by mod_anna in chat"; `count` is what Clear removed. */
export interface AlertQueueAction {
  what: 'pause' | 'resume' | 'skip' | 'clear' | 'replay';
  by: string | null;
  atMs: number;
  count?: number;
}

/** The alert a feed entry of this kind raised, or null (bans, metadata, going offline…). */
export function alertKindOfFeed(kind: FeedKind): AlertKind | null {
  return (ALERT_KINDS as readonly string[]).includes(kind) ? (kind as AlertKind) : null;
}

/** What an overlay page receives. */
export type OverlayFrame =
  | { type: 'config'; kind: OverlayKind; style: OverlayStyle; emoteHost: string; chat: OverlaySettings['chat'] }
  | { type: 'alert'; alert: AlertView }
  /** The panel skipped or cleared this alert: it leaves the box now. */
  | { type: 'alert-end'; id: string }
  | { type: 'chat'; messages: ChatMessageView[] }
  | { type: 'chat-remove'; messageIds: string[] }
  | { type: 'goal'; goal: GoalView }
  | { type: 'events'; items: FeedItem[] };

/** The only frame an overlay may send: the alert it was showing has finished. */
export interface OverlayClientFrame {
  type: 'alert-done';
  id: string;
}

const clientFrame = z.strictObject({ type: z.literal('alert-done'), id: z.string().min(1).max(100) });

/** Parses an overlay's frame; null for anything else (the server then closes the socket). */
export function parseOverlayClientFrame(text: string): OverlayClientFrame | null {
  if (text.length > 300) {
    return null;
  }
  try {
    const parsed = clientFrame.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
