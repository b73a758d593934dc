/**
 * Every Kick operation the client performs: method, path, which token it takes and which scopes it needs
 * ([reference §3.0](../../docs/kick-wire-reference.md#30-summary) and [§8](../../docs/kick-wire-reference.md#8-seed-operations-vs-the-real-api), [seed §4–5](../../docs/product-spec.md#4-endpoints)). The client checks scopes from this table before sending, so a
 * missing scope fails fast with MissingScope naming it.
 */
import type { KickScope } from '../../shared/kick/scopes';
import { WIRE_ASSUMPTIONS } from './wire-assumptions';

export type TokenRequirement =
  /** A user token is required. */
  | 'user'
  /** A user token when signed in with the scope, otherwise the app token. */
  | 'any'
  /** The app token (client credentials). */
  | 'app'
  /** No token at all. */
  | 'none';

/**
 * When a failed call may be sent again: `safe` for reads and idempotent writes, `keyed` only when the
 * request carries a client-generated idempotency key, `never` for writes that could act twice.
 */
export type RetryPolicy = 'safe' | 'keyed' | 'never';

export interface OperationSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  host: 'api' | 'auth';
  token: TokenRequirement;
  /** With a user token, at least one of these must be granted (empty: none needed). */
  scopes: readonly KickScope[];
  retry: RetryPolicy;
}

const op = (
  method: OperationSpec['method'],
  path: string,
  token: TokenRequirement,
  scopes: readonly KickScope[],
  retry: RetryPolicy = method === 'GET' || method === 'DELETE' || method === 'PATCH' ? 'safe' : 'never',
): OperationSpec => ({ method, path, host: 'api', token, scopes, retry });

export const OPERATIONS = {
  fetchUser: op('GET', '/public/v1/users', 'user', ['user:read']),
  fetchChannel: op('GET', '/public/v1/channels', 'any', ['channel:read']),
  updateChannel: op('PATCH', '/public/v1/channels', 'user', ['channel:write']),
  fetchLivestreamsV2: op('GET', '/public/v2/livestreams', 'any', []),
  fetchUserLivestreams: op('GET', '/public/v1/users/livestreams', 'any', []),
  fetchLivestreamStats: op('GET', '/public/v1/livestreams/stats', 'any', []),
  fetchLivestream: op('GET', '/public/v1/livestreams', 'any', []),
  fetchLivestreams: op('GET', '/public/v1/livestreams', 'any', []),
  fetchCategories: op('GET', '/public/v2/categories', 'any', []),
  sendChatMessage: op('POST', '/public/v1/chat', 'user', ['chat:write']),
  deleteChatMessage: op('DELETE', '/public/v1/chat/{message_id}', 'user', ['moderation:chat_message:manage']),
  banUser: op('POST', '/public/v1/moderation/bans', 'user', ['moderation:ban']),
  unbanUser: op('DELETE', '/public/v1/moderation/bans', 'user', ['moderation:ban']),
  fetchChannelRewards: op('GET', '/public/v1/channels/rewards', 'user', [
    'channel:rewards:read',
    'channel:rewards:write',
  ]),
  createChannelReward: op('POST', '/public/v1/channels/rewards', 'user', ['channel:rewards:write']),
  updateChannelReward: op('PATCH', '/public/v1/channels/rewards/{reward_id}', 'user', ['channel:rewards:write']),
  deleteChannelReward: op('DELETE', '/public/v1/channels/rewards/{reward_id}', 'user', ['channel:rewards:write']),
  fetchRewardRedemptions: op('GET', '/public/v1/channels/rewards/redemptions', 'user', [
    'channel:rewards:read',
    'channel:rewards:write',
  ]),
  acceptRewardRedemptions: op('POST', '/public/v1/channels/rewards/redemptions/accept', 'user', [
    'channel:rewards:write',
  ]),
  rejectRewardRedemptions: op('POST', '/public/v1/channels/rewards/redemptions/reject', 'user', [
    'channel:rewards:write',
  ]),
  fetchKicksLeaderboard: op('GET', '/public/v1/kicks/leaderboard', 'user', ['kicks:read']),
  fetchAdBreakStatus: op('GET', WIRE_ASSUMPTIONS.ads.statusPath, 'user', ['ads:read', 'ads:write']),
  createAdBreak: op('POST', WIRE_ASSUMPTIONS.ads.createPath, 'user', ['ads:write'], 'keyed'),
  enrollInAds: op('POST', WIRE_ASSUMPTIONS.ads.enrollPath, 'user', ['ads:write']),
  fetchEventsSubscriptions: op('GET', '/public/v1/events/subscriptions', 'any', ['events:subscribe']),
  subscribeToEvent: op('POST', '/public/v1/events/subscriptions', 'any', ['events:subscribe']),
  unsubscribeFromEvent: op('DELETE', '/public/v1/events/subscriptions', 'any', ['events:subscribe']),
  fetchPublicKey: op('GET', '/public/v1/public-key', 'none', []),
  introspect: {
    method: 'POST',
    path: WIRE_ASSUMPTIONS.introspect.path,
    host: 'auth',
    token: 'any',
    scopes: [],
    retry: 'safe',
  },
} as const satisfies Record<string, OperationSpec>;

export type OperationName = keyof typeof OPERATIONS;

/** Fills `{param}` placeholders, encoding each value as one path segment. */
export function fillPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) {
      throw new Error(`path parameter ${key} missing for ${path}`);
    }
    return encodeURIComponent(value);
  });
}
