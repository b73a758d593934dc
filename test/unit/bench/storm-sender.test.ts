import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { raidSenders, seededRandom } from '../../../bench/lib/raid-chat';
import { runSender } from '../../../bench/lib/storm-sender';

/** A stand-in for the sandbox's trigger endpoint: answers each storm message with a new message id. */
interface Seen {
  auth?: string | undefined;
  body: { overrides: Record<string, unknown> };
}

async function fakeTrigger(failAfter = Infinity): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const listening = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.url !== '/admin/trigger/chat.message.sent' || req.method !== 'POST') {
        res.writeHead(404).end();
        return;
      }
      seen.push({ auth: req.headers.authorization, body: JSON.parse(body) as Seen['body'] });
      if (seen.length > failAfter) {
        res.writeHead(500).end('no more');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ events: [{ payload: { message_id: `msg-${seen.length}` } }] }));
    });
  });
  server = listening;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(listening.address() as AddressInfo).port}/admin`, seen };
}

let server: Server | null = null;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(null));
  server = null;
});

const job = (url: string, count: number) => ({
  admin: { url, token: 'admin-token' },
  count,
  rate: 400,
  concurrency: 4,
  seed: 3,
  senders: raidSenders(seededRandom(1), 20),
  recent: ['before-1', 'before-2'],
});

describe('the storm’s sender thread', () => {
  it('sends every message through the trigger, reports each one sent, and runs below normal priority', async () => {
    const trigger = await fakeTrigger();
    const sent: { id: string; sentAtMs: number }[] = [];
    const started = Date.now();
    const { priority } = await runSender(job(trigger.url, 60), (s) => sent.push(s));
    expect(sent.map((s) => s.id).sort()).toEqual(trigger.seen.map((_, i) => `msg-${i + 1}`).sort());
    expect(sent).toHaveLength(60);
    expect(sent.every((s) => s.sentAtMs >= started && s.sentAtMs <= Date.now())).toBe(true);
    // 60 messages at 400/s take about 150 ms; the pace holds them back rather than sending all at once.
    expect(Math.max(...sent.map((s) => s.sentAtMs)) - started).toBeGreaterThanOrEqual(100);
    expect(
      trigger.seen.every((r) => r.auth === 'Bearer admin-token' && typeof r.body.overrides.content === 'string'),
    ).toBe(true);
    // Replies point at lines sent before them: the ones before the storm or the storm's own.
    const known = new Set(['before-1', 'before-2', ...sent.map((s) => s.id)]);
    const replies = trigger.seen.map((r) => r.body.overrides['replies_to.message_id']).filter((id) => id !== undefined);
    expect(replies.every((id) => known.has(id as string))).toBe(true);
    expect(priority).toBe(process.platform === 'linux' ? 19 : 0);
  });

  it('fails with what the sandbox said when it refuses a message', async () => {
    const trigger = await fakeTrigger(5);
    const sent: string[] = [];
    await expect(runSender(job(trigger.url, 40), (s) => sent.push(s.id))).rejects.toThrow(
      /the sandbox refused a storm message: 500 no more/,
    );
    expect(sent.length).toBeLessThanOrEqual(5);
  });
});
