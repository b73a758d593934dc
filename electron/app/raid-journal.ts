/**
 * A raid as the journal keeps it ([Raids](../../docs/overlays.md#raids)): Kick's webhooks carry no raid, so
 * the raid the live socket brought is written beside them, as a record of its own type with the live
 * socket as its source. At start it is read back into the feed, once, and never acted on again. What is read
 * back is bounded again, as the socket's frame was: the journal is a file a hand or a disk fault can change.
 */
import { z } from 'zod';
import { hashBody } from '../webhooks/dedup/dedup';
import type { JournalRecord, KickEvent } from '../webhooks/events/types';
import { type Raid, raidUsername, raidViewers } from '../services/raids';
import { LIVE_SOCKET_SOURCE } from './live-merge';

/** The journal's type for a raid: not one of Kick's event types, so nothing else reads it as one. */
export const RAID_RECORD_TYPE = 'greenroom.raid';

const storedRaid = z.object({
  broadcaster: z.object({ user_id: z.number() }),
  raid: z.object({
    id: z.string().min(1).max(200),
    username: z.string(),
    viewers: z.number(),
    at_ms: z.number().finite(),
    received_at_ms: z.number().finite(),
  }),
});

/** The raid's journal record and the key it claims in the dedup memory. */
export function raidRecord(raid: Raid, broadcasterUserId: number): { record: JournalRecord; key: string } {
  const body = JSON.stringify({
    broadcaster: { user_id: broadcasterUserId },
    raid: {
      id: raid.id,
      username: raid.username,
      viewers: raid.viewers,
      at_ms: raid.atMs,
      received_at_ms: raid.receivedAtMs,
    },
  });
  return {
    record: {
      messageId: `${LIVE_SOCKET_SOURCE}:${raid.id}`,
      subscriptionId: LIVE_SOCKET_SOURCE,
      type: RAID_RECORD_TYPE,
      version: '1',
      timestamp: new Date(raid.receivedAtMs).toISOString(),
      receivedAtMs: raid.receivedAtMs,
      bodyHash: hashBody(body),
      body,
    },
    key: `${RAID_RECORD_TYPE}\n${raid.id}`,
  };
}

/**
 * The raid a restored journal event holds; null when the event is not a raid. `'damaged'` when it is a raid
 * record that does not read: it is then left out, not shown as an unknown event.
 */
export function raidOfRecord(event: KickEvent): Raid | 'damaged' | null {
  if (event.type !== RAID_RECORD_TYPE) {
    return null;
  }
  const parsed = storedRaid.safeParse(event.payload);
  const username = parsed.success ? raidUsername(parsed.data.raid.username) : null;
  if (!parsed.success || username === null) {
    return 'damaged';
  }
  const { raid } = parsed.data;
  return {
    id: raid.id,
    username,
    viewers: raidViewers(raid.viewers),
    atMs: raid.at_ms,
    receivedAtMs: raid.received_at_ms,
    timed: true,
  };
}
