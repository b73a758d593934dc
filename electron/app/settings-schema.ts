/**
 * The settings' fields: their types, their schemas and their defaults, one schema per field so a bad value
 * falls back alone (`settings.ts` reads, migrates and writes them).
 */
import { plainImageOrigin } from '../../shared/emote-host';
import { z } from 'zod';
import { type AutomodSettings, automodSettingsSchema, DEFAULT_AUTOMOD_SETTINGS } from '../../shared/automod';
import { type ChatBotSettings, chatBotSettingsSchema, DEFAULT_CHAT_BOT_SETTINGS } from '../../shared/chat-bot';
import { type ChatToolsSettings, chatToolsSettingsSchema, modNotesSchema } from '../../shared/chat-tools';
import { DEFAULT_LATE_AFTER_SEC, lateAfterSecSchema } from '../../shared/late-events';
import { DEFAULT_HISTORY_SETTINGS, type HistorySettings, historySettingsSchema } from '../../shared/history';
import { DEFAULT_OBS_ACTIONS, type ObsActionsSettings, obsActionsSettingsSchema } from '../../shared/obs-actions';
import { OBS_CONNECTION_DEFAULTS, type ObsConnectionSettings, obsConnectionSaveSchema } from '../../shared/obs';
import { DEFAULT_OVERLAY_SETTINGS, type OverlaySettings, overlaySettingsSchema } from '../../shared/overlays';
import { DEFAULT_THEME, THEME_CHOICES, type ThemeChoice } from '../../shared/themes';
import { KICK_EVENT_TYPES, KICK_SCOPES, type KickEventType, type KickScope } from '../../shared/kick/scopes';
import {
  DEFAULT_LIVE_SOCKET,
  type LiveSocketSettings,
  liveSocketSettingsSchema,
} from '../../shared/live-socket-settings';
import { isValidSubdomain } from '../webhooks/tunnel/subdomain';
import { PORT_USES, portClash } from '../../shared/loopback-redirect';
import { DEFAULT_PANEL_PORT, DEFAULT_WEBHOOK_PORT, SANDBOX_PORTS } from './own-ports';

/** The redirect URI streamers register by default ([seed §5](../../docs/product-spec.md#5-authentication) rule 3). */
export const DEFAULT_REDIRECT_URI = 'http://127.0.0.1:3000/callback';
/** Where Kick serves emote images (`/emotes/<id>/fullsize`). */
export const DEFAULT_EMOTE_HOST = 'https://files.kick.com';
/** Messages kept in chat unless the streamer changes it (100–10,000). */
export const DEFAULT_CHAT_SCROLLBACK = 1000;
/** Rewards this app created, remembered so they are shown as editable; Kick allows 15 per channel. */
export const MANAGED_REWARDS_MAX = 200;

/** Which desktop notifications the streamer wants. */
export interface NotificationToggles {
  follows: boolean;
  subs: boolean;
  kicks: boolean;
  redemptions: boolean;
}

/** The settings as the app uses them (current version, every field valid). */
export interface SettingsValues {
  clientId: string;
  redirectUri: string;
  /** `localtunnel`, `off`, or a public https URL routed to the receiver. */
  tunnel: string;
  wantedEvents: KickEventType[];
  scopes: KickScope[];
  notifications: NotificationToggles;
  chatScrollback: number;
  /** Seconds after which an event is late: recorded, but no bot reply, alert or OBS action (shared/late-events.ts). */
  lateAfterSec: number;
  emoteHost: string;
  /** This install's localtunnel subdomain, made once and kept (the webhook URL must not change). */
  installSubdomain: string | null;
  managedRewardIds: string[];
  /**
   * The local port of the webhook receiver; fixed so a streamer's own tunnel or reverse proxy can route to
   * it (`GREENROOM_WEBHOOK_PORT` overrides it; 0 picks a free port on every start).
   */
  webhookPort: number;
  /** The streamer finished or closed the setup guide; until then it opens by itself (first run). */
  setupGuideDone: boolean;
  /** The OBS overlays' look, alerts, chat box, goal and event list (shared/overlays.ts). */
  overlays: OverlaySettings;
  /** Never show the stream key; keep the window out of screen captures where the system allows it. */
  streamerMode: boolean;
  /** The panel's colours: the computer's setting, or the streamer's pick (shared/themes.ts). */
  theme: ThemeChoice;
  /** Where OBS's websocket is; its password is in the SecretStore (`SECRET_KEYS.obsPassword`), never here. */
  obs: ObsConnectionSettings;
  /** Auto-moderation's rules (shared/automod.ts); off until the streamer turns it on. */
  automod: AutomodSettings;
  /** Commands, timers and event replies (shared/chat-bot.ts). */
  chatBot: ChatBotSettings;
  /** Highlight terms, the ignore list, first-message marks and inline event rows (shared/chat-tools.ts). */
  chatTools: ChatToolsSettings;
  /** Private mod notes by user id; not in the panel's settings view (the user card shows them). */
  modNotes: Record<string, string>;
  /** What OBS does on Kick's events (shared/obs-actions.ts); all off until the streamer sets them. */
  obsActions: ObsActionsSettings;
  /** Kick's live chat connection: the switch, and the channel's ids once known (shared/live-socket-settings.ts). */
  liveSocket: LiveSocketSettings;
  /** The stream history: chat lines kept this many days (shared/history.ts). */
  history: HistorySettings;
}

// --- Schema ---

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

const redirectUri = z.string().refine((value) => {
  const url = URL.canParse(value) ? new URL(value) : null;
  return url !== null && url.protocol === 'http:' && LOOPBACK_HOSTS.includes(url.hostname) && url.pathname !== '/';
}, 'must be an http URL on 127.0.0.1, localhost or [::1] with a path, e.g. http://127.0.0.1:3000/callback');

const tunnel = z
  .string()
  .refine(
    (value) => value === 'localtunnel' || value === 'off' || /^https:\/\/[^\s/]+/.test(value),
    'must be "localtunnel", "off" or an https URL',
  );

// The emote host goes into the panel's and the window's image policy, so a wildcard or an odd host is refused
// here (shared/emote-host.ts).
const httpsOrigin = z
  .string()
  .refine(
    (value) => plainImageOrigin(value) !== null,
    'must be an https origin such as https://files.kick.com (plain http only for 127.0.0.1 or localhost)',
  );

/** One schema per field, each with its default: a bad field falls back alone. */
export const FIELDS = {
  clientId: z.string().max(100).default(''),
  redirectUri: redirectUri.default(DEFAULT_REDIRECT_URI),
  tunnel: tunnel.default('localtunnel'),
  wantedEvents: z.array(z.enum(KICK_EVENT_TYPES)).default([...KICK_EVENT_TYPES]),
  scopes: z.array(z.enum(KICK_SCOPES)).default([...KICK_SCOPES]),
  notifications: z
    .object({
      follows: z.boolean().default(true),
      subs: z.boolean().default(true),
      kicks: z.boolean().default(true),
      redemptions: z.boolean().default(true),
    })
    .default({ follows: true, subs: true, kicks: true, redemptions: true }),
  chatScrollback: z.int().min(100).max(10_000).default(DEFAULT_CHAT_SCROLLBACK),
  lateAfterSec: lateAfterSecSchema.default(DEFAULT_LATE_AFTER_SEC),
  emoteHost: httpsOrigin.default(DEFAULT_EMOTE_HOST),
  installSubdomain: z
    .string()
    .refine(isValidSubdomain, 'must be 4–63 lowercase letters or digits')
    .nullable()
    .default(null),
  managedRewardIds: z.array(z.string().min(1).max(64)).max(MANAGED_REWARDS_MAX).default([]),
  webhookPort: z
    .int()
    .min(0)
    .max(65_535)
    .superRefine((port, ctx) => {
      // A hand-edited port on the panel's would leave one of the two unable to start.
      const clash = portClash(
        port,
        [{ port: DEFAULT_PANEL_PORT, use: PORT_USES.panel }, ...SANDBOX_PORTS],
        DEFAULT_WEBHOOK_PORT,
      );
      if (clash) {
        // The notice that lists it ends the sentence itself.
        ctx.addIssue({ code: 'custom', message: clash.replace(/\.$/, '') });
      }
    })
    .default(DEFAULT_WEBHOOK_PORT),
  setupGuideDone: z.boolean().default(false),
  overlays: overlaySettingsSchema.default(() => structuredClone(DEFAULT_OVERLAY_SETTINGS)),
  streamerMode: z.boolean().default(false),
  theme: z.enum(THEME_CHOICES).default(DEFAULT_THEME),
  // The saved form of `obs:save-connection`'s argument, the password left out (docs/obs.md#connecting-to-obs).
  obs: z.object(obsConnectionSaveSchema.omit({ password: true }).shape).default(() => ({ ...OBS_CONNECTION_DEFAULTS })),
  automod: automodSettingsSchema.default(() => structuredClone(DEFAULT_AUTOMOD_SETTINGS)),
  chatBot: chatBotSettingsSchema.default(() => structuredClone(DEFAULT_CHAT_BOT_SETTINGS)),
  chatTools: chatToolsSettingsSchema.prefault({}),
  modNotes: modNotesSchema.default({}),
  obsActions: obsActionsSettingsSchema.default(() => structuredClone(DEFAULT_OBS_ACTIONS)),
  liveSocket: liveSocketSettingsSchema.default(() => ({ ...DEFAULT_LIVE_SOCKET })),
  history: historySettingsSchema.default(() => ({ ...DEFAULT_HISTORY_SETTINGS })),
} satisfies { [K in keyof SettingsValues]: z.ZodType<SettingsValues[K]> };

/** Freezes an object and everything it holds (the settings are plain JSON data). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) {
      deepFreeze(inner);
    }
    Object.freeze(value);
  }
  return value;
}
