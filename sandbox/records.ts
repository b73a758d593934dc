/**
 * The records the sandbox's world (`state.ts`) keeps: apps, users, channels, chat, bans, rewards and
 * redemptions, KICKs, ads, event subscriptions, tokens and codes, and the events Kick would announce by
 * webhook. Plain data; the API routes read and change them through `SandboxState`.
 */
import type { KickBadge } from '../shared/kick/events';
import type { KickRedemptionStatus } from '../shared/kick/resources';

export interface SandboxApp {
  /** ULID, reported as `app_id` on subscriptions. */
  appId: string;
  clientId: string;
  clientSecret: string;
  name: string;
  /** Redirect URIs registered in the developer dashboard; authorize and token require an exact match. */
  redirectUris: string[];
  /** The one webhook URL per app (Kick has no per-subscription URL); null until set. */
  webhookUrl: string | null;
  webhooksEnabled: boolean;
  /** The account that posts `type: "bot"` chat messages for this app. */
  botUserId: number;
}

export interface SandboxUser {
  userId: number;
  username: string;
  email: string;
  profilePicture: string;
  isVerified: boolean;
  usernameColor: string;
  /** Badges shown on this user's chat messages, per channel (broadcaster id → badges). */
  badges: Map<number, KickBadge[]>;
}

export interface SandboxChannel {
  broadcasterUserId: number;
  slug: string;
  description: string;
  bannerPicture: string;
  streamTitle: string;
  /** 0 when no category is set (Kick answers `{id: 0, name: "", thumbnail: ""}`). */
  categoryId: number;
  customTags: string[];
  language: string;
  isMature: boolean;
  isLive: boolean;
  viewerCount: number;
  /** UUID of the current livestream (v2 `id`), null when offline. */
  livestreamId: string | null;
  startedAtMs: number | null;
  endedAtMs: number | null;
  /** Whether this channel ever went live; enroll_in_ads requires it. */
  hasStreamed: boolean;
  thumbnail: string;
  streamUrl: string;
  streamKey: string;
  activeSubscribers: number;
  canceledSubscribers: number;
}

export interface SandboxCategory {
  id: number;
  name: string;
  tags: string[];
  thumbnail: string;
  viewerCount: number;
}

export interface SandboxChatMessage {
  messageId: string;
  broadcasterUserId: number;
  senderUserId: number;
  content: string;
  type: 'user' | 'bot' | 'viewer';
  replyToMessageId: string | null;
  createdAtMs: number;
  deleted: boolean;
}

export interface SandboxBan {
  broadcasterUserId: number;
  userId: number;
  moderatorUserId: number;
  reason: string;
  createdAtMs: number;
  /** Null for a permanent ban. */
  expiresAtMs: number | null;
}

export interface SandboxReward {
  id: string;
  broadcasterUserId: number;
  /** Only this app may update or delete the reward. */
  createdByClientId: string;
  title: string;
  description: string;
  cost: number;
  backgroundColor: string;
  isEnabled: boolean;
  isPaused: boolean;
  isUserInputRequired: boolean;
  shouldRedemptionsSkipRequestQueue: boolean;
  deleted: boolean;
  createdAtMs: number;
}

export interface SandboxRedemption {
  id: string;
  rewardId: string;
  broadcasterUserId: number;
  redeemerUserId: number;
  userInput: string;
  status: KickRedemptionStatus;
  redeemedAtMs: number;
}

export interface SandboxKicksGift {
  broadcasterUserId: number;
  senderUserId: number;
  amount: number;
  createdAtMs: number;
}

export interface SandboxAdBreak {
  id: string;
  breakDurationSeconds: number;
  createdAtMs: number;
  source: string;
}

export interface SandboxAdsState {
  optedIn: boolean;
  adsBlocked: boolean;
  limitMax: number;
  limitPeriodSeconds: number;
  breaks: SandboxAdBreak[];
}

export interface SandboxSubscription {
  id: string;
  appId: string;
  clientId: string;
  broadcasterUserId: number;
  event: string;
  version: number;
  createdAtMs: number;
  updatedAtMs: number;
}

export interface SandboxAccessToken {
  token: string;
  kind: 'app' | 'user';
  clientId: string;
  /** Null for app tokens. */
  userId: number | null;
  scopes: string[];
  expiresAtMs: number;
  revoked: boolean;
}

export interface SandboxRefreshToken {
  token: string;
  clientId: string;
  userId: number;
  scopes: string[];
  revoked: boolean;
}

export interface SandboxAuthCode {
  code: string;
  clientId: string;
  userId: number;
  redirectUri: string;
  scopes: string[];
  codeChallenge: string;
  codeChallengeMethod: string;
  expiresAtMs: number;
  used: boolean;
}

export interface TokenLifetimes {
  /** Seconds an access token (app or user) lives. */
  accessSeconds: number;
  /** Seconds an authorization code may wait before it is exchanged. */
  codeSeconds: number;
}

/** A state change that Kick would announce by webhook; the delivery engine subscribes to these. */
export interface SandboxEvent {
  type: string;
  version: number;
  broadcasterUserId: number;
  payload: unknown;
  /** Delivery faults to inject for this event (triggers use these; real actions leave it undefined). */
  delivery?: DeliveryFaults;
  /** Unknown fields Kick's live socket adds to this event's frame (the unknown-fields trigger); never signed. */
  liveExtras?: { envelope?: Record<string, unknown>; data?: Record<string, unknown> };
}

/** Kick's at-least-once delivery misbehaviours, on demand. */
export interface DeliveryFaults {
  /** Send the same delivery (same message id) this many extra times. */
  duplicates?: number;
  /** Resend the same payload under a fresh message id, as Kick has been seen to do. */
  resendWithNewId?: boolean;
  /**
   * Hold the delivery back this many seconds, as Kick's queue does at busy times. Every attempt is stamped
   * with its own send time (`Kick-Event-Message-Timestamp`), so only the payload's `created_at` shows the lag.
   */
  delaySeconds?: number;
}
