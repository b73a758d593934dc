/**
 * A line on Kick's live socket (unsigned) and Kick's signed webhook under the same message id, saying different
 * words or naming another sender: the signed webhook is the record. In the whole app on the embedded sandbox
 * (real receiver over HTTP, real journal): it is journaled, shown in the socket line's place, judged by
 * auto-moderation, heard by the bot without a second reply to one line, and a restart shows it once.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CHAT_BOT_SETTINGS } from '../../../shared/chat-bot';
import type { ChatMessageView } from '../../../shared/views';
import { openSettings } from '../../../electron/app/settings';
import { socketTime } from '../../../sandbox/live-socket/frames';
import { chatroomIdOf } from '../../../sandbox/live-socket/ids';
import { triggerEvent } from '../../../sandbox/triggers';
import { FIRST_VIEWER_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import { type AutomodApp, call } from './automod-fixtures';
import { botPosts, shown, startLiveApp, until, webhooksDelivered } from './live-merge-fixtures';

const NOTICE = "a chat line from the live socket differed from Kick's signed copy; the signed copy is shown";

let fx: AutomodApp;
let dir: string;
let replaced: ChatMessageView[] = [];

async function start(delaySeconds: number): Promise<void> {
  fx = await startLiveApp(dir, delaySeconds);
  replaced = [];
  fx.app.events.on('chat:replaced', ({ message }) => replaced.push(message));
}

/** `!echo <words>` answered "echo <words>": each reply names the line it answers. */
function withEchoCommand(): void {
  const settings = openSettings(dir, { randomBytes });
  const chatBot = structuredClone(DEFAULT_CHAT_BOT_SETTINGS);
  chatBot.commands = [
    {
      name: 'echo',
      aliases: [],
      reply: 'echo {args}',
      permission: 'everyone',
      cooldownSec: 0,
      userCooldownSec: 0,
      sendAs: 'bot',
      enabled: true,
    },
  ];
  settings.update({ chatBot });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'greenroom-signed-over-'));
  withEchoCommand();
  await start(1);
}, 30_000);

afterAll(async () => {
  await fx?.app.stop();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A line only the socket tells (the sandbox's own webhook never comes): Kick's time to the second, or `offMs` off
 * it, which gives the line another key than its webhook's.
 */
async function socketSays(
  content: string,
  senderId = FIRST_VIEWER_USER_ID,
  offMs = 0,
): Promise<{ id: string; atMs: number }> {
  const id = randomUUID();
  const atMs = Math.floor(Date.now() / 1000) * 1000;
  const username = fx.app.sandbox!.ctx.state.user(senderId)!.username;
  fx.app.sandbox!.ctx.state.emitLive({
    broadcasterUserId: STREAMER_USER_ID,
    room: 'chatrooms.v2',
    event: 'App\\Events\\ChatMessageEvent',
    data: {
      id,
      chatroom_id: chatroomIdOf(STREAMER_USER_ID),
      content,
      type: 'message',
      created_at: socketTime(atMs + offMs),
      sender: { id: senderId, username, slug: username },
    },
  });
  await shown(fx, id);
  return { id, atMs };
}

/** Kick's signed webhook for the line, in the same second; its socket frame is a copy the socket merge drops. */
async function webhookSays(line: { id: string; atMs: number }, content: string, senderId = FIRST_VIEWER_USER_ID) {
  triggerEvent(fx.app.sandbox!.ctx, 'chat.message.sent', {
    overrides: {
      message_id: line.id,
      content,
      created_at: new Date(line.atMs + 200).toISOString(),
      sender: { user_id: senderId },
    },
  });
  await webhooksDelivered(fx.app);
}

const history = async (id: string) => (await call(fx.app, 'chat:history')).filter((m) => m.messageId === id);
const notices = () => fx.logs.filter((line) => line.includes(NOTICE)).length;

describe('a socket line and a signed webhook that disagree', () => {
  it("shows the signed words in the socket line's place, and says so once", async () => {
    const before = await socketSays('before the claim');
    const line = await socketSays('socket says A');
    const after = await socketSays('after the claim');
    const logged = notices();
    await webhookSays(line, 'signed says B');
    expect((await history(line.id)).map((m) => m.content)).toEqual(['signed says B']);
    const order = (await call(fx.app, 'chat:history')).map((m) => m.messageId);
    expect(order.indexOf(line.id)).toBe(order.indexOf(before.id) + 1);
    expect(order.indexOf(after.id)).toBe(order.indexOf(line.id) + 1);
    expect(replaced.filter((m) => m.messageId === line.id).map((m) => m.content)).toEqual(['signed says B']);
    expect(notices()).toBe(logged + 1);
  });

  it('takes the signed sender when the socket named another, on the line and the user card', async () => {
    const line = await socketSays('same words, other sender', FIRST_VIEWER_USER_ID + 1);
    await webhookSays(line, 'same words, other sender', FIRST_VIEWER_USER_ID + 2);
    expect((await history(line.id)).map((m) => m.sender.userId)).toEqual([FIRST_VIEWER_USER_ID + 2]);
    const cardLines = async (userId: number) =>
      (await call(fx.app, 'mod:user-card', { userId })).recentMessages.filter((m) => m.messageId === line.id);
    expect(await cardLines(FIRST_VIEWER_USER_ID + 1)).toEqual([]);
    expect((await cardLines(FIRST_VIEWER_USER_ID + 2)).map((m) => m.sender.userId)).toEqual([FIRST_VIEWER_USER_ID + 2]);
  });

  it('changes nothing when they agree: no replacement, no notice', async () => {
    const logged = notices();
    const line = await socketSays('we agree');
    await webhookSays(line, 'we agree');
    expect((await history(line.id)).map((m) => m.content)).toEqual(['we agree']);
    expect(replaced.filter((m) => m.messageId === line.id)).toEqual([]);
    expect(notices()).toBe(logged);
  });

  it('judges the signed words with auto-moderation, which the socket line escaped', async () => {
    const line = await socketSays('a harmless hello');
    expect(fx.actions.filter((a) => a.messageId === line.id)).toHaveLength(0);
    const acted = new Promise<void>((resolve) => {
      const off = fx.app.events.on('mod:action', (action) => action.messageId === line.id && (off(), resolve()));
    });
    await webhookSays(line, 'get free followers now');
    await acted;
    expect((await history(line.id)).map((m) => [m.content, m.deleted])).toEqual([['get free followers now', true]]);
    expect(replaced.find((m) => m.messageId === line.id)?.deleted).toBe(true);
    expect(fx.actions.filter((a) => a.messageId === line.id)).toHaveLength(1);
  });

  it('answers a command the signed words bring, and never a line twice', async () => {
    const posted = (reply: string) => until(fx.app, () => botPosts(fx.app).includes(reply));
    // The socket's words were no command; Kick's are: the bot answers the signed line.
    const quiet = await socketSays('just chatting');
    await webhookSays(quiet, '!echo one');
    await posted('echo one');
    // The socket's command was answered; Kick's other words for that line bring no second reply.
    const asked = await socketSays('!echo two');
    await posted('echo two');
    await webhookSays(asked, '!echo three');
    expect((await history(asked.id)).map((m) => m.content)).toEqual(['!echo three']);
    // The bot posts in order: had the signed line been answered, "echo three" would come before "echo four".
    await socketSays('!echo four');
    await posted('echo four');
    expect(botPosts(fx.app).filter((post) => post.startsWith('echo '))).toEqual(['echo one', 'echo two', 'echo four']);
  });

  it("takes Kick's resend of the signed line, under a new delivery id, as a copy", async () => {
    const line = await socketSays('first words');
    await webhookSays(line, 'the record');
    const duplicates = fx.app.snapshot().health.counters.duplicates;
    await webhookSays(line, 'the record');
    await webhookSays(line, 'a third telling');
    expect((await history(line.id)).map((m) => m.content)).toEqual(['the record']);
    expect(replaced.filter((m) => m.messageId === line.id)).toHaveLength(1);
    expect(fx.app.snapshot().health.counters.duplicates).toBe(duplicates + 2);
  });
});

describe('a socket line that gave another second than Kick', () => {
  it('gives way to the signed words all the same, and only to words that differ', async () => {
    const logged = notices();
    const agreeing = await socketSays('a second early, same words', FIRST_VIEWER_USER_ID, -1000);
    await webhookSays(agreeing, 'a second early, same words');
    expect((await history(agreeing.id)).map((m) => m.content)).toEqual(['a second early, same words']);
    expect(notices()).toBe(logged);
    const line = await socketSays('a second early, socket words', FIRST_VIEWER_USER_ID, -1000);
    await webhookSays(line, 'signed words, on time');
    expect((await history(line.id)).map((m) => m.content)).toEqual(['signed words, on time']);
    expect(notices()).toBe(logged + 1);
    await fx.app.stop();
    await start(1);
    expect((await history(line.id)).map((m) => m.content)).toEqual(['signed words, on time']);
    expect((await history(agreeing.id)).map((m) => m.content)).toEqual(['a second early, same words']);
  });
});

describe('after a restart', () => {
  it('restores the signed words once, where the socket line was', async () => {
    const line = await socketSays('socket before restart');
    await webhookSays(line, 'signed before restart');
    const order = (await call(fx.app, 'chat:history')).map((m) => m.messageId);
    await fx.app.stop();
    await start(1);
    expect((await history(line.id)).map((m) => m.content)).toEqual(['signed before restart']);
    const restored = (await call(fx.app, 'chat:history')).map((m) => m.messageId);
    expect(restored.slice(-order.length)).toEqual(order);
  });

  it("lets a signed line that comes only after the restart win over the socket's, once", async () => {
    const line = await socketSays('socket, then a restart');
    await fx.app.stop();
    await start(0);
    expect((await history(line.id)).map((m) => m.content)).toEqual(['socket, then a restart']);
    await webhookSays(line, 'signed, after the restart');
    expect((await history(line.id)).map((m) => m.content)).toEqual(['signed, after the restart']);
    await fx.app.stop();
    await start(0);
    expect((await history(line.id)).map((m) => m.content)).toEqual(['signed, after the restart']);
  });
});
