/**
 * What the panel sees: plain, serialisable views built in main. No tokens, no secrets, no client secret;
 * the account is a label, a user id and scopes.
 */
import type { ErrorCode } from './errors';
import type { OverlayKind, OverlaySettings } from './overlays';
import type { AutomodRule, AutomodSettings } from './automod';
import type { ChatBotSettings } from './chat-bot';
import type { ChatToolsSettings } from './chat-tools';
import type { ObsConnectionSettingsView } from './obs';
import type { ObsActionsSettings } from './obs-actions';
import type { ThemeChoice } from './themes';
import type { KickBadge, KickEmotePosition } from './kick/events';
import type { KickChannel, KickChannelStream, KickRedemption, KickRedemptionGroup } from './kick/resources';

export type AppMode = 'sandbox' | 'kick';

export interface AccountView {
  signedIn: boolean;
  /** The Kick username, when known. */
  accountLabel: string | null;
  userId: number | null;
  scopes: string[];
  /** Epoch ms the access token expires (it is refreshed before then). */
  expiresAtMs: number | null;
  /** Why the session ended, e.g. "sign in again: refresh token rejected". */
  signedOutReason: string | null;
  /**
   * Kick accepted this sign-in since Greenroom started (the account was read with it). False while signed in
   * from what was saved but not yet checked (Kick unreachable at start; it is checked again until Kick answers).
   * Absent from older mains: treat as checked.
   */
  confirmed?: boolean;
  /** A login is waiting for the browser. */
  signingIn: boolean;
  /**
   * While a login waits: the authorize link, shown with Copy and Open, since a panel in an OBS dock or a
   * browser cannot count on main opening a browser. Null otherwise.
   */
  signInUrl: string | null;
}

export interface ChatUserView {
  userId: number | null;
  username: string;
  color: string | null;
  badges: KickBadge[];
  isVerified: boolean;
}

/** One chat message as the panel renders it. */
export interface ChatMessageView {
  messageId: string;
  content: string;
  emotes: { emoteId: string; positions: KickEmotePosition[] }[];
  sender: ChatUserView;
  replyTo: { messageId: string; content: string; senderUsername: string } | null;
  /** Epoch ms (`created_at`, else the webhook timestamp). */
  sentAtMs: number;
  deleted: boolean;
  /** The chatter's first message in this channel as far back as Greenroom's journal reaches. */
  firstMessage?: boolean;
}

export type FeedKind =
  | 'follow'
  | 'subscription'
  | 'renewal'
  | 'gifted-subs'
  | 'kicks'
  | 'redemption'
  /** An incoming raid or host, from Kick's live socket (docs/overlays.md#raids). */
  | 'raid'
  | 'ban'
  | 'live-status'
  | 'metadata'
  /** A line Greenroom itself adds, such as what an OBS action did (docs/obs.md#obs-actions-on-events). */
  | 'app'
  | 'unknown';

/** One activity-feed entry (everything except chat). */
export interface FeedItem {
  id: string;
  kind: FeedKind;
  atMs: number;
  /** A one-line summary, e.g. "pixelpanda gifted 5 subs". */
  text: string;
  /** The user the entry is about, for the user card. */
  userId: number | null;
  username: string | null;
  /** The Kick event type it came from. */
  eventType: string;
  /** Redemption id and status for feed actions. */
  redemption?: {
    id: string;
    status: 'pending' | 'accepted' | 'rejected';
    rewardId: string;
    rewardTitle: string;
    userInput: string;
  };
  /** It reached Greenroom past the "late" age: recorded, but no bot reply, alert or OBS action (shared/late-events.ts). */
  late?: boolean;
  /** The digest of one episode of late deliveries: how many came late, and the first of them. */
  lateDigest?: { count: number; entries: { id: string; text: string; happenedAtMs: number }[] };
}

/**
 * A redemption as the queue shows it: Kick's listing names the redeemer by user id only, so main adds the
 * viewer's name (from the events it has seen, else Kick's users endpoint). Null when neither knows it.
 */
export type RedemptionView = KickRedemption & { redeemerName: string | null };

/** One reward's redemptions, as in Kick's listing, each with the redeemer's name. */
export interface RedemptionGroupView {
  reward: KickRedemptionGroup['reward'];
  redemptions: RedemptionView[];
}

/** `hide`: auto-moderation kept a message out of Greenroom only; `flag`: its dry run noted what it would do. */
export type ModActionKind = 'delete' | 'timeout' | 'ban' | 'unban' | 'hide' | 'flag' | 'show';

/** Why auto-moderation acted (docs/automod.md): the rule, in the streamer's words, and the message. */
export interface AutomodNote {
  rule: AutomodRule;
  reason: string;
  /** The message as sent, for the log (auto-moderation acted before anyone read it). */
  content: string;
  /** What a dry run would have done. */
  wouldDo?: 'hide' | 'delete' | 'timeout' | 'ban';
}

/** Greenroom's own moderation log: Kick sends no event for deletions. */
export interface ModAction {
  id: string;
  kind: ModActionKind;
  atMs: number;
  targetUserId: number | null;
  targetUsername: string | null;
  messageId?: string;
  minutes?: number;
  reason?: string;
  ok: boolean;
  /** Why it failed, as main knew it (technical: the panel shows it behind "Details"). */
  error?: string;
  /** The failure's code, so the panel can say it in the streamer's words. */
  errorCode?: ErrorCode;
  /** Set when auto-moderation took the action. */
  auto?: AutomodNote;
  /**
   * Set when a moderator took the action on Kick, not through Greenroom (a ban, timeout or unban seen on Kick's
   * live socket or in its ban webhook): who did it, when Kick named them.
   */
  elsewhere?: { moderator: string | null };
}

export interface UserCardView {
  userId: number;
  username: string;
  recentMessages: ChatMessageView[];
  actions: ModAction[];
  /** When they first chatted and how often, as far back as the journal reaches; null if never. */
  chatter: { firstSeenMs: number; messageCount: number } | null;
  /** The streamer's and moderators' private note on this chatter ('' when none). */
  note: string;
}

export type TunnelView =
  | { state: 'off' }
  | { state: 'connecting'; attempt: number }
  | { state: 'up'; url: string; reachable?: boolean; checkedAt?: number }
  | { state: 'down'; reason: string; retryInMs: number };

export interface SubscriptionView {
  type: string;
  /** `active`: Kick holds the subscription, which says nothing of whether an event ever came. */
  state: 'active' | 'missing' | 'error';
  error?: string;
  /** Epoch ms an event of this type last arrived since Greenroom started; null or absent when none has. */
  lastArrivalMs?: number | null;
}

export interface HealthView {
  mode: AppMode;
  tunnel: TunnelView;
  /** The URL to paste into Kick's dashboard, when the tunnel is up. */
  webhookUrl: string | null;
  subscriptions: SubscriptionView[];
  /** How late Kick's deliveries arrive, measured from each event's own time where its payload has one. */
  lag: {
    samples: number;
    p50Ms: number | null;
    p95Ms: number | null;
    state: 'normal' | 'delayed' | 'unknown';
    /** While `state` is 'delayed': how far behind events arrive now ("Kick is delaying events by N min"). */
    delayMs: number | null;
  };
  /**
   * The local webhook receiver: its port and the exact URL a streamer's own tunnel or reverse proxy must
   * forward to (null until it listens).
   */
  receiver: { port: number | null; url: string | null };
  /**
   * Deliveries kept, repeats recognised, requests refused, and `foreign`: signed deliveries for another
   * channel or a subscription Greenroom does not hold, answered and not acted on. `fromLiveSocket`: chat lines Kick's
   * live socket brought first and Greenroom kept, whose webhook then counts as a repeat (absent from older mains).
   */
  counters: { accepted: number; duplicates: number; rejected: number; foreign?: number; fromLiveSocket?: number };
  secretStore: { backend: string; degraded: boolean };
  /** Kick's live chat connection ([Settings](../docs/settings.md#kicks-live-chat-connection)); absent from older mains. */
  liveSocket?: LiveSocketHealthView;
  /** The stream history: whether it runs, and why not in the streamer's words (docs/history.md); absent from older mains. */
  history?: HistoryHealthView;
}

/**
 * The stream history in Health ([history](../docs/history.md#in-health)). The fields after `detail` are absent
 * from older mains.
 */
export interface HistoryHealthView {
  state: 'ready' | 'starting' | 'unavailable';
  message: string | null;
  detail: string | null;
  /** Why it does not run: this Node has no `node:sqlite`, or the store could not be opened. */
  unavailableBecause?: 'needs-newer-node' | 'could-not-open' | null;
  /** While starting: journal records the store reads through, and what arrived meanwhile (null before it knows). */
  catchingUp?: number | null;
  /** A damaged store this run moved aside and rebuilt from the journal: the file it was moved to. */
  movedAside?: string | null;
  /** The store on disk, its write-ahead log included; null while not open. */
  sizeBytes?: number | null;
  streams?: number | null;
  /** The oldest chat line kept (older ones went after the retention days); null for none. */
  oldestChatMs?: number | null;
  chatDays?: number;
}

/** Kick's live chat connection as Health shows it: plain words from `state`, the rest behind "Details". */
export interface LiveSocketHealthView {
  /**
   * `off` (switched off or signed out), `needs-ids` (Settings asks for the channel's ids), `connecting`,
   * `connected`, `waiting` (to reconnect at `retryAtMs`), `refused` (the server said no for good).
   */
  state: 'off' | 'needs-ids' | 'connecting' | 'connected' | 'waiting' | 'refused';
  provider: 'pusher' | 'centrifugo' | null;
  /** Whether discovery named the key, or the known key stood in. */
  keySource: 'discovered' | 'fallback' | null;
  channels: string[];
  connectedAtMs: number | null;
  /** Epoch ms the last frame of any kind arrived. */
  lastFrameAtMs: number | null;
  retryAtMs: number | null;
  lastClose: { code: number; reason: string } | null;
  /** Why it is not connected, in a line for the details. */
  problem: string | null;
  /** Events passed on, events not known, frames that could not be read, reconnects. */
  counters: { events: number; unknown: number; malformed: number; reconnects: number };
  /**
   * How far the signed webhooks trail the socket: webhook arrival minus socket arrival for the same chat line,
   * over the lines both brought this run ([design notes](../docs/design-notes.md#chat-from-the-live-socket-first)).
   * Absent from older mains. `awaiting`: chat lines the socket brought whose webhook has not come yet, the oldest
   * at `oldestAwaitedAtMs` (absent from older mains too).
   */
  webhookTrail?: {
    samples: number;
    p50Ms: number | null;
    p95Ms: number | null;
    awaiting?: number;
    oldestAwaitedAtMs?: number | null;
  };
}

export interface SettingsView {
  /** Kick's live chat connection: the switch and the channel's ids (null until known); absent from older mains. */
  liveSocket?: { enabled: boolean; channelId: number | null; chatroomId: number | null };
  clientId: string;
  hasClientSecret: boolean;
  redirectUri: string;
  tunnel: string;
  wantedEvents: string[];
  scopes: string[];
  dataDir: string;
  notifications: { follows: boolean; subs: boolean; kicks: boolean; redemptions: boolean };
  chatScrollback: number;
  /** Seconds after which an event is late (shared/late-events.ts); absent from older mains. */
  lateAfterSec?: number;
  emoteHost: string;
  /**
   * The embedded sandbox's admin API in sandbox mode (for `npm run sandbox -- trigger …` and other tools), and
   * the file holding its per-start token; null on Kick.
   */
  sandbox: { adminUrl: string; tokenFile: string } | null;
  /** The streamer finished or closed the setup guide; until then it opens by itself (first run). */
  setupGuideDone: boolean;
  /** Why saved settings are not in effect, with "Restart now" offered; null while they are. */
  notApplied: NotAppliedView | null;
  overlays: OverlaySettings;
  automod: AutomodSettings;
  chatBot: ChatBotSettings;
  chatTools: ChatToolsSettings;
  /** Never show the stream key, and keep the window out of screen captures where the system allows it. */
  streamerMode: boolean;
  /** The panel's colours (shared/themes.ts); absent from older mains, which only had the dark one. */
  theme?: ThemeChoice;
  /** Where OBS is, and whether a password is saved; never the password (docs/obs.md#connecting-to-obs). */
  obs: ObsConnectionSettingsView;
  /** What OBS does on Kick's events (docs/obs.md#obs-actions-on-events). */
  obsActions: ObsActionsSettings;
  /** The stream history: chat lines kept this many days (docs/history.md); absent from older mains. */
  history?: { chatDays: number };
}

/** The overlays as the panel manages them: each overlay's URL (key included) and how many are open now. */
export interface OverlaysView {
  /** Null while the panel server is not running (no URL to serve them from). */
  urls: Record<OverlayKind, string | null>;
  open: Record<OverlayKind, number>;
  /** Alerts queued behind the one playing (they wait for an alert overlay to be open). */
  alertsWaiting: number;
}

/** The stream key and server URL, sent only to the panel that asked for them (`stream:key`). */
export interface StreamKeyView {
  key: string;
  url: string;
}

/** Saved settings Greenroom could not switch to: what to tell the streamer, and the technical detail. */
export interface NotAppliedView {
  reason: string;
  details: string;
}

/** The app was rebuilt in place from new settings; open panels reload their snapshot. */
export interface AppRestartedView {
  /** What is now in effect, in the streamer's words (or why the new settings could not be used). */
  message: string;
}

/**
 * Something Greenroom had to do about its files at start that the streamer should know: a damaged settings
 * file moved aside, a blocked term left out, a link in the data folder not followed. The same line is
 * printed at start; the field paths are in `details`.
 */
export interface StartupNoticeView {
  text: string;
  details: string | null;
}

/** Everything the panel needs at start, in one round trip. */
export interface AppSnapshot {
  mode: AppMode;
  /** Shown plainly when running on the embedded sandbox. */
  sandboxNotice: string | null;
  broadcasterUserId: number | null;
  account: AccountView;
  health: HealthView;
  settings: SettingsView;
  /** The OBS dock URL (panel server), when it runs. */
  dockUrl: string | null;
  /** What went wrong with Greenroom's files at this start, each said once; absent or empty when nothing did. */
  notices?: StartupNoticeView[];
}

/**
 * The broadcaster's channel as the panel sees it: Kick's channel without the stream key. The key lets anyone
 * stream as the channel; the panel runs in OBS docks and on captured screens, so it never leaves main.
 * `stream.is_live` is main's one live status, the one the chat bot acts on
 * ([chat bot](../docs/chat-bot.md#live-status-comes-from-kick)).
 */
export type ChannelView = Omit<KickChannel, 'stream'> & {
  stream: Omit<KickChannelStream, 'key'>;
  /**
   * False once the streamer is signed out: main no longer follows the channel, so these are the figures as they
   * were at `asOfMs` (show them "as of HH:MM", or hide them), never the channel now. Absent or true: current.
   */
  signedIn?: boolean;
  /** Epoch ms the figures were last known true: Kick's answer, or a live-status event since. */
  asOfMs?: number;
};

/**
 * "Save diagnostics": the file a streamer attaches to a report, saved in the data folder at `path` (null when
 * the folder refused it, `notice` saying why) and handed back so the panel can also download it.
 */
export interface DiagnosticsView {
  fileName: string;
  mimeType: string;
  text: string;
  path: string | null;
  notice?: string;
}

/** Kick's channel with the stream key left out. */
export function toChannelView(channel: KickChannel): ChannelView {
  const { key: _key, ...stream } = channel.stream;
  return { ...channel, stream };
}
