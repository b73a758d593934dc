/**
 * The storm's load generator, run on a worker thread by `storm-sender.ts` (which says why). Sends the
 * storm's messages at the given rate and posts back what was sent, a batch at a time.
 */
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { Pool } from 'undici';
import { raidMessage, rememberLine, seededRandom, type Sender } from './raid-chat';
import { sendChat, sendPaced } from './storm-traffic';
import type { AdminApi } from './app-process';

export interface SenderJob {
  admin: AdminApi;
  count: number;
  rate: number;
  concurrency: number;
  seed: number;
  senders: Sender[];
  /** Ids of the latest lines before the storm, for replies. */
  recent: string[];
}

/** What the worker posts: sent messages in batches, then `done` or the first failure. */
export type SenderReport =
  | { kind: 'sent'; sent: { id: string; sentAtMs: number }[] }
  | { kind: 'done'; priority: number }
  | { kind: 'failed'; message: string };

const job = workerData as SenderJob;
const post = (report: SenderReport): void => parentPort!.postMessage(report);

if (process.platform === 'linux') {
  // 0 is this thread only on Linux, where a nice value belongs to a thread.
  setPriority(0, 19);
}

const pool = new Pool(new URL(job.admin.url).origin, { connections: job.concurrency });
const rng = seededRandom(job.seed);
const recent = [...job.recent];
let batch: { id: string; sentAtMs: number }[] = [];
const flush = (): void => {
  if (batch.length > 0) {
    post({ kind: 'sent', sent: batch });
    batch = [];
  }
};
const ticker = setInterval(flush, 100);

sendPaced({
  count: job.count,
  rate: job.rate,
  concurrency: job.concurrency,
  send: () => sendChat(pool, job.admin, raidMessage(rng, job.senders, recent)),
  onSent: (sent) => {
    batch.push(sent);
    rememberLine(recent, sent.id);
  },
})
  .then(
    () => {
      flush();
      post({ kind: 'done', priority: getPriority(0) });
    },
    (error: unknown) => {
      flush();
      post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    },
  )
  .finally(() => {
    clearInterval(ticker);
    void pool.close();
  });
