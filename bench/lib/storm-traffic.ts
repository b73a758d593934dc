/**
 * The chat storm's traffic (bench/chat-storm.ts): storm messages injected through the sandbox's admin API,
 * the sandbox's attempt log as the admin API lists it, and the app's journal read back to match each
 * webhook delivery to its chat message.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Pool } from 'undici';
import type { AdminApi } from './app-process';

export interface Attempt {
  message_id: string;
  /** The webhook's event type, e.g. `chat.message.sent`. */
  event_type: string;
  attempted_at_ms: number;
  event_at_ms: number;
  /** False when the app did not answer 2xx in time; the sandbox retries it. */
  delivered: boolean;
}

/** Posts one storm message; resolves with its chat message id and the moment it was sent. */
export async function sendChat(
  pool: Pool,
  admin: AdminApi,
  overrides: Record<string, unknown>,
): Promise<{ id: string; sentAtMs: number }> {
  const sentAtMs = Date.now();
  const res = await pool.request({
    path: `${new URL(admin.url).pathname.replace(/\/$/, '')}/trigger/chat.message.sent`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(admin.token ? { authorization: `Bearer ${admin.token}` } : {}),
    },
    body: JSON.stringify({ overrides }),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) {
    throw new Error(`the sandbox refused a storm message: ${res.statusCode} ${text.slice(0, 300)}`);
  }
  const answer = JSON.parse(text) as { events: { payload: { message_id: string } }[] };
  return { id: answer.events[0]!.payload.message_id, sentAtMs };
}

/**
 * Sends `count` messages at `rate` a second from now, with at most `concurrency` in flight (the generator
 * never waits on the app beyond that), and resolves once every one was answered. `onSent` hears each answer;
 * the first failure stops further sends and rejects once those in flight have settled.
 */
export async function sendPaced(options: {
  count: number;
  rate: number;
  concurrency: number;
  send: () => Promise<{ id: string; sentAtMs: number }>;
  onSent: (sent: { id: string; sentAtMs: number }) => void;
}): Promise<void> {
  const start = performance.now();
  let launched = 0;
  let inFlight = 0;
  // A holder: the sends' callbacks set it, which control-flow narrowing cannot see.
  const failed: { error: Error | null } = { error: null };
  while (launched < options.count && !failed.error) {
    const due = Math.min(options.count, Math.floor(((performance.now() - start) / 1000) * options.rate));
    while (launched < due && inFlight < options.concurrency) {
      launched++;
      inFlight++;
      options
        .send()
        .then(options.onSent)
        .catch((error: unknown) => (failed.error ??= error instanceof Error ? error : new Error(String(error))))
        .finally(() => inFlight--);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  while (inFlight > 0) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  if (failed.error) {
    throw failed.error;
  }
}

/** Webhook message id → chat message id and receipt time, from the app's journal segments. */
export function readJournal(dataDir: string): Map<string, { chatId: string; receivedAtMs: number }> {
  const byWebhookId = new Map<string, { chatId: string; receivedAtMs: number }>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(path);
      } else if (/^journal-\d+\.log$/.test(entry.name)) {
        for (const line of readFileSync(path, 'utf8').split('\n')) {
          const json = line.slice(line.indexOf(' ') + 1);
          try {
            const record = JSON.parse(json) as { messageId: string; receivedAtMs: number; body: string };
            const body = JSON.parse(record.body) as { message_id?: unknown };
            if (typeof body.message_id === 'string') {
              byWebhookId.set(record.messageId, { chatId: body.message_id, receivedAtMs: record.receivedAtMs });
            }
          } catch {
            // A torn or foreign line: not a storm message.
          }
        }
      }
    }
  };
  walk(dataDir);
  return byWebhookId;
}
