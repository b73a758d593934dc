/**
 * The one contract between main and the panel. Every request channel with its argument schema and result
 * type, every event main pushes. Electron IPC and the panel WebSocket both carry exactly this, and both
 * validate every incoming message against these schemas before a handler sees it.
 *
 * Channel strings appear nowhere else. Results cross as values (`Result<T>`); only programmer errors throw.
 */
import { z } from 'zod';
import { liveSocketSaveSchema } from './live-socket-settings';
import {
  EVENT_CHANNELS,
  type EventChannel,
  type InvokeChannel,
  isInvokeChannel,
  isSendChannel,
  IPC_PREFIX,
  type SendChannel,
} from './ipc-channels';
import type { Result } from './errors';
import type { KickEventType } from './kick/scopes';
import { KICK_EVENT_TYPES, KICK_SCOPES } from './kick/scopes';
import type {
  KickAdBreakCreated,
  KickAdBreakStatus,
  KickCategory,
  KickChatSendResult,
  KickLeaderboard,
  KickRedemptionFailure,
  KickReward,
} from './kick/resources';
import { HEX_COLOUR, LIMITS } from './limits';
import { type AutomodVerdict, automodSaveSchema } from './automod';
import { chatBotSaveSchema } from './chat-bot';
import { obsActionsSaveSchema } from './obs-actions';
import { lateAfterSecSchema } from './late-events';
import { chatToolsSettingsSchema, MOD_NOTE_MAX } from './chat-tools';
import { ALERT_KINDS, type AlertQueueView, OVERLAY_MEDIA_MAX_BYTES, overlaySettingsSchema } from './overlays';
import { redirectUriProblem } from './loopback-redirect';
import { OBS_NAME_MAX, obsConnectionSaveSchema, type ObsSetupResult, type ObsView } from './obs';
import type { RoomStateView } from './room-state';
import { THEME_CHOICES } from './themes';
import {
  HISTORY_SEARCH_MAX,
  historySettingsSchema,
  type HistoryChangedView,
  type HistoryExportView,
  type HistoryRecapView,
  type HistoryStatusView,
  type HistoryStreamItem,
  type HistoryViewerHit,
  type HistoryViewerStoryView,
} from './history';
import type {
  AccountView,
  AppRestartedView,
  AppSnapshot,
  ChannelView,
  ChatMessageView,
  DiagnosticsView,
  FeedItem,
  HealthView,
  ModAction,
  OverlaysView,
  RedemptionGroupView,
  SettingsView,
  StreamKeyView,
  UserCardView,
} from './views';

// --- Argument schemas (the limits are Kick's, from shared/limits.ts) ---

const userId = z.int().min(1);
const chatContent = z
  .string()
  .min(1, 'content: must not be empty')
  .refine(
    (s) => [...s].length <= LIMITS.chatContentMax,
    `content: must be at most ${LIMITS.chatContentMax} characters`,
  );
const reason = z.string().max(LIMITS.banReasonMax, `reason: must be at most ${LIMITS.banReasonMax} characters`);
const redemptionIds = z.array(z.string().min(1).max(64)).min(1).max(1000);
const rewardFields = {
  title: z.string().min(1).max(LIMITS.rewardTitleMax, `title: must be at most ${LIMITS.rewardTitleMax} characters`),
  cost: z.int().min(LIMITS.rewardCostMin, `cost: must be at least ${LIMITS.rewardCostMin}`),
  description: z
    .string()
    .max(LIMITS.rewardDescriptionMax, `description: must be at most ${LIMITS.rewardDescriptionMax} characters`),
  backgroundColor: z.string().regex(HEX_COLOUR, 'background_color: must be a hex colour such as #00e701'),
  isEnabled: z.boolean(),
  isUserInputRequired: z.boolean(),
  shouldRedemptionsSkipRequestQueue: z.boolean(),
};
const none = z.tuple([]);
/** The last moment a date can name (ECMAScript's bound on a time value): no stream can start later. */
const LAST_DATE_MS = 8.64e15;
/** A stream in the history: Kick's `started_at` in milliseconds, a real date so a message can name it. */
const streamId = z
  .int()
  .min(0)
  .max(LAST_DATE_MS, `streamId: must be at most ${LAST_DATE_MS} (the last date a clock can name)`);
const obsName = (field: string) =>
  z
    .string()
    .min(1, `${field}: must not be empty`)
    .max(OBS_NAME_MAX, `${field}: must be at most ${OBS_NAME_MAX} characters`);
const one = <T extends z.ZodType>(schema: T) => z.tuple([schema]);

/** Request/response channels: `args` validates the argument list; `result` is the value type. */
export const INVOKE_SCHEMAS = {
  'app:snapshot': none,
  'app:restart': none,
  'auth:start-login': one(z.strictObject({ scopes: z.array(z.enum(KICK_SCOPES)).min(1).optional() })),
  'auth:cancel-login': none,
  'auth:sign-out': none,
  'chat:history': none,
  'chat:send': one(
    z.strictObject({
      content: chatContent,
      as: z.enum(['user', 'bot']),
      replyToMessageId: z.string().min(1).max(64).optional(),
    }),
  ),
  'chat:delete': one(z.strictObject({ messageId: z.string().min(1).max(64) })),
  'chat:room-state': none,
  'mod:timeout': one(
    z.strictObject({
      userId,
      minutes: z
        .int()
        .min(LIMITS.banDurationMinutesMin)
        .max(LIMITS.banDurationMinutesMax, `minutes: must be between 1 and ${LIMITS.banDurationMinutesMax}`),
      reason: reason.optional(),
    }),
  ),
  'mod:ban': one(z.strictObject({ userId, reason: reason.optional() })),
  'mod:unban': one(z.strictObject({ userId })),
  'mod:log': none,
  'mod:user-card': one(z.strictObject({ userId })),
  'mod:undo-auto': one(z.strictObject({ actionId: z.string().min(1).max(40) })),
  'mod:set-note': one(
    z.strictObject({ userId, note: z.string().max(MOD_NOTE_MAX, `note: at most ${MOD_NOTE_MAX} characters`) }),
  ),
  'feed:history': none,
  'redemptions:list': one(z.strictObject({ status: z.enum(['pending', 'accepted', 'rejected']).optional() })),
  'redemptions:accept': one(z.strictObject({ ids: redemptionIds })),
  'redemptions:reject': one(z.strictObject({ ids: redemptionIds })),
  'rewards:list': none,
  'rewards:create': one(
    z.strictObject({
      ...rewardFields,
      description: rewardFields.description.optional(),
      backgroundColor: rewardFields.backgroundColor.optional(),
      isEnabled: z.boolean().optional(),
      isUserInputRequired: z.boolean().optional(),
      shouldRedemptionsSkipRequestQueue: z.boolean().optional(),
    }),
  ),
  'rewards:update': one(
    z.strictObject({
      id: z.string().min(1).max(64),
      patch: z.strictObject({ ...rewardFields, isPaused: z.boolean() }).partial(),
    }),
  ),
  'rewards:delete': one(z.strictObject({ id: z.string().min(1).max(64) })),
  'ads:status': none,
  'ads:enroll': none,
  'ads:run': one(
    z.strictObject({
      seconds: z
        .int()
        .min(LIMITS.adBreakSecondsMin)
        .max(
          LIMITS.adBreakSecondsMax,
          `seconds: must be between ${LIMITS.adBreakSecondsMin} and ${LIMITS.adBreakSecondsMax}`,
        ),
    }),
  ),
  'stream:info': none,
  'stream:update': one(
    z.strictObject({
      title: z.string().min(1).max(200).optional(),
      categoryId: z.int().min(1).optional(),
      tags: z
        .array(z.string().min(1).max(LIMITS.customTagLengthMax))
        .max(LIMITS.customTagsMax, `tags: at most ${LIMITS.customTagsMax}`)
        .optional(),
    }),
  ),
  'stream:search-categories': one(z.strictObject({ query: z.string().min(1).max(100) })),
  'kicks:leaderboard': one(
    z.strictObject({ top: z.int().min(LIMITS.leaderboardTopMin).max(LIMITS.leaderboardTopMax) }),
  ),
  'health:snapshot': none,
  'settings:get': none,
  'settings:update': one(
    z.strictObject({
      // Checked in the streamer's words ("The port must be between 1 and 65535"); main adds its own ports.
      redirectUri: z
        .string()
        .superRefine((value, ctx) => {
          const problem = redirectUriProblem(value);
          if (problem) {
            ctx.addIssue({ code: 'custom', message: problem });
          }
        })
        .optional(),
      tunnel: z.string().min(2).max(300).optional(),
      wantedEvents: z.array(z.enum(KICK_EVENT_TYPES)).max(KICK_EVENT_TYPES.length).optional(),
      scopes: z.array(z.enum(KICK_SCOPES)).max(KICK_SCOPES.length).optional(),
      notifications: z
        .strictObject({ follows: z.boolean(), subs: z.boolean(), kicks: z.boolean(), redemptions: z.boolean() })
        .partial()
        .optional(),
      chatScrollback: z.int().min(100).max(10_000).optional(),
      lateAfterSec: lateAfterSecSchema.optional(),
      setupGuideDone: z.boolean().optional(),
      overlays: overlaySettingsSchema.optional(),
      automod: automodSaveSchema.optional(),
      chatBot: chatBotSaveSchema.optional(),
      chatTools: chatToolsSettingsSchema.optional(),
      streamerMode: z.boolean().optional(),
      theme: z.enum(THEME_CHOICES).optional(),
      obsActions: obsActionsSaveSchema.optional(),
      liveSocket: liveSocketSaveSchema.optional(),
      history: historySettingsSchema.optional(),
    }),
  ),
  'settings:set-credentials': one(
    z.strictObject({ clientId: z.string().min(1).max(100), clientSecret: z.string().min(1).max(200) }),
  ),
  'stream:key': none,
  'overlays:info': none,
  'overlays:regenerate-key': none,
  'overlays:test-alert': one(z.strictObject({ kind: z.enum(ALERT_KINDS) })),
  'overlays:add-media': one(
    z.strictObject({
      fileName: z.string().min(1).max(200),
      // base64 of at most OVERLAY_MEDIA_MAX_BYTES bytes
      base64: z
        .string()
        .min(1)
        .max(Math.ceil(OVERLAY_MEDIA_MAX_BYTES / 3) * 4, `file: at most ${OVERLAY_MEDIA_MAX_BYTES / 1024 / 1024} MiB`),
      /** The picker it came from: an image is refused where a sound belongs, and the other way round. */
      slot: z.enum(['image', 'sound']).optional(),
    }),
  ),
  // The alert queue's controls (docs/overlays.md#controlling-the-alert-queue).
  'alerts:status': none,
  'alerts:pause': one(z.strictObject({ paused: z.boolean() })),
  /** `id`: the alert the streamer saw on screen, so a Skip pressed as it ends does not skip the next one. */
  'alerts:skip': one(z.strictObject({ id: z.string().min(1).max(200).optional() })),
  'alerts:clear': none,
  'alerts:replay': one(z.strictObject({ feedItemId: z.string().min(1).max(200) })),
  'alerts:dismiss-too-old': none,
  'automod:test': one(
    z.strictObject({
      content: z.string().min(1).max(LIMITS.chatContentMax),
      badges: z.array(z.string().min(1).max(40)).max(20),
    }),
  ),
  'sandbox:reset': none,
  // "Save diagnostics" (docs/logging.md): one file for a report, saved in the data folder and handed back.
  'diagnostics:save': none,
  // OBS over its websocket (docs/obs.md): main holds the connection and the password; the panel asks.
  'obs:status': none,
  'obs:save-connection': one(obsConnectionSaveSchema),
  'obs:set-scene': one(z.strictObject({ sceneName: obsName('sceneName') })),
  'obs:set-source-visible': one(
    z.strictObject({ sceneName: obsName('sceneName'), sceneItemId: z.int().min(0), enabled: z.boolean() }),
  ),
  'obs:output': one(z.strictObject({ output: z.enum(['stream', 'record']), action: z.enum(['start', 'stop']) })),
  'obs:setup-for-kick': one(
    z.strictObject({
      sceneName: obsName('sceneName'),
      overlays: z.array(z.string().min(1).max(40)).max(10),
    }),
  ),
  // The stream history (docs/history.md): a stream is known by Kick's start time in ms.
  'history:status': none,
  'history:streams': none,
  'history:recap': one(z.strictObject({ streamId })),
  'history:viewer': one(z.strictObject({ userId })),
  'history:search': one(
    z.strictObject({
      query: z
        .string()
        .trim()
        .min(1, 'query: type part of a name')
        .max(HISTORY_SEARCH_MAX, `query: must be at most ${HISTORY_SEARCH_MAX} characters`)
        .regex(/^\P{Cc}*$/u, 'query: letters, digits, spaces and symbols only, no control characters'),
    }),
  ),
  'history:export-recap': one(z.strictObject({ streamId, format: z.enum(['csv', 'json']) })),
  'history:export-viewer': one(z.strictObject({ userId, format: z.enum(['csv', 'json']) })),
} as const satisfies Record<InvokeChannel, z.ZodType>;

/** Result value of each request channel. */
export interface InvokeResults {
  'app:snapshot': AppSnapshot;
  'app:restart': null;
  'auth:start-login': AccountView;
  'auth:cancel-login': null;
  'auth:sign-out': { revoked: boolean };
  'chat:history': ChatMessageView[];
  'chat:send': KickChatSendResult;
  'chat:delete': null;
  /** The room's modes, pinned message and cleared-chat lines, from Kick's live socket (shared/room-state.ts). */
  'chat:room-state': RoomStateView;
  'mod:timeout': ModAction;
  'mod:ban': ModAction;
  'mod:unban': ModAction;
  'mod:log': ModAction[];
  'mod:user-card': UserCardView;
  'mod:set-note': UserCardView;
  'mod:undo-auto': ModAction[];
  'feed:history': FeedItem[];
  'redemptions:list': RedemptionGroupView[];
  'redemptions:accept': KickRedemptionFailure[];
  'redemptions:reject': KickRedemptionFailure[];
  'rewards:list': (KickReward & { canManage: boolean })[];
  'rewards:create': KickReward;
  'rewards:update': KickReward;
  'rewards:delete': null;
  'ads:status': KickAdBreakStatus;
  'ads:enroll': null;
  'ads:run': KickAdBreakCreated;
  'stream:info': ChannelView | null;
  'stream:update': ChannelView | null;
  'stream:search-categories': KickCategory[];
  'kicks:leaderboard': KickLeaderboard;
  'health:snapshot': HealthView;
  'settings:get': SettingsView;
  'settings:update': SettingsView;
  'settings:set-credentials': SettingsView;
  'stream:key': StreamKeyView;
  'overlays:info': OverlaysView;
  'overlays:regenerate-key': OverlaysView;
  'overlays:test-alert': null;
  'overlays:add-media': { name: string };
  'automod:test': AutomodVerdict | null;
  'alerts:status': AlertQueueView;
  'alerts:pause': AlertQueueView;
  'alerts:skip': AlertQueueView;
  'alerts:clear': AlertQueueView;
  'alerts:replay': AlertQueueView;
  'alerts:dismiss-too-old': AlertQueueView;
  /** The simulated channel back to its seeded start, signed out (sandbox mode only). */
  'sandbox:reset': null;
  'diagnostics:save': DiagnosticsView;
  'obs:status': ObsView;
  'obs:save-connection': ObsView;
  'obs:set-scene': null;
  'obs:set-source-visible': null;
  'obs:output': null;
  'obs:setup-for-kick': ObsSetupResult;
  'history:status': HistoryStatusView;
  /** Newest first. */
  'history:streams': HistoryStreamItem[];
  'history:recap': HistoryRecapView;
  /** Null for a viewer the history has never seen. */
  'history:viewer': HistoryViewerStoryView | null;
  'history:search': HistoryViewerHit[];
  'history:export-recap': HistoryExportView;
  /** One viewer's history for a ban appeal (docs/history.md#one-viewers-export). */
  'history:export-viewer': HistoryExportView;
}

export type InvokeArgs<C extends InvokeChannel> = z.infer<(typeof INVOKE_SCHEMAS)[C]>;
export type InvokeResult<C extends InvokeChannel> = Result<InvokeResults[C]>;

/** Fire-and-forget messages from the panel. */
export const SEND_SCHEMAS = {
  'app:open-external': one(z.strictObject({ url: z.url({ protocol: /^https?$/ }).max(2000) })),
  'window:pop-out-chat': none,
  'window:toggle-companion': none,
} as const satisfies Record<SendChannel, z.ZodType>;

export type SendArgs<C extends SendChannel> = z.infer<(typeof SEND_SCHEMAS)[C]>;

/** A Kick event as the panel receives it: the chat view for chat, a feed item for the rest. */
export type PanelKickEvent =
  | { kind: 'chat'; message: ChatMessageView }
  | { kind: 'feed'; item: FeedItem }
  | { kind: 'redemption'; item: FeedItem };

/** Events main pushes to the panel. */
export interface EventPayloads {
  'kick:event': PanelKickEvent;
  'chat:deleted': { messageId: string };
  /** A message auto-moderation removed, shown again by its Undo. */
  'chat:shown': { messageId: string };
  /**
   * A line shown in place of the one with its id: Kick's signed copy of a line the live socket told otherwise
   * (docs/design-notes.md#chat-from-the-live-socket-first).
   */
  'chat:replaced': { message: ChatMessageView };
  'mod:action': ModAction;
  'session:changed': AccountView;
  'health:changed': HealthView;
  'settings:changed': SettingsView;
  'app:restarted': AppRestartedView;
  /** The channel changed (went live or offline, a new title or category): read once by main for every panel. */
  'stream:changed': ChannelView | null;
  /** The alert queue changed (an alert started or ended, came in, was dropped; a control was used). */
  'alerts:changed': AlertQueueView;
  /**
   * A panel changed something Kick sends no event for (a reward created, edited or deleted; ads enrolled or a
   * break run): every panel showing it reads it again.
   */
  'views:changed': { view: ChangedView };
  /** OBS's connection, outputs, scenes or the stream-health warnings changed (docs/obs.md). */
  'obs:changed': ObsView;
  /** The room's modes, pinned message or cleared-chat lines changed (shared/room-state.ts). */
  'chat:room-changed': RoomStateView;
  /** The stream history changed: a stream started or ended, gained events, or the history's status changed. */
  'history:changed': HistoryChangedView;
}

/** The views a panel's own change makes stale in the other panels. */
export type ChangedView = 'rewards' | 'ads';

// The names live in ipc-channels.ts (plain lists the preload can carry without zod); re-exported here so
// everything else keeps importing the contract from one place.
export { EVENT_CHANNELS, IPC_PREFIX, isInvokeChannel, isSendChannel };
export type { EventChannel, InvokeChannel, SendChannel };
/** Every event channel has a payload type, and every payload type a channel. */
type EventPayloadsCoverChannels = [EventChannel] extends [keyof EventPayloads]
  ? [keyof EventPayloads] extends [EventChannel]
    ? true
    : never
  : never;
export const EVENT_PAYLOADS_MATCH: EventPayloadsCoverChannels = true;

/** Event types main forwards as feed items rather than chat. */
export type FeedEventType = Exclude<KickEventType, 'chat.message.sent'>;
