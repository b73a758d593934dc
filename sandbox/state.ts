/**
 * The sandbox's world: apps, users, channels, tokens and everything the API reads and changes. Plain data
 * in maps, owned by one `SandboxState` per sandbox instance (never a module singleton), so tests can run
 * several sandboxes side by side. The records' shapes are in `records.ts`.
 */
import type { Clock } from '../electron/core/clock';
import { Listeners } from '../shared/listeners';
import type { LiveFrame } from './live-socket/frames';
import { TokenMap } from './token-map';
import type {
  SandboxAccessToken,
  SandboxAdsState,
  SandboxApp,
  SandboxAuthCode,
  SandboxBan,
  SandboxCategory,
  SandboxChannel,
  SandboxChatMessage,
  SandboxEvent,
  SandboxKicksGift,
  SandboxRedemption,
  SandboxRefreshToken,
  SandboxReward,
  SandboxSubscription,
  SandboxUser,
  TokenLifetimes,
} from './records';

export type * from './records';

export type SandboxEventListener = (event: SandboxEvent) => void;

/**
 * Chat messages by id, which can also be walked newest first without copying them all: the generators ask
 * for a channel's last few lines on every triggered message, and a raid stores tens of thousands.
 */
export class ChatMessages extends Map<string, SandboxChatMessage> {
  /** Ids in the order they were first stored (a message replaced under its id keeps its place). */
  #ids: string[] = [];

  override set(id: string, message: SandboxChatMessage): this {
    if (!this.has(id)) {
      this.#ids.push(id);
    }
    return super.set(id, message);
  }

  override delete(id: string): boolean {
    const had = super.delete(id);
    if (had) {
      this.#ids.splice(this.#ids.lastIndexOf(id), 1);
    }
    return had;
  }

  override clear(): void {
    super.clear();
    this.#ids = [];
  }

  /** The messages, newest first. */
  *newestFirst(): Generator<SandboxChatMessage> {
    for (let i = this.#ids.length - 1; i >= 0; i--) {
      yield this.get(this.#ids[i]!)!;
    }
  }

  /** The last `limit` messages that `keep` accepts, oldest first; reads back no further than it needs. */
  latest(limit: number, keep: (message: SandboxChatMessage) => boolean): SandboxChatMessage[] {
    const found: SandboxChatMessage[] = [];
    if (limit <= 0) {
      return found;
    }
    for (const message of this.newestFirst()) {
      if (keep(message) && found.push(message) >= limit) {
        break;
      }
    }
    return found.reverse();
  }
}

export class SandboxState {
  readonly clock: Clock;
  readonly lifetimes: TokenLifetimes;
  readonly apps = new Map<string, SandboxApp>();
  readonly users = new Map<number, SandboxUser>();
  readonly channels = new Map<number, SandboxChannel>();
  readonly categories = new Map<number, SandboxCategory>();
  readonly chatMessages = new ChatMessages();
  /** Keyed by `${broadcasterUserId}:${userId}`. */
  readonly bans = new Map<string, SandboxBan>();
  readonly rewards = new Map<string, SandboxReward>();
  readonly redemptions = new Map<string, SandboxRedemption>();
  readonly kicksGifts: SandboxKicksGift[] = [];
  readonly ads = new Map<number, SandboxAdsState>();
  readonly subscriptions = new Map<string, SandboxSubscription>();
  /** Keyed by the token's digest; looked up by the token itself (token-map.ts). */
  readonly accessTokens = new TokenMap<SandboxAccessToken>();
  readonly refreshTokens = new TokenMap<SandboxRefreshToken>();
  readonly authCodes = new Map<string, SandboxAuthCode>();
  /**
   * A refresh token's digest → the digests of the access tokens issued with it or minted by it, so revoking
   * it revokes them too, before and after a restart (oauth/grant-ledger.ts, persist.ts).
   */
  readonly grantLinks = new Map<string, Set<string>>();
  /** Follows, for realistic follower events: `${broadcaster}:${follower}`. */
  readonly follows = new Set<string>();
  readonly #listeners = new Listeners<[SandboxEvent]>();
  readonly #liveListeners = new Listeners<[LiveFrame]>();
  #lastSupportAtMs = -Infinity;
  /**
   * Extra hold-back on every webhook delivery: Kick's queue running behind. The live socket is never held
   * ([docs](../docs/sandbox.md#kicks-live-socket-in-the-sandbox)).
   */
  webhookQueueDelayMs = 0;

  constructor(clock: Clock, lifetimes: TokenLifetimes) {
    this.clock = clock;
    this.lifetimes = lifetimes;
  }

  now(): number {
    return this.clock.now();
  }

  /**
   * The time of a subscription, a gift of subs or a gift of KICKs: now, or a millisecond after the last one.
   * These carry no id, only their time, so a burst the sandbox makes in one millisecond would otherwise send
   * byte-identical bodies when the same viewer gives the same gift twice, and a client that drops a body it saw
   * seconds ago (Kick sometimes delivers one event twice) would rightly drop the second
   * ([docs](../docs/sandbox.md#subs-gifted-subs-and-kicks-one-millisecond-each)).
   */
  supportAtMs(): number {
    this.#lastSupportAtMs = Math.max(this.now(), this.#lastSupportAtMs + 1);
    return this.#lastSupportAtMs;
  }

  /** Announces a state change; the delivery engine fans it out to subscribed apps. */
  emit(event: SandboxEvent): void {
    this.#listeners.emit(event);
  }

  onEvent(listener: SandboxEventListener): () => void {
    return this.#listeners.add(listener);
  }

  /** Announces what only Kick's live socket says (a deleted message, an unban, a host). */
  emitLive(frame: LiveFrame): void {
    this.#liveListeners.emit(frame);
  }

  onLiveFrame(listener: (frame: LiveFrame) => void): () => void {
    return this.#liveListeners.add(listener);
  }

  appByClientId(clientId: string): SandboxApp | undefined {
    return this.apps.get(clientId);
  }

  user(userId: number): SandboxUser | undefined {
    return this.users.get(userId);
  }

  userByName(username: string): SandboxUser | undefined {
    const lower = username.toLowerCase();
    for (const user of this.users.values()) {
      if (user.username.toLowerCase() === lower) {
        return user;
      }
    }
    return undefined;
  }

  channelBySlug(slug: string): SandboxChannel | undefined {
    const lower = slug.toLowerCase();
    for (const channel of this.channels.values()) {
      if (channel.slug.toLowerCase() === lower) {
        return channel;
      }
    }
    return undefined;
  }

  /** The active ban or timeout of a user in a channel; expired timeouts are dropped on read. */
  activeBan(broadcasterUserId: number, userId: number): SandboxBan | undefined {
    const key = `${broadcasterUserId}:${userId}`;
    const ban = this.bans.get(key);
    if (ban && ban.expiresAtMs !== null && ban.expiresAtMs <= this.now()) {
      this.bans.delete(key);
      return undefined;
    }
    return ban;
  }

  adsFor(broadcasterUserId: number): SandboxAdsState {
    let ads = this.ads.get(broadcasterUserId);
    if (!ads) {
      ads = { optedIn: false, adsBlocked: false, limitMax: 3, limitPeriodSeconds: 3600, breaks: [] };
      this.ads.set(broadcasterUserId, ads);
    }
    return ads;
  }
}
