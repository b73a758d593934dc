/** Views as main would send them, for renderer tests. Every builder takes overrides. */
import { DEFAULT_OVERLAY_SETTINGS } from '../../../shared/overlays';
import { DEFAULT_CHAT_TOOLS_SETTINGS } from '../../../shared/chat-tools';
import { DEFAULT_AUTOMOD_SETTINGS } from '../../../shared/automod';
import { DEFAULT_CHAT_BOT_SETTINGS } from '../../../shared/chat-bot';
import { DEFAULT_OBS_ACTIONS } from '../../../shared/obs-actions';
import type { KickAdBreakStatus, KickChannel, KickRedemptionGroup, KickReward } from '../../../shared/kick/resources';
import type {
  AccountView,
  AppSnapshot,
  ChatMessageView,
  FeedItem,
  HealthView,
  ModAction,
  RedemptionGroupView,
  SettingsView,
} from '../../../shared/views';

let seq = 0;

export const ALL_SCOPES = [
  'user:read',
  'channel:read',
  'channel:write',
  'channel:rewards:read',
  'channel:rewards:write',
  'chat:write',
  'events:subscribe',
  'moderation:ban',
  'moderation:chat_message:manage',
  'kicks:read',
  'ads:read',
  'ads:write',
];

export function account(over: Partial<AccountView> = {}): AccountView {
  return {
    signedIn: true,
    accountLabel: 'streamerbob',
    userId: 1,
    scopes: ALL_SCOPES,
    expiresAtMs: Date.now() + 3_600_000,
    signedOutReason: null,
    signingIn: false,
    signInUrl: null,
    ...over,
  };
}

export function message(
  over: Partial<ChatMessageView> & { username?: string; userId?: number | null } = {},
): ChatMessageView {
  seq++;
  const { username = `viewer${seq}`, userId = 1000 + seq, ...rest } = over;
  return {
    messageId: `m-${seq}`,
    content: `hello ${seq}`,
    emotes: [],
    sender: { userId, username, color: '#44aaff', badges: [], isVerified: false },
    replyTo: null,
    sentAtMs: 1_700_000_000_000 + seq * 1000,
    deleted: false,
    ...rest,
  };
}

export function feedItem(over: Partial<FeedItem> = {}): FeedItem {
  seq++;
  return {
    id: `f-${seq}`,
    kind: 'follow',
    atMs: 1_700_000_000_000 + seq * 1000,
    text: `fan${seq} followed`,
    userId: 2000 + seq,
    username: `fan${seq}`,
    eventType: 'channel.followed',
    ...over,
  };
}

export function modAction(over: Partial<ModAction> = {}): ModAction {
  seq++;
  return {
    id: `a-${seq}`,
    kind: 'timeout',
    atMs: 1_700_000_000_000 + seq * 1000,
    targetUserId: 1001,
    targetUsername: 'viewer1',
    ok: true,
    ...over,
  };
}

export function health(over: Partial<HealthView> = {}): HealthView {
  return {
    mode: 'sandbox',
    tunnel: { state: 'up', url: 'https://gr-abc.loca.lt', reachable: true },
    webhookUrl: 'https://gr-abc.loca.lt/kick/webhook',
    subscriptions: [
      { type: 'chat.message.sent', state: 'active' },
      { type: 'channel.followed', state: 'missing' },
      { type: 'kicks.gifted', state: 'error', error: 'Kick said no' },
    ],
    lag: { samples: 12, p50Ms: 180, p95Ms: 900, state: 'normal', delayMs: null },
    receiver: { port: 7532, url: 'http://127.0.0.1:7532/kick/webhook' },
    counters: { accepted: 40, duplicates: 2, rejected: 1 },
    secretStore: { backend: 'safeStorage', degraded: false },
    ...over,
  };
}

export function settings(over: Partial<SettingsView> = {}): SettingsView {
  return {
    clientId: 'client-123',
    hasClientSecret: true,
    redirectUri: 'http://127.0.0.1:53682/callback',
    tunnel: 'localtunnel',
    wantedEvents: [],
    scopes: ALL_SCOPES,
    dataDir: '/tmp/greenroom',
    notifications: { follows: true, subs: true, kicks: true, redemptions: false },
    chatScrollback: 1000,
    emoteHost: 'http://127.0.0.1:9999',
    sandbox: null,
    setupGuideDone: true,
    notApplied: null,
    overlays: structuredClone(DEFAULT_OVERLAY_SETTINGS),
    streamerMode: false,
    obs: { enabled: false, host: '127.0.0.1', port: 4455, hasPassword: false },
    automod: structuredClone(DEFAULT_AUTOMOD_SETTINGS),
    chatBot: structuredClone(DEFAULT_CHAT_BOT_SETTINGS),
    chatTools: structuredClone(DEFAULT_CHAT_TOOLS_SETTINGS),
    obsActions: structuredClone(DEFAULT_OBS_ACTIONS),
    ...over,
  };
}

export function snapshot(over: Partial<AppSnapshot> = {}): AppSnapshot {
  return {
    mode: 'sandbox',
    sandboxNotice: 'Running on the built-in Kick sandbox: nothing reaches kick.com.',
    broadcasterUserId: 1,
    account: account(),
    health: health(),
    settings: settings(),
    dockUrl: 'http://127.0.0.1:4470/?token=abc',
    ...over,
  };
}

export function reward(over: Partial<KickReward> = {}): KickReward & { canManage: boolean } {
  seq++;
  return {
    id: `r-${seq}`,
    title: `Reward ${seq}`,
    description: 'Does a thing',
    cost: 100,
    background_color: '#00e701',
    is_enabled: true,
    is_paused: false,
    is_user_input_required: false,
    should_redemptions_skip_request_queue: false,
    canManage: true,
    ...over,
  };
}

/** One reward's pending redemptions, as main lists them: redeemer `500 + i` named `redeemer<500 + i>`. */
export function redemptionGroup(
  rewardOver: Partial<KickRedemptionGroup['reward']>,
  ids: string[],
  names: (string | null)[] = [],
): RedemptionGroupView {
  seq++;
  return {
    reward: {
      id: `rw-${seq}`,
      title: `Hydrate ${seq}`,
      description: '',
      cost: 50,
      can_manage: true,
      is_deleted: false,
      ...rewardOver,
    },
    redemptions: ids.map((id, i) => ({
      id,
      redeemed_at: '2025-01-01T00:00:00Z',
      redeemer: { user_id: 500 + i },
      status: 'pending' as const,
      user_input: `input ${id}`,
      redeemerName: names[i] === undefined ? `redeemer${500 + i}` : names[i]!,
    })),
  };
}

export function adStatus(over: Partial<KickAdBreakStatus> = {}): KickAdBreakStatus {
  return {
    opted_in: true,
    ads_blocked: false,
    remaining_ad_breaks: 3,
    ad_breaks: [],
    limits: { max: 4, period_seconds: 3600 },
    ...over,
  };
}

export function channel(over: Partial<KickChannel> = {}): KickChannel {
  return {
    broadcaster_user_id: 1,
    slug: 'streamerbob',
    channel_description: '',
    banner_picture: '',
    stream_title: 'Old title',
    category: { id: 1, name: 'Just Chatting', thumbnail: '' },
    stream: {
      is_live: true,
      is_mature: false,
      language: 'en',
      viewer_count: 321,
      start_time: '2025-01-01T00:00:00Z',
      thumbnail: '',
      custom_tags: ['chill'],
      url: '',
      key: '',
    },
    active_subscribers_count: 0,
    canceled_subscribers_count: 0,
    ...over,
  };
}
