/**
 * Raids in the built app on the embedded sandbox, which plays Kick's live socket: the sandbox's raid trigger
 * sends the host twice (v2 and v1, as Kick does) and the app makes one feed entry, one alert and one
 * welcome in chat of it, even when the twins disagree on the viewers. Hostile hosts arrive as raw frames on the same socket.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHAT_BOT_SETTINGS } from '../../../shared/chat-bot';
import type { LiveEvent } from '../../../shared/kick/live-events';
import type { FeedItem } from '../../../shared/views';
import { STREAMER_USER_ID } from '../../../sandbox/world';
import { RAID_TIME_WAIT_MS } from '../../../electron/services/raids';
import { callAdmin, untilSocketListening } from '../../helpers/sandbox';
import { browser, call, fx, logs, received, useSetup } from '../app/create-app-sandbox-mode-fixtures';

useSetup({ liveSocket: true });

/** Resolves with the `n`-th live event from now that satisfies `check`. */
function nth(n: number, check: (event: LiveEvent) => boolean): Promise<LiveEvent> {
  let seen = 0;
  return new Promise((resolve) => {
    const off = fx.app.liveSocket.onEvent((event) => {
      if (check(event) && ++seen === n) {
        off();
        resolve(event);
      }
    });
  });
}

/** A host without Kick's time waits for its twin's (RAID_TIME_WAIT_MS) before it shows. */
const HELD = { timeout: RAID_TIME_WAIT_MS + 3000 };
const chatSaying = (content: string) => nth(1, (e) => e.type === 'chat.message' && e.content === content);
const raids = (): FeedItem[] =>
  received['kick:event'].flatMap((e) => (e.kind === 'feed' && e.item.kind === 'raid' ? [e.item] : []));
const sentChat = (): string[] => [...fx.sandbox.ctx.state.chatMessages.values()].map((m) => m.content);
const waiting = () => fx.app.overlays.hub.alerts.view().waiting;

let afterCount = 0;
/**
 * Sends a raid with a good name and waits for its welcome in the sandbox's chat: the bot's queue is in order, so
 * a welcome for any raid before it would be there by then. Read from the sandbox's chat, not the socket's echo: a
 * socket reconnect under load would lose the echo, not the line.
 */
async function welcomedNext(): Promise<void> {
  const name = `after_odd_${++afterCount}`;
  hostFrame({ host_username: name, number_viewers: 1 });
  await expect.poll(() => sentChat().includes(`Welcome raiders from ${name}!`), { timeout: 30_000 }).toBe(true);
}

/** Sends a host frame straight onto the sandbox's socket, as a changed or hostile Kick might. */
function hostFrame(data: Record<string, unknown>): void {
  fx.sandbox.ctx.state.emitLive({
    broadcasterUserId: STREAMER_USER_ID,
    room: 'chatrooms.v2',
    event: 'App\\Events\\StreamHostEvent',
    data: { chatroom_id: 1, optional_message: '', ...data },
  });
}

describe('raids in the app', () => {
  it('connects once signed in, with the raid welcome on', async () => {
    await call('auth:start-login', {});
    await browser.settled();
    await new Promise<void>((resolve) => {
      const check = () => fx.app.liveSocket.health().state === 'connected' && (off(), resolve());
      const off = fx.app.events.on('health:changed', () => void check());
      void check();
    });
    // Raids come by the socket only: sent once the sandbox has the app's subscriptions.
    await untilSocketListening(fx.sandbox);
    const chatBot = structuredClone(DEFAULT_CHAT_BOT_SETTINGS);
    chatBot.replies.raid = { ...chatBot.replies.raid, enabled: true, combineSec: 0 };
    await call('settings:update', { chatBot });
  });

  it('makes one feed entry, one alert and one welcome of a raid Kick sends twice', async () => {
    // Both copies: the raid is acted on when the old-style one brings Kick's time.
    const hosts = nth(2, (event) => event.type === 'host');
    const welcome = chatSaying('Welcome raiders from xqc_sb!');
    const res = await callAdmin(fx.sandbox, 'POST', '/live-socket/host', {
      body: { host_username: 'xqc_sb', viewers: 120, message: 'hi' },
    });
    expect(res.status, res.text).toBe(200);
    await hosts;
    expect(raids().map((item) => item.text)).toEqual(['xqc_sb raided with 120 viewers']);
    expect(fx.app.overlays.hub.alerts.view().tooOld.count).toBe(0);
    expect(waiting()).toBe(1);
    await welcome;

    // A second raid's welcome goes out after any second welcome for the first (one queue, in order).
    const second = chatSaying('Welcome raiders from adinross_sb!');
    const welcomes: string[] = [];
    const off = fx.app.liveSocket.onEvent((e) => e.type === 'chat.message' && welcomes.push(e.content));
    const again = await callAdmin(fx.sandbox, 'POST', '/live-socket/host', {
      body: { host_username: 'adinross_sb', viewers: 1, message: 'hello' },
    });
    expect(again.status, again.text).toBe(200);
    await second;
    off();
    expect(welcomes.filter((c) => c.startsWith('Welcome raiders from xqc_sb'))).toEqual([]);
    expect(raids().map((item) => item.text)).toEqual([
      'xqc_sb raided with 120 viewers',
      'adinross_sb raided with 1 viewer',
    ]);
    expect(waiting()).toBe(2);
  });

  it('makes one raid of twins that disagree on the viewers', async () => {
    const before = raids().length;
    const twins = nth(2, (e) => e.type === 'host');
    hostFrame({ host_username: 'amouranth_sb', number_viewers: 300 });
    fx.sandbox.ctx.state.emitLive({
      broadcasterUserId: STREAMER_USER_ID,
      room: 'chatrooms.v2',
      event: 'App\\Events\\StreamHostedEvent',
      data: { message: { id: 'm1', numberOfViewers: 302, createdAt: null }, user: { id: 7, username: 'Amouranth_SB' } },
    });
    await twins;
    // Neither copy carries Kick's time, so the raid waits out its twin's time before it shows.
    await expect
      .poll(
        () =>
          raids()
            .slice(before)
            .map((item) => item.text),
        HELD,
      )
      .toEqual(['amouranth_sb raided with 300 viewers']);
  });

  it("records a raid Kick's time says is old, marked late, with no alert or welcome, in the late digest", async () => {
    const before = raids().length;
    const tooOld = fx.app.overlays.hub.alerts.view().tooOld.count;
    const waitingBefore = waiting();
    const twins = nth(2, (e) => e.type === 'host');
    // As Kick sends it: the new-style copy without a time first, then its twin with Kick's time, 10 minutes ago.
    hostFrame({ host_username: 'late_raider', number_viewers: 40 });
    fx.sandbox.ctx.state.emitLive({
      broadcasterUserId: STREAMER_USER_ID,
      room: 'chatrooms.v2',
      event: 'App\\Events\\StreamHostedEvent',
      data: {
        message: { id: 'm2', numberOfViewers: 40, createdAt: new Date(Date.now() - 10 * 60_000).toISOString() },
        user: { id: 8, username: 'late_raider' },
      },
    });
    await twins;
    await expect.poll(() => raids().slice(before), HELD).toHaveLength(1);
    expect(raids().at(-1)).toMatchObject({ text: 'late_raider raided with 40 viewers', late: true });
    expect(fx.app.overlays.hub.alerts.view().tooOld.count).toBe(tooOld + 1);
    expect(waiting()).toBe(waitingBefore);
    const digest = (await call('feed:history')).find((item) => item.lateDigest);
    expect(digest?.lateDigest?.entries.map((e) => e.text)).toEqual(['late_raider raided with 40 viewers']);
    // A later raid on time gets its welcome; the late one none, though the bot's queue has had its turn.
    const welcome = chatSaying('Welcome raiders from after_late!');
    hostFrame({ host_username: 'after_late', number_viewers: 3 });
    await welcome;
    expect(sentChat().filter((c) => c.includes('late_raider'))).toEqual([]);
  });

  it('shows a host name with HTML as text, without control characters, cut to length, and does not welcome it', async () => {
    const name = '<img src=x onerror="alert(1)">\u202e\u0007';
    const host = nth(1, (e) => e.type === 'host');
    hostFrame({ host_username: name, number_viewers: 5 });
    await host;
    await expect.poll(() => raids().at(-1)?.username, HELD).toBe('<img src=x onerror="alert(1)">');
    expect(raids().at(-1)).toMatchObject({
      username: '<img src=x onerror="alert(1)">',
      text: '<img src=x onerror="alert(1)"> raided with 5 viewers',
    });

    const long = nth(1, (e) => e.type === 'host');
    hostFrame({ host_username: 'x'.repeat(10_000), number_viewers: 5 });
    await long;
    await expect.poll(() => raids().at(-1)!.username, HELD).toBe('x'.repeat(50));
    await welcomedNext();
    expect(sentChat().filter((c) => c.includes('<img') || c.includes('xxxxx'))).toEqual([]);
  });

  it('welcomes only a raider whose name is a Kick username; another is in the feed and the alert box', async () => {
    const alerts = waiting();
    const host = nth(1, (e) => e.type === 'host');
    hostFrame({ host_username: 'visit evil.example now', number_viewers: 9 });
    await host;
    await expect.poll(() => raids().at(-1)?.text, HELD).toBe('visit evil.example now raided with 9 viewers');
    expect(waiting()).toBe(alerts + 1);
    for (const name of ['evil.example', '!ban streamer', 'raider😀', 'x'.repeat(26)]) {
      const next = nth(1, (e) => e.type === 'host');
      hostFrame({ host_username: name, number_viewers: 2 });
      await next;
      await expect.poll(() => raids().at(-1)?.username, HELD).toBe(name);
    }
    await welcomedNext();
    expect(sentChat().filter((c) => /evil|!ban|😀|x{26}/u.test(c))).toEqual([]);
    expect(logs.filter((line) => line.includes('not a Kick username'))).toHaveLength(1);
  });

  it('bounds a negative, fractional or absurd viewer count', async () => {
    const cases: [unknown, string][] = [
      [-50, 'neg_raider raided with 0 viewers'],
      [12.7, 'neg_raider2 raided with 12 viewers'],
      [1e15, 'neg_raider3 raided with 10,000,000 viewers'],
    ];
    for (const [i, [viewers, text]] of cases.entries()) {
      const host = nth(1, (e) => e.type === 'host');
      hostFrame({ host_username: i === 0 ? 'neg_raider' : `neg_raider${i + 1}`, number_viewers: viewers });
      await host;
      await expect.poll(() => raids().at(-1)!.text, HELD).toBe(text);
    }
  });
});
