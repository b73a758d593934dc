/**
 * The chat bot never feeds itself (../../../docs/chat-bot.md#who-the-bot-never-answers), through the real entry
 * point: each chat line is a signed webhook the sandbox POSTs to the app's receiver, and what the bot posts
 * is counted in the sandbox's own chat. Probe findings: a `say` command answering `{args}` with no cooldown
 * turned one line of `!s ` ×20 into 20 posts (a 500-character line, about 166), and the bot answered BotRix.
 */
import { describe, expect, it } from 'vitest';
import {
  appPosts,
  BOT_USER_ID,
  command,
  fx,
  heard,
  mark,
  say,
  settle,
  STREAMER_USER_ID,
  useChatBotApp,
} from './chat-bot-fixtures';

useChatBotApp([
  command('say', '{args}', { aliases: ['s'] }),
  command('ping', '!ping pong'),
  // Sent as the streamer, starting with a `!` the streamer wrote: its echo carries the broadcaster's badge.
  command('hello', '!hello {user}', { sendAs: 'user' }),
  command('discord', 'Our Discord: discord.gg/greenroom'),
]);

/** The app's posts since `since`, without the markers `settle` asks for. */
const answers = (since: number): string[] =>
  appPosts(since)
    .map((m) => m.content)
    .filter((content) => !content.startsWith('marker '));

describe('the chat bot never answers itself', () => {
  it('answers one line of `!s ` ×20 once', async () => {
    const since = mark();
    const echo = heard((m) => m.sender.userId === BOT_USER_ID);
    say('!s '.repeat(20).trim());
    await echo;
    await settle(since);
    expect(answers(since)).toEqual(['!s '.repeat(19).trim()]);
  });

  it('answers a 500-character line of `!s ` once', async () => {
    const since = mark();
    const line = '!s '.repeat(167).slice(0, 500);
    const echo = heard((m) => m.sender.userId === BOT_USER_ID);
    say(line);
    await echo;
    await settle(since);
    expect(answers(since)).toEqual([line.slice(3)]);
  });

  it('does not answer its own echo sent as the bot', async () => {
    const since = mark();
    const echo = heard((m) => m.sender.userId === BOT_USER_ID && m.content === '!ping pong');
    say('!ping');
    await echo;
    await settle(since);
    expect(answers(since)).toEqual(['!ping pong']);
  });

  it('does not answer its own echo sent as the streamer, broadcaster badge and all', async () => {
    const since = mark();
    const echo = heard((m) => m.sender.userId === STREAMER_USER_ID);
    say('!hello');
    const heardEcho = await echo;
    expect(heardEcho.sender.badges.map((b) => b.type)).toContain('broadcaster');
    await settle(since);
    expect(answers(since)).toHaveLength(1);
    expect(appPosts(since)[0]).toMatchObject({
      senderUserId: STREAMER_USER_ID,
      content: expect.stringMatching(/^!hello \w+$/),
    });
  });

  it('does not answer BotRix, a bot on the channel’s bot list', async () => {
    const since = mark();
    const botrix = heard((m) => m.sender.username === 'BotRix');
    say('!discord', fx.botrix);
    await botrix;
    await settle(since);
    expect(answers(since)).toEqual([]);
    // The same command from a viewer is answered: the list, not the command, kept BotRix out.
    say('!discord');
    await settle(since);
    expect(answers(since)).toEqual(['Our Discord: discord.gg/greenroom']);
  });
});
