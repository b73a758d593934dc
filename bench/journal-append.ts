/**
 * Journal append throughput: group commit (`fsync: 'batch'`, 64 concurrent appenders, as during a chat
 * storm where many deliveries are in flight at once) against one fsync per append (`fsync: 'always'`,
 * sequential). Both run side by side in one process on the same disk, so the ratio says what batching buys
 * whatever the disk's fsync latency is. Records are the size of a typical chat delivery (≈ 1 KB).
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createFileJournal } from '../electron/webhooks/journal/journal';
import type { FsyncPolicy } from '../electron/webhooks/journal/journal';
import type { JournalRecord } from '../electron/webhooks/events/types';
import { measuredFigures } from './lib/figures';
import type { BenchFigure, BenchResult } from './types';

const APPENDERS = 64;
const BATCH_APPENDS_EACH = 40;
const ALWAYS_APPENDS = 300;

function chatRecord(i: number): JournalRecord {
  const body = JSON.stringify({
    message_id: `3c6f0b3e-0b7a-4a52-9d0e-${String(i).padStart(12, '0')}`,
    broadcaster: {
      is_anonymous: false,
      user_id: 123,
      username: 'streamer',
      is_verified: true,
      channel_slug: 'streamer',
    },
    sender: {
      is_anonymous: false,
      user_id: 100_000 + i,
      username: `viewer_${i}`,
      is_verified: false,
      profile_picture: 'https://files.kick.com/images/user/100000/profile_image/conversion/default.webp',
      channel_slug: `viewer_${i}`,
      identity: { username_color: '#FF5733', badges: [{ text: 'Subscriber', type: 'subscriber', count: 3 }] },
    },
    content: `message ${i} [emote:37226:KEKW] that is roughly as long as a normal chat line gets`,
    emotes: [{ emote_id: '37226', positions: [{ s: 10, e: 26 }] }],
    created_at: '2025-04-01T07:56:19Z',
  });
  return {
    messageId: `01JQ8ZV4M3K5N7P9R1S${String(i).padStart(7, '0')}`,
    subscriptionId: '01JQ8ZV4M3K5N7P9R1S3T5V7XA',
    type: 'chat.message.sent',
    version: '1',
    timestamp: '2025-04-01T07:56:19Z',
    receivedAtMs: 1_743_494_179_000 + i,
    bodyHash: createHash('sha256').update(body).digest('hex'),
    body,
  };
}

/** Appends/s with `appenders` concurrent loops of `each` sequential appends under `fsync`. */
async function measure(fsync: FsyncPolicy, appenders: number, each: number): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'greenroom-bench-journal-'));
  try {
    const journal = await createFileJournal({ dir, fsync });
    const records = Array.from({ length: appenders * each }, (_, i) => chatRecord(i));
    const started = performance.now();
    await Promise.all(
      Array.from({ length: appenders }, async (_, a) => {
        for (let k = 0; k < each; k++) {
          await journal.append(records[a * each + k]!);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    await journal.close();
    return (appenders * each) / seconds;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs both measurements and returns the two figures. */
export async function run(): Promise<BenchResult[]> {
  // Warm the JIT and the file system paths first, so neither side pays for it.
  await measure('never', APPENDERS, 5);
  const always = await measure('always', 1, ALWAYS_APPENDS);
  const batch = await measure('batch', APPENDERS, BATCH_APPENDS_EACH);
  return measuredFigures(figures, {
    'journal-group-commit-ratio': Math.round((batch / always) * 100) / 100,
    'journal-batch-appends-per-s': Math.round(batch),
  });
}

/** What `run` gives, printed as NaN with the reason when the module cannot run (bench/run.ts). */
export const figures: BenchFigure[] = [
  { name: 'journal-group-commit-ratio', unit: 'x', target: { op: '>=', value: 5 } },
  { name: 'journal-batch-appends-per-s', unit: 'appends/s', target: { op: '>=', value: 2000 } },
];
