/**
 * Raids and the late digest across a restart, in the whole app on the embedded sandbox (real receiver, real
 * journal, Kick's live socket played by the sandbox): a raid's feed entry comes back once and its welcome
 * never again; a late episode's digest comes back once, with its list, and grows in place when the episode
 * goes on after the restart (docs/overlays.md#raids, docs/design-notes.md#late-events).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSettings } from '../../../electron/app/settings';
import { DEFAULT_CHAT_BOT_SETTINGS } from '../../../shared/chat-bot';
import type { FeedItem } from '../../../shared/views';
import { triggerEvent } from '../../../sandbox/triggers';
import { FIRST_VIEWER_USER_ID } from '../../../sandbox/world';
import { callAdmin } from '../../helpers/sandbox';
import { type AutomodApp, call } from './automod-fixtures';
import { botPosts, startLiveApp, until, webhooksDelivered } from './live-merge-fixtures';

let fx: AutomodApp;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'greenroom-raids-restart-'));
  const settings = openSettings(dir, { randomBytes });
  const chatBot = structuredClone(DEFAULT_CHAT_BOT_SETTINGS);
  chatBot.replies.raid = { ...chatBot.replies.raid, enabled: true, combineSec: 0 };
  settings.update({ chatBot, lateAfterSec: 120 });
  fx = await startLiveApp(dir, 0);
}, 30_000);

afterAll(async () => {
  await fx?.app.stop();
  rmSync(dir, { recursive: true, force: true });
});

const feed = async (): Promise<FeedItem[]> => call(fx.app, 'feed:history');
const raidsIn = (items: FeedItem[]) => items.filter((item) => item.kind === 'raid');
const digestsIn = (items: FeedItem[]) => items.filter((item) => item.lateDigest);

async function raid(from: string, viewers: number): Promise<void> {
  const res = await callAdmin(fx.app.sandbox!, 'POST', '/live-socket/host', { body: { host_username: from, viewers } });
  expect(res.status, res.text).toBe(200);
}

/** A new sub whose webhook says it happened `minutesAgo` minutes ago: late past two minutes. */
async function lateSub(offset: number, minutesAgo: number): Promise<void> {
  triggerEvent(fx.app.sandbox!.ctx, 'channel.subscription.new', {
    overrides: {
      subscriber: { user_id: FIRST_VIEWER_USER_ID + offset },
      created_at: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    },
  });
  await webhooksDelivered(fx.app);
}

async function restart(): Promise<void> {
  await fx.app.stop();
  fx = await startLiveApp(dir, 0);
}

describe('a raid across a restart', () => {
  it('comes back once in the feed, with no second welcome or alert', async () => {
    await raid('xqc_sb', 120);
    await until(fx.app, () => botPosts(fx.app).includes('Welcome raiders from xqc_sb!'));
    const before = raidsIn(await feed());
    expect(before.map((item) => item.text)).toEqual(['xqc_sb raided with 120 viewers']);

    await restart();
    const after = raidsIn(await feed());
    expect(after).toEqual(before);
    // No alert box was ever open: the replay queues nothing, as for any other alert (docs/overlays.md#alerts).
    expect(fx.app.overlays.hub.alerts.view()).toMatchObject({ waiting: 0, current: null });

    // A raid after the restart is welcomed; the bot's one queue would have sent a second welcome first.
    await raid('adinross_sb', 3);
    await until(fx.app, () => botPosts(fx.app).includes('Welcome raiders from adinross_sb!'));
    expect(botPosts(fx.app).filter((post) => post.startsWith('Welcome raiders'))).toEqual([
      'Welcome raiders from adinross_sb!',
    ]);
    expect(raidsIn(await feed()).map((item) => item.text)).toEqual([
      'xqc_sb raided with 120 viewers',
      'adinross_sb raided with 3 viewers',
    ]);
  });
});

describe('the late digest across a restart', () => {
  it('comes back once with its list, and the same episode goes on growing it in place', async () => {
    await lateSub(1, 10);
    await lateSub(2, 9);
    const [digest] = digestsIn(await feed());
    expect(digest?.lateDigest?.count).toBe(2);

    await restart();
    const restored = digestsIn(await feed());
    expect(restored).toEqual([digest]);
    // The restored subs keep their late mark.
    expect((await feed()).filter((item) => item.kind === 'subscription' && item.late)).toHaveLength(2);

    // Webhooks still behind after the restart: the same episode, the same entry, one more in its list.
    await lateSub(3, 8);
    const grown = digestsIn(await feed());
    expect(grown).toHaveLength(1);
    expect(grown[0]).toMatchObject({ id: digest!.id, text: "3 events arrived late while Kick's webhooks were behind" });
    expect(grown[0]!.lateDigest!.entries).toHaveLength(3);
  });
});
