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
import { raidRecord } from '../../../electron/app/raid-journal';
import { openSettings } from '../../../electron/app/settings';
import { createFileJournal } from '../../../electron/webhooks/journal/journal';
import type { JournalRecord } from '../../../electron/webhooks/events/types';
import { DEFAULT_CHAT_BOT_SETTINGS } from '../../../shared/chat-bot';
import type { FeedItem } from '../../../shared/views';
import { triggerEvent } from '../../../sandbox/triggers';
import { FIRST_VIEWER_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
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

async function restart(whileDown?: () => Promise<void>): Promise<void> {
  await fx.app.stop();
  await whileDown?.();
  fx = await startLiveApp(dir, 0);
}

/** Appends records to the stopped app's journal with the journal's own writer, as a hand or a fault might. */
async function appendToJournal(records: JournalRecord[]): Promise<void> {
  const journal = await createFileJournal({ dir: join(dir, 'journal') });
  for (const record of records) {
    await journal.append(record);
  }
  await journal.close();
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

describe('raids in a journal changed on disk', () => {
  it('shows a hand-edited raid bounded, and leaves out one that does not read', async () => {
    const { record } = raidRecord(
      { id: 'raid:edited:1', username: 'x', viewers: 1, atMs: Date.now(), receivedAtMs: Date.now(), timed: true },
      STREAMER_USER_ID,
    );
    const body = (raid: unknown) => JSON.stringify({ broadcaster: { user_id: STREAMER_USER_ID }, raid });
    const hostile = {
      ...record,
      body: body({
        id: 'raid:edited:1',
        username: `<script>alert(1)</script>\u202e${'w'.repeat(5000)}`,
        viewers: -1e9,
        at_ms: Date.now(),
        received_at_ms: Date.now(),
      }),
    };
    const broken = { ...record, messageId: 'live-socket:raid:broken', body: body({ id: 'raid:broken', username: 7 }) };
    await restart(() => appendToJournal([hostile, broken]));
    const items = await feed();
    const edited = raidsIn(items).filter((item) => item.id === 'raid:edited:1');
    expect(edited).toHaveLength(1);
    expect(edited[0]!.username).toBe(`<script>alert(1)</script>${'w'.repeat(25)}`);
    expect(edited[0]!.text).toMatch(/ raided with 0 viewers$/);
    // Nothing else of either record: no entry for an event Greenroom did not understand.
    expect(items.filter((item) => item.eventType === 'greenroom.raid' || item.id.includes('broken'))).toHaveLength(0);
    expect(fx.logs.filter((line) => line.includes('could not be read'))).toHaveLength(1);
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

  it("keeps a follow judged late by Kick's delay late across a restart, in the same digest", async () => {
    // Chat whose webhooks say Kick delivers ten minutes late: Health's delay, by which a follow is judged.
    for (let i = 0; i < 5; i++) {
      triggerEvent(fx.app.sandbox!.ctx, 'chat.message.sent', {
        overrides: { content: `old line ${i}`, created_at: new Date(Date.now() - 10 * 60_000).toISOString() },
      });
    }
    await webhooksDelivered(fx.app);
    expect(fx.app.snapshot().health.lag.p50Ms).toBeGreaterThan(120_000);
    triggerEvent(fx.app.sandbox!.ctx, 'channel.followed', {
      overrides: { follower: { user_id: FIRST_VIEWER_USER_ID + 7 } },
    });
    await webhooksDelivered(fx.app);
    const follow = (await feed()).findLast((item) => item.kind === 'follow');
    expect(follow?.late).toBe(true);
    await lateSub(4, 10);
    const digests = digestsIn(await feed());
    expect(digests.at(-1)!.lateDigest!.entries.map((e) => e.id)).toContain(follow!.id);

    // The next start knows no delay yet: the journaled verdict keeps the follow late and the episode whole.
    await restart();
    expect(digestsIn(await feed())).toEqual(digests);
    expect((await feed()).find((item) => item.id === follow!.id)?.late).toBe(true);
  });
});
