/**
 * The live socket's chat merged with the signed webhooks by message id, in the whole app on the embedded
 * sandbox (real receiver, real journal), with the webhooks held back: a line is shown once from the socket,
 * and its webhook adds no second line, reply, automod action or alert, this run or after a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { triggerEvent } from '../../../sandbox/triggers';
import { FIRST_VIEWER_USER_ID } from '../../../sandbox/world';
import { call as sandboxCall, mintUserToken } from '../../helpers/sandbox';
import { type AutomodApp, call } from './automod-fixtures';
import {
  botPosts,
  shown,
  startLiveApp,
  type,
  until,
  webhooksDelivered,
  withDiscordCommand,
} from './live-merge-fixtures';

/** Webhooks this far behind the socket: long enough that the socket's line is surely first. */
const DELAY_SECONDS = 1;

let fx: AutomodApp;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'greenroom-live-merge-'));
  withDiscordCommand(dir);
  fx = await startLiveApp(dir, DELAY_SECONDS);
}, 30_000);

afterAll(async () => {
  await fx?.app.stop();
  rmSync(dir, { recursive: true, force: true });
});

const linesWith = (messageId: string) => fx.chat.filter((m) => m.messageId === messageId);

describe("the live socket's chat beside the webhooks", () => {
  it('shows a line once from the socket; its late webhook adds no second line and is counted in the trail', async () => {
    const before = fx.app.snapshot().health.counters.duplicates;
    const lagSamples = fx.app.snapshot().health.lag.samples;
    const id = type(fx.app, 'hello from the socket');
    const line = await shown(fx, id);
    expect(line).toMatchObject({ content: 'hello from the socket', deleted: false });
    // Shown before its webhook came: the receiver has seen nothing of it yet.
    expect(fx.app.snapshot().health.counters.duplicates).toBe(before);
    // Health counts it as awaiting its webhook, from when the socket brought it, until the webhook comes.
    const awaited = fx.app.snapshot().health.liveSocket?.webhookTrail;
    expect(awaited).toMatchObject({ awaiting: 1 });
    expect(awaited?.oldestAwaitedAtMs).toBeLessThanOrEqual(Date.now());
    await webhooksDelivered(fx.app);
    expect(fx.app.snapshot().health.liveSocket?.webhookTrail).toMatchObject({ awaiting: 0, oldestAwaitedAtMs: null });
    expect(linesWith(id)).toHaveLength(1);
    expect((await call(fx.app, 'chat:history')).filter((m) => m.messageId === id)).toHaveLength(1);
    const health = fx.app.snapshot().health;
    expect(health.counters.duplicates).toBe(before + 1);
    expect(health.liveSocket?.webhookTrail?.p50Ms).toBeGreaterThanOrEqual(DELAY_SECONDS * 1000 - 200);
    // Its webhook still counts in how late Kick delivers ("Kick is delaying events").
    expect(health.lag.samples).toBe(lagSamples + 1);
    const chatArrived = health.subscriptions.find((sub) => sub.type === 'chat.message.sent')?.lastArrivalMs;
    expect(chatArrived).toBeGreaterThanOrEqual(line.sentAtMs);
  });

  it('answers each !discord once, though socket and webhook both bring it', async () => {
    const id = type(fx.app, '!discord');
    await shown(fx, id);
    await webhooksDelivered(fx.app);
    // The bot's answer is queued by the time a line is announced; a marker line flushes the queue.
    const marker = type(fx.app, '!discord');
    await webhooksDelivered(fx.app);
    await shown(fx, marker);
    await until(fx.app, () => botPosts(fx.app).length >= 2);
    expect(botPosts(fx.app)).toEqual(['join us at discord.example', 'join us at discord.example']);
  });

  it('removes a spam line before it is ever shown, and acts on it once', async () => {
    const id = type(fx.app, 'get free followers now');
    const line = await shown(fx, id);
    expect(line.deleted).toBe(true);
    await webhooksDelivered(fx.app);
    expect(linesWith(id)).toHaveLength(1);
    expect(fx.actions.filter((a) => a.messageId === id)).toHaveLength(1);
  });

  it("applies a deletion made on Kick's own site at once, though no webhook says so", async () => {
    const id = type(fx.app, 'a line a moderator removes');
    await shown(fx, id);
    const removed = new Promise<void>((resolve) => {
      const off = fx.app.events.on('chat:deleted', ({ messageId }) => {
        if (messageId === id) {
          off();
          resolve();
        }
      });
    });
    // The streamer removes it from Kick's website: another client, not Greenroom.
    const res = await sandboxCall(fx.app.sandbox!.urls.api, 'DELETE', `/public/v1/chat/${id}`, {
      token: mintUserToken(fx.app.sandbox!),
    });
    expect(res.status, res.text).toBe(204);
    await removed;
    expect((await call(fx.app, 'chat:history')).find((m) => m.messageId === id)?.deleted).toBe(true);
  });

  it("takes the socket's copy of a subscription for nothing: one feed item, from the webhook", async () => {
    const subs: string[] = [];
    fx.app.events.on('kick:event', (event) => {
      if (event.kind !== 'chat' && event.item.kind === 'subscription') {
        subs.push(event.item.id);
      }
    });
    triggerEvent(fx.app.sandbox!.ctx, 'channel.subscription.new', {
      overrides: { subscriber: { user_id: FIRST_VIEWER_USER_ID + 3 } },
    });
    // A chat line after it, its webhook held as long: once that came, the sub's has come too.
    type(fx.app, 'after the sub');
    await webhooksDelivered(fx.app);
    await until(fx.app, () => subs.length > 0);
    expect(subs).toHaveLength(1);
  });
});

describe('after a restart', () => {
  it('restores a socket-first line once and still knows its late webhook', async () => {
    const id = type(fx.app, 'said just before the restart');
    const original = await shown(fx, id);
    await fx.app.stop();
    fx = await startLiveApp(dir, 0);
    expect((await call(fx.app, 'chat:history')).filter((m) => m.messageId === id)).toHaveLength(1);
    const before = fx.app.snapshot().health.counters.duplicates;
    const duplicate = new Promise<void>((resolve) => {
      const off = fx.app.events.on('health:changed', (health) => {
        if (health.counters.duplicates > before) {
          off();
          resolve();
        }
      });
    });
    // Kick's webhook for it, late, to the new run: same message id, sender and Kick's own time.
    triggerEvent(fx.app.sandbox!.ctx, 'chat.message.sent', {
      overrides: {
        message_id: id,
        sender: { user_id: original.sender.userId },
        content: original.content,
        created_at: new Date(original.sentAtMs + 321).toISOString(),
      },
    });
    await duplicate;
    expect(fx.chat.filter((m) => m.messageId === id)).toHaveLength(0);
  });
});
