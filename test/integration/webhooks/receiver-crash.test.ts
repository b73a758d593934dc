import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../sandbox/index';
import { triggerEvent } from '../../../sandbox/triggers';
import { mintAppToken, startSandbox } from '../../helpers/sandbox';

const CHILD = fileURLToPath(new URL('./fixtures/receiver-child.ts', import.meta.url));

interface Seen {
  messageId: string;
  chatId: string | null;
}

interface Child {
  process: ChildProcess;
  history: Seen[];
  events: Seen[];
  ready: Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function startChild(dataDir: string, port: number, apiUrl: string): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, String(port), apiUrl], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const result: Child = { process: child, history: [], events: [], ready: Promise.resolve() };
  result.ready = new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`receiver child exited early (${code})`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as { type: string; events?: Seen[] } & Seen;
      if (message.type === 'history') {
        result.history.push(...message.events!);
      }
      if (message.type === 'event') {
        result.events.push({ messageId: message.messageId, chatId: message.chatId });
      }
      if (message.type === 'ready') {
        resolve();
      }
    });
  });
  return result;
}

/**
 * The receiver process is killed with SIGKILL in the middle of a burst and restarted: every delivery it
 * acknowledged with a 200 is in its journal afterwards, and Kick's redeliveries of the rest are shown once.
 */
describe('receiver crash and restart', () => {
  let sandbox: Sandbox;
  let dataDir: string;
  let port: number;
  const children: Child[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ delivery: { tickMs: 0 } });
    dataDir = mkdtempSync(join(tmpdir(), 'greenroom-crash-'));
    port = await freePort();
    sandbox.ctx.app.webhookUrl = `http://127.0.0.1:${port}/kick/webhook`;
    const res = await request(new URL('/public/v1/events/subscriptions', sandbox.urls.api), {
      method: 'POST',
      headers: { authorization: `Bearer ${mintAppToken(sandbox)}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        events: [{ name: 'chat.message.sent', version: 1 }],
        method: 'webhook',
        broadcaster_user_id: sandbox.describe().broadcasterUserId,
      }),
    });
    await res.body.text();
  });

  afterAll(async () => {
    for (const child of children) {
      child.process.kill('SIGKILL');
    }
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged event and shows none twice after Kick redelivers', async () => {
    const first = startChild(dataDir, port, sandbox.urls.api);
    children.push(first);
    await first.ready;
    const burst = triggerEvent(sandbox.ctx, 'chat.message.sent', { count: 400 });
    expect(burst).toHaveLength(400);

    // Deliver in the background and kill the receiver once a good part has been acknowledged.
    const acked = (): string[] => sandbox.delivery.attempts.filter((a) => a.status === 200).map((a) => a.messageId);
    const flushing = sandbox.delivery.flush();
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (acked().length >= 60) {
          clearInterval(poll);
          first.process.kill('SIGKILL');
          resolve();
        }
      }, 1);
    });
    await new Promise((resolve) => first.process.once('exit', resolve));
    await flushing;
    const acknowledgedBeforeCrash = new Set(acked());
    expect(acknowledgedBeforeCrash.size).toBeGreaterThanOrEqual(60);
    expect(acknowledgedBeforeCrash.size).toBeLessThan(400);

    const second = startChild(dataDir, port, sandbox.urls.api);
    children.push(second);
    await second.ready;
    const restored = new Set(second.history.map((e) => e.messageId));
    for (const id of acknowledgedBeforeCrash) {
      expect(restored.has(id), id).toBe(true);
    }

    // Kick retries what failed (its retry schedule, on the sandbox clock).
    for (let i = 0; i < 4 && sandbox.delivery.pendingCount() > 0; i++) {
      sandbox.ctx.clock.advance(60_000);
      await sandbox.delivery.flush();
    }
    expect(sandbox.delivery.pendingCount()).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    await waitFor(() => second.events.length + second.history.length >= 400);

    const shown = [...second.history, ...second.events].map((e) => e.chatId);
    expect(shown).toHaveLength(400);
    expect(new Set(shown).size).toBe(400);
    expect(new Set(shown)).toEqual(new Set(burst.map((e) => (e.payload as { message_id: string }).message_id)));
  }, 60_000);
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}
