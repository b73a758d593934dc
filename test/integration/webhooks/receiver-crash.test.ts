import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../sandbox/index';
import { triggerEvent } from '../../../sandbox/triggers';
import { mintAppToken, startSandbox } from '../../helpers/sandbox';
import { saveHeld } from './own-channel-fixtures';

const CHILD = fileURLToPath(new URL('./fixtures/receiver-child.ts', import.meta.url));

interface Seen {
  messageId: string;
  chatId: string | null;
}

interface Child {
  process: ChildProcess;
  history: Seen[];
  events: Seen[];
  /** Resolves with the receiver's URL once it listens. */
  ready: Promise<string>;
}

/**
 * Each run listens on a port of its own choosing (as the app does with GREENROOM_WEBHOOK_PORT=0, its tunnel
 * following it): a port picked ahead and left free while the receiver is down could be taken by another
 * test's connection on a busy CI machine.
 */
function startChild(dataDir: string, apiUrl: string): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, '0', apiUrl], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const result: Child = { process: child, history: [], events: [], ready: Promise.resolve('') };
  result.ready = new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`receiver child exited early (${code})`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as { type: string; events?: Seen[]; url?: string } & Seen;
      if (message.type === 'history') {
        result.history.push(...message.events!);
      }
      if (message.type === 'event') {
        result.events.push({ messageId: message.messageId, chatId: message.chatId });
      }
      if (message.type === 'ready') {
        resolve(message.url!);
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
  const children: Child[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ delivery: { tickMs: 0 } });
    dataDir = mkdtempSync(join(tmpdir(), 'greenroom-crash-'));
    // Nothing listens here yet; each receiver run below puts its own URL in place before Kick delivers.
    sandbox.ctx.app.webhookUrl = 'http://127.0.0.1:9/kick/webhook';
    const res = await request(new URL('/public/v1/events/subscriptions', sandbox.urls.api), {
      method: 'POST',
      headers: { authorization: `Bearer ${mintAppToken(sandbox)}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        events: [{ name: 'chat.message.sent', version: 1 }],
        method: 'webhook',
        broadcaster_user_id: sandbox.describe().broadcasterUserId,
      }),
    });
    const subscribed = (await res.body.json()) as { data: { subscription_id: string }[] };
    // What the run that subscribed would have saved: each receiver process below starts from it.
    saveHeld(
      dataDir,
      subscribed.data.map((item) => item.subscription_id),
    );
  });

  afterAll(async () => {
    for (const child of children) {
      child.process.kill('SIGKILL');
    }
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged event and shows none twice after Kick redelivers', async () => {
    const first = startChild(dataDir, sandbox.urls.api);
    children.push(first);
    sandbox.ctx.app.webhookUrl = await first.ready;
    const burst = triggerEvent(sandbox.ctx, 'chat.message.sent', { count: 400 });
    expect(burst).toHaveLength(400);

    // Deliver in the background and kill the receiver once a good part has been acknowledged. The kill comes as
    // the sandbox records the 60th 200, not from a timer: a timer's turn could come only after all 400 were
    // answered, and then nothing would be left to redeliver.
    const { attempts } = sandbox.delivery;
    const acked = (): string[] => attempts.filter((a) => a.status === 200).map((a) => a.messageId);
    const record = attempts.push.bind(attempts);
    let killed = false;
    attempts.push = (...items) => {
      const length = record(...items);
      if (!killed && acked().length >= 60) {
        killed = true;
        first.process.kill('SIGKILL');
      }
      return length;
    };
    const exited = new Promise((resolve) => first.process.once('exit', resolve));
    try {
      await sandbox.delivery.flush();
      await exited;
    } finally {
      delete (attempts as { push?: unknown }).push; // the array's own push again
    }
    const acknowledgedBeforeCrash = new Set(acked());
    expect(acknowledgedBeforeCrash.size).toBeGreaterThanOrEqual(60);
    expect(acknowledgedBeforeCrash.size).toBeLessThan(400);

    const second = startChild(dataDir, sandbox.urls.api);
    children.push(second);
    sandbox.ctx.app.webhookUrl = await second.ready;
    const restored = new Set(second.history.map((e) => e.messageId));
    for (const id of acknowledgedBeforeCrash) {
      expect(restored.has(id), id).toBe(true);
    }

    // Kick retries what failed (its retry schedule, on the sandbox clock).
    for (let i = 0; i < 4 && sandbox.delivery.pendingCount() > 0; i++) {
      sandbox.ctx.clock.advance(60_000);
      await sandbox.delivery.flush();
    }
    expect(sandbox.delivery.pendingCount(), lastFailures(sandbox)).toBe(0);
    await waitFor(
      () => second.events.length + second.history.length >= 400,
      () => `shown after the restart: ${second.history.length} restored + ${second.events.length} delivered, of 400`,
    );

    const shown = [...second.history, ...second.events].map((e) => e.chatId);
    expect(shown).toHaveLength(400);
    expect(new Set(shown).size).toBe(400);
    expect(new Set(shown)).toEqual(new Set(burst.map((e) => (e.payload as { message_id: string }).message_id)));
  }, 60_000);
});

/** Waits for `condition`, failing with `describe()` after 20 s rather than at the test's own timeout. */
async function waitFor(condition: () => boolean, describe: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error(`gave up waiting: ${describe()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The last few failed attempts, to say why deliveries are still pending. */
function lastFailures(sandbox: Sandbox): string {
  const failed = sandbox.delivery.attempts.filter((a) => a.status !== 200).slice(-5);
  return `still pending; last failures: ${JSON.stringify(failed.map((a) => ({ status: a.status, error: a.error })))}`;
}
