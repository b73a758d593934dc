/**
 * Bans, timeouts and unbans by any moderator, from Kick's live socket, in the whole app on the embedded sandbox
 * (real socket, real receiver, real mod log on disk), with the webhooks held back: another moderator's timeout
 * is in the mod log and on the user card while its webhook is still held, and that webhook adds no second entry,
 * this run or after a restart; an unban comes from the socket alone; the streamer's own ban is one entry.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModAction } from '../../../shared/views';
import type { GreenroomApp } from '../../../electron/app/create-app';
import { SOCKET_ENTRIES_BURST, SOCKET_ENTRIES_PER_SECOND } from '../../../electron/app/live-moderation';
import { triggerEvent } from '../../../sandbox/triggers';
import { FIRST_VIEWER_USER_ID, MODERATOR_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { call as sandboxCall, mintUserToken } from '../../helpers/sandbox';
import { type AutomodApp, call } from './automod-fixtures';
import { shown, startLiveApp, type, webhooksDelivered } from './live-merge-fixtures';

/** Webhooks this far behind the socket: the socket's word is surely first. */
const DELAY_SECONDS = 2;

let fx: AutomodApp;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'greenroom-live-moderation-'));
  fx = await startLiveApp(dir, DELAY_SECONDS);
}, 30_000);

afterAll(async () => {
  await fx?.app.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Resolves with the next mod-log entry on `userId`, and how many webhooks the sandbox still held then. */
function nextAction(app: GreenroomApp, userId: number): Promise<{ action: ModAction; held: number }> {
  return new Promise((resolve) => {
    const off = app.events.on('mod:action', (action) => {
      if (action.targetUserId === userId) {
        off();
        resolve({ action, held: app.sandbox!.delivery.pendingCount() });
      }
    });
  });
}

/** Resolves once the feed has the ban webhook's item on `userId`: Kick's late word has come. */
function banWebhook(app: GreenroomApp, userId: number): Promise<void> {
  return new Promise((resolve) => {
    const off = app.events.on('kick:event', (event) => {
      if (event.kind !== 'chat' && event.item.kind === 'ban' && event.item.userId === userId) {
        off();
        resolve();
      }
    });
  });
}

/** Kick's moderation endpoint, called as the channel's moderator from Kick's own site. */
async function asModerator(method: 'POST' | 'DELETE', body: Record<string, unknown>): Promise<void> {
  const res = await sandboxCall(fx.app.sandbox!.urls.api, method, '/public/v1/moderation/bans', {
    token: mintUserToken(fx.app.sandbox!, ['moderation:ban'], MODERATOR_USER_ID),
    body: { broadcaster_user_id: STREAMER_USER_ID, ...body },
  });
  expect(res.status, res.text).toBe(200);
}

const logFor = async (userId: number) => (await call(fx.app, 'mod:log')).filter((a) => a.targetUserId === userId);

describe("other moderators' bans from the live socket", () => {
  const viewer = FIRST_VIEWER_USER_ID + 7;

  it("shows another moderator's timeout at once, and its late webhook adds no second entry", async () => {
    const id = type(fx.app, 'a line before the timeout');
    await shown(fx, id);
    const next = nextAction(fx.app, viewer);
    const webhook = banWebhook(fx.app, viewer);
    await asModerator('POST', { user_id: viewer, duration: 10, reason: 'calm down' });
    const { action, held } = await next;
    expect(action).toMatchObject({ kind: 'timeout', minutes: 10, ok: true, elsewhere: { moderator: 'sandbox_mod' } });
    // In the mod log before Kick's webhook came: the sandbox still holds it.
    expect(held).toBeGreaterThan(0);
    const card = await call(fx.app, 'mod:user-card', { userId: viewer });
    expect(card.actions.map((a) => a.kind)).toEqual(['timeout']);
    await webhooksDelivered(fx.app);
    await webhook;
    expect(await logFor(viewer)).toHaveLength(1);
    // The viewer's lines stay, as Kick keeps them.
    expect((await call(fx.app, 'chat:history')).find((m) => m.messageId === id)?.deleted).toBe(false);
  });

  it('takes an unban from the socket alone, since Kick sends no webhook for it', async () => {
    const next = nextAction(fx.app, viewer);
    await asModerator('DELETE', { user_id: viewer });
    expect((await next).action).toMatchObject({ kind: 'unban', elsewhere: { moderator: 'sandbox_mod' } });
    expect((await logFor(viewer)).map((a) => a.kind)).toEqual(['timeout', 'unban']);
  });

  it("keeps the streamer's own ban through Greenroom once, though the socket and the webhook both tell it", async () => {
    const target = FIRST_VIEWER_USER_ID + 8;
    const webhook = banWebhook(fx.app, target);
    const banned = await call(fx.app, 'mod:ban', { userId: target, reason: 'spam' });
    expect(banned.elsewhere).toBeUndefined();
    await webhooksDelivered(fx.app);
    await webhook;
    expect((await logFor(target)).map((a) => a.id)).toEqual([banned.id]);
  });

  it('refuses a hostile ban frame: nobody named, a name and a length past any limit', async () => {
    const state = fx.app.sandbox!.ctx.state;
    const frame = (data: Record<string, unknown>) =>
      state.emitLive({
        broadcasterUserId: STREAMER_USER_ID,
        room: 'chatrooms.v2',
        event: 'App\\Events\\UserBannedEvent',
        data,
      });
    const target = FIRST_VIEWER_USER_ID + 9;
    const next = nextAction(fx.app, target);
    frame({ id: 'x', user: { id: 0, username: 'nobody' }, banned_by: null, permanent: true });
    frame({
      id: 'y',
      user: { id: target, username: 'z'.repeat(5_000) },
      banned_by: { id: 0, username: '' },
      permanent: false,
      duration: 1e12,
      expires_at: 'never',
    });
    const { action } = await next;
    expect(action).toMatchObject({ kind: 'timeout', elsewhere: { moderator: null } });
    expect(action.minutes).toBeUndefined();
    expect(action.targetUsername!.length).toBeLessThanOrEqual(100);
    expect((await call(fx.app, 'mod:log')).filter((a) => a.targetUserId === 0)).toHaveLength(0);
  });
});

describe('a flood of ban frames on the socket', () => {
  it("writes a bounded number of them, keeps the mod log's earlier entries, and logs the flood once", async () => {
    const before = await call(fx.app, 'mod:log');
    const FRAMES = 10_000;
    const first = FIRST_VIEWER_USER_ID + 100_000;
    let heard = 0;
    const all = new Promise<void>((resolve) => {
      const off = fx.app.liveSocket.onEvent((event) => {
        if (event.type === 'user.banned' && event.user.id >= first && ++heard === FRAMES) {
          off();
          resolve();
        }
      });
    });
    const startedMs = Date.now();
    for (let i = 0; i < FRAMES; i += 1) {
      fx.app.sandbox!.ctx.state.emitLive({
        broadcasterUserId: STREAMER_USER_ID,
        room: 'chatrooms.v2',
        event: 'App\\Events\\UserBannedEvent',
        data: { id: `f${i}`, user: { id: first + i, username: `bot_${i}` }, banned_by: null, permanent: true },
      });
    }
    await all;
    const seconds = Math.ceil((Date.now() - startedMs) / 1000);
    const log = await call(fx.app, 'mod:log');
    const flood = log.filter((a) => a.targetUserId !== null && a.targetUserId >= first);
    // Nothing the mod log held before the flood was pushed out by it.
    expect(log.slice(0, before.length).map((a) => a.id)).toEqual(before.map((a) => a.id));
    expect(flood.length).toBeGreaterThan(0);
    expect(flood.length).toBeLessThanOrEqual(SOCKET_ENTRIES_BURST + seconds * SOCKET_ENTRIES_PER_SECOND);
    expect(fx.logs.filter((line) => line.includes("more bans from Kick's live socket than"))).toHaveLength(1);
  }, 60_000);
});

describe('after a restart', () => {
  it('still knows a socket ban from the mod log on disk: its late webhook adds no second entry', async () => {
    const viewer = FIRST_VIEWER_USER_ID + 10;
    const next = nextAction(fx.app, viewer);
    await asModerator('POST', { user_id: viewer, reason: 'spam links' });
    await next;
    await fx.app.stop();
    fx = await startLiveApp(dir, 0);
    expect(await logFor(viewer)).toMatchObject([{ kind: 'ban', elsewhere: { moderator: 'sandbox_mod' } }]);
    // Kick's webhook for it, late, to the new run: the same viewer, moderator and kind, Kick's time of the ban.
    const webhook = banWebhook(fx.app, viewer);
    triggerEvent(fx.app.sandbox!.ctx, 'moderation.banned', {
      overrides: {
        banned_user: { user_id: viewer },
        moderator: { user_id: MODERATOR_USER_ID },
        metadata: { expires_at: null, reason: 'spam links' },
      },
    });
    await webhooksDelivered(fx.app);
    await webhook;
    expect(await logFor(viewer)).toHaveLength(1);
  });
});
