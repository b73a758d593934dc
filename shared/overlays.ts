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
import type { ChatMessageView, FeedItem, FeedKind } from './views';

export const OVERLAY_KINDS = ['alerts', 'chat', 'goal', 'events'] as const;
export type OverlayKind = (typeof OVERLAY_KINDS)[number];

/** What can raise an alert, one template each. */
export const ALERT_KINDS = ['follow', 'subscription', 'renewal', 'gifted-subs', 'kicks', 'redemption', 'live'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** The fields a template may use; `{user}` etc. in the text are replaced, anything else is left as typed. */
export const ALERT_FIELDS = ['user', 'count', 'amount', 'months', 'reward', 'message', 'title'] as const;
export type AlertFields = Partial<Record<(typeof ALERT_FIELDS)[number], string>>;

export { OVERLAY_MEDIA_PATH, OVERLAY_PATH_PREFIX, OVERLAY_WS_PATH } from './overlay-paths';

/** Alert media the overlay plays, by extension: images (animated included) and sounds. */
export const OVERLAY_MEDIA_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
};
/** Largest alert image or sound, so it fits one panel frame (base64) and one OBS source's memory. */
export const OVERLAY_MEDIA_MAX_BYTES = 3 * 1024 * 1024;
/** A stored media file's name: a content hash and its extension (media-files.ts). */
export const MEDIA_NAME = /^[0-9a-f]{16}\.(png|gif|webp|jpe?g|mp3|ogg|wav)$/;

// --- Settings ---

const colour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #1a2b3c');
/** A CSS font-family list of names only: it goes into a style attribute. */
const font = z
  .string()
  .min(1)
  .max(80)
  .regex(/^[A-Za-z0-9 ,'-]+$/, 'must be font names separated by commas');
const animation = z.enum(['none', 'fade', 'slide', 'pop']);

export const overlayStyleSchema = z.object({
  font: font.default('Inter, Segoe UI, sans-serif'),
  sizePx: z.int().min(10).max(96).default(28),
  textColor: colour.default('#ffffff'),
  accentColor: colour.default('#53fc18'),
  /** Where the text sits against the image (alerts) or the box (others). */
  textPosition: z.enum(['top', 'middle', 'bottom']).default('bottom'),
  animationIn: animation.default('fade'),
  animationOut: animation.default('fade'),
});
export type OverlayStyle = z.infer<typeof overlayStyleSchema>;

export const alertTemplateSchema = z.object({
  enabled: z.boolean().default(true),
  text: z.string().min(1).max(200).default('{user}'),
  /** A stored media name (MEDIA_NAME), or null. */
  image: z.string().regex(MEDIA_NAME).nullable().default(null),
  sound: z.string().regex(MEDIA_NAME).nullable().default(null),
  durationMs: z.int().min(1000).max(30_000).default(5000),
  /** Gifted subs: at least this many; KICKs: at least this amount; others ignore it. */
  minAmount: z.int().min(0).max(1_000_000).default(0),
});
export type AlertTemplate = z.infer<typeof alertTemplateSchema>;

const DEFAULT_TEXTS: Record<AlertKind, string> = {
  follow: '{user} followed!',
  subscription: '{user} subscribed!',
  renewal: '{user} resubscribed for {months} months!',
  'gifted-subs': '{user} gifted {count} subs!',
  kicks: '{user} sent {amount} KICKs!',
  redemption: '{user} redeemed {reward}',
  live: 'We are live: {title}',
};

const template = (kind: AlertKind): z.ZodType<AlertTemplate> =>
  alertTemplateSchema.extend({ text: alertTemplateSchema.shape.text.unwrap().default(DEFAULT_TEXTS[kind]) });

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
      alerts: overlayStyleSchema.parse({}),
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
  /** Same-origin URLs of the stored media, or null. */
  image: string | null;
  sound: string | null;
  durationMs: number;
}

export interface GoalView {
  label: string;
  metric: OverlaySettings['goal']['metric'];
  current: number;
  target: number;
}

/** One alert dropped for being older than the set age, as the panel lists it. */
export interface DroppedAlertView {
  /** The event's message id. */
  id: string;
  /** Its activity-feed entry, for "Replay alert". */
  feedItemId: string;
  kind: AlertKind;
  /** The alert's text as it would have played. */
  text: string;
  /** When the event happened, and how old it was when dropped. */
  eventAtMs: number;
  ageMs: number;
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
  /** Alerts dropped as too old since the list was last dismissed: how many, and the newest, newest first. */
  tooOld: { count: number; items: DroppedAlertView[] };
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

/** Fills a template's `{field}`s; unknown or missing fields are left as typed. */
export function fillTemplate(text: string, fields: AlertFields): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = (fields as Record<string, string | undefined>)[name];
    return value ?? whole;
  });
}
