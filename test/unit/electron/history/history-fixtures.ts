/**
 * Shared by the history tests: `node:sqlite` (absent on Node 20, where these tests skip with one line), journal
 * records built the way Kick's payloads look, a fake clock and a journal in memory.
 */
import { describe } from 'vitest';
import { loadSqlite, SQLITE_MISSING } from '../../../../electron/history/sqlite-driver';
import type { Clock } from '../../../../electron/core/clock';
import type { JournalRecord } from '../../../../electron/webhooks/events/types';

export const driver = loadSqlite();

/** `describe` where `node:sqlite` exists; elsewhere one line says why the group is skipped. */
export function describeSqlite(name: string, body: () => void): void {
  if (!driver) {
    console.info(`${name}: ${SQLITE_MISSING}; this runs in the Node 24 pass`);
  }
  describe.skipIf(!driver)(name, body);
}

/** 2026-03-01T18:00:00Z, the first test stream's start. */
export const T0 = Date.UTC(2026, 2, 1, 18, 0, 0);
export const MIN = 60_000;
export const DAY = 24 * 60 * MIN;

export function fakeClock(startMs = T0): Clock & { set(ms: number): void } {
  let now = startMs;
  return { now: () => now, set: (ms) => (now = ms) };
}

const iso = (ms: number): string => new Date(ms).toISOString();

export function user(id: number, name = `viewer_${id}`) {
  return {
    is_anonymous: false,
    user_id: id,
    username: name,
    is_verified: false,
    profile_picture: null,
    channel_slug: name,
  };
}

const compact = (id: number, name = `viewer_${id}`) => ({
  user_id: id,
  username: name,
  is_verified: false,
  profile_picture: null,
  channel_slug: name,
});

const BROADCASTER = user(1, 'streamer');
let seq = 0;

/** A journal record as the receiver writes it; `messageId` defaults to a fresh one. */
export function record(type: string, payload: unknown, atMs: number, messageId = `msg-${++seq}`): JournalRecord {
  return {
    messageId,
    subscriptionId: 'sub-1',
    type,
    version: '1',
    timestamp: iso(atMs).replace(/\.\d{3}Z$/, 'Z'),
    receivedAtMs: atMs + 200,
    bodyHash: `hash-${messageId}`,
    body: JSON.stringify(payload),
  };
}

export const events = {
  chat: (id: string, userId: number, atMs: number, content = `hello ${id}`, name?: string) =>
    record(
      'chat.message.sent',
      {
        message_id: id,
        broadcaster: BROADCASTER,
        sender: user(userId, name),
        content,
        emotes: null,
        created_at: iso(atMs),
      },
      atMs,
    ),
  follow: (userId: number, atMs: number) =>
    record('channel.followed', { broadcaster: BROADCASTER, follower: user(userId) }, atMs),
  sub: (userId: number, months: number, atMs: number, type = 'channel.subscription.new') =>
    record(type, { broadcaster: BROADCASTER, subscriber: user(userId), duration: months, created_at: iso(atMs) }, atMs),
  gifts: (gifterId: number | null, giftees: number[], atMs: number) =>
    record(
      'channel.subscription.gifts',
      {
        broadcaster: BROADCASTER,
        gifter:
          gifterId === null
            ? {
                is_anonymous: true,
                user_id: null,
                username: null,
                is_verified: null,
                profile_picture: null,
                channel_slug: null,
              }
            : user(gifterId),
        giftees: giftees.map((id) => user(id)),
        created_at: iso(atMs),
      },
      atMs,
    ),
  kicks: (userId: number, amount: number, atMs: number) =>
    record(
      'kicks.gifted',
      {
        broadcaster: compact(1, 'streamer'),
        sender: compact(userId),
        gift: { amount, name: 'Rage Quit', type: 'LEVEL_UP', tier: 'MID', message: 'gg' },
        created_at: iso(atMs),
      },
      atMs,
    ),
  redemption: (id: string, userId: number, status: 'pending' | 'accepted', atMs: number) =>
    record(
      'channel.reward.redemption.updated',
      {
        id,
        user_input: '',
        status,
        redeemed_at: iso(atMs),
        reward: { id: 'r1', title: 'Hydrate', cost: 100, description: '' },
        redeemer: compact(userId),
        broadcaster: compact(1, 'streamer'),
      },
      atMs,
    ),
  ban: (userId: number, atMs: number) =>
    record(
      'moderation.banned',
      {
        broadcaster: BROADCASTER,
        moderator: user(2, 'mod'),
        banned_user: user(userId),
        metadata: { reason: 'spam', created_at: iso(atMs), expires_at: null },
      },
      atMs,
    ),
  live: (startedAtMs: number, atMs = startedAtMs, title = 'Morning stream') =>
    record(
      'livestream.status.updated',
      { broadcaster: BROADCASTER, is_live: true, title, started_at: iso(startedAtMs), ended_at: null },
      atMs,
    ),
  offline: (startedAtMs: number, endedAtMs: number) =>
    record(
      'livestream.status.updated',
      {
        broadcaster: BROADCASTER,
        is_live: false,
        title: 'Morning stream',
        started_at: iso(startedAtMs),
        ended_at: iso(endedAtMs),
      },
      endedAtMs,
    ),
  metadata: (title: string, category: string, atMs: number) =>
    record(
      'livestream.metadata.updated',
      {
        broadcaster: BROADCASTER,
        metadata: {
          title,
          language: 'en',
          has_mature_content: false,
          category: { id: 7, name: category, thumbnail: '' },
        },
      },
      atMs,
    ),
};

/** The same chat line as the live socket journals it (live-merge.ts): another message id, the same Kick id. */
export function socketCopy(webhook: JournalRecord): JournalRecord {
  const payload = JSON.parse(webhook.body) as { message_id: string; created_at: string };
  // The socket gives whole seconds; the event key is taken to the second, so both keys match.
  const body = JSON.stringify({ ...payload, created_at: payload.created_at.replace(/\.\d{3}Z$/, 'Z') });
  return { ...webhook, messageId: `live-socket:${payload.message_id}`, subscriptionId: 'live-socket', body };
}

/** A journal that only reads back what it was given. */
export function memoryJournal(records: JournalRecord[] = []) {
  return { records, readAll: () => Promise.resolve([...records]) };
}

/** The live socket's copy of `webhook` saying something else: other words, another sender, or another second. */
export function socketVariant(
  webhook: JournalRecord,
  change: { content?: string; sender?: number; createdAtMs?: number },
): JournalRecord {
  const copy = socketCopy(webhook);
  const payload = JSON.parse(copy.body) as Record<string, unknown>;
  if (change.content !== undefined) {
    payload.content = change.content;
  }
  if (change.sender !== undefined) {
    payload.sender = user(change.sender);
  }
  if (change.createdAtMs !== undefined) {
    payload.created_at = iso(change.createdAtMs).replace(/\.\d{3}Z$/, 'Z');
  }
  return { ...copy, body: JSON.stringify(payload) };
}

/** `rec` as Greenroom received it at `receivedAtMs` (Kick's times in it unchanged). */
export const receivedAt = (rec: JournalRecord, receivedAtMs: number): JournalRecord => ({ ...rec, receivedAtMs });
