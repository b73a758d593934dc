/**
 * What moderation (moderation.ts) is built from: the Kick client's moderation calls, chat, the clock, where
 * the mod log goes, and the user card's sources.
 */
import type { ModAction } from '../../shared/views';
import type { Clock } from '../core/clock';
import type { KickClient } from '../kick/kick-client';
import type { ChatHistory } from './chat-history';
import type { Chatters } from './chatters';
import type { ModLogStore } from './mod-log-file';

/** The Kick client operations moderation uses. */
export type ModerationClient = Pick<KickClient, 'banUser' | 'unbanUser' | 'deleteChatMessage' | 'fetchUser'>;

/** Actions kept in the mod log. */
export const DEFAULT_MOD_LOG_SIZE = 500;

/** What moderation is built from. */
export interface ModerationDeps {
  client: ModerationClient;
  /** The broadcaster whose channel is moderated (the signed-in user); rejects when signed out. */
  broadcasterUserId: () => Promise<number>;
  chat: ChatHistory;
  clock: Clock;
  /** Every recorded action, done or failed. */
  onAction: (action: ModAction) => void;
  /** A message deleted through Greenroom. */
  onDeleted: (messageId: string) => void;
  /** A message auto-moderation removed, shown again by its Undo. */
  onShown?: (messageId: string) => void;
  log: (line: string) => void;
  logSize?: number;
  /** Where the log is kept across restarts; in memory only without one. */
  store?: ModLogStore;
  /** First seen and message count for the user card (electron/services/chatters.ts). */
  chatters?: Pick<Chatters, 'stats'>;
  /** The private mod notes, kept in the settings (docs/chat-tools.md). */
  notes?: ModNotes;
}

/** Private notes on chatters, by user id. */
export interface ModNotes {
  get(userId: number): string;
  /** An empty note removes it; throws an AppError naming the limit for one too long. */
  set(userId: number, note: string): void;
}

export interface Target {
  userId: number | null;
  username: string | null;
}
