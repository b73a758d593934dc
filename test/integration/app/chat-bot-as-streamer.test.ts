/**
 * Replies sent as the streamer never start with a viewer's words (../../../docs/chat-bot.md#replies-sent-as-you),
 * through the real entry points: chat lines as signed webhooks to the app's receiver, Save as
 * `settings:update` through the router. Probe finding: a command sent as the streamer answering `{args}` let
 * a viewer's `!s !ban victim says hi` post `!ban victim says hi` from the streamer's account. The commands
 * here come from the settings file, as an older or hand-edited file holds them: Save refuses them.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHAT_BOT_SETTINGS } from '../../../shared/chat-bot';
import { triggerEvent } from '../../../sandbox/triggers';
import {
  appPosts,
  BOT_USER_ID,
  command,
  fx,
  announced,
  heard,
  invoke,
  mark,
  say,
  settle,
  STREAMER_USER_ID,
  useChatBotApp,
} from './chat-bot-fixtures';

useChatBotApp([
  command('say', '{args}', { aliases: ['s'], sendAs: 'user' }),
  command('echo', '{category}{args}', { sendAs: 'user' }),
  command('status', '{title} is on, {user}', { sendAs: 'user' }),
  command('discord', 'Our Discord: discord.gg/greenroom'),
  // An invisible "letter" (Hangul filler, category Lo) is not words the streamer wrote.
  command('filler', '\u3164{args}', { sendAs: 'user' }),
]);

/** Characters Unicode files as letters but no one sees: each would pass for the streamer's own words. */
const INVISIBLE_LETTERS = ['\u3164', '\u115f', '\u1160', '\uffa0'];

const fromStreamer = (since: number) => appPosts(since).filter((m) => m.senderUserId === STREAMER_USER_ID);
const fromBot = (since: number) =>
  appPosts(since).filter((m) => m.senderUserId === BOT_USER_ID && !m.content.startsWith('marker '));

describe('a reply sent as the streamer', () => {
  it('never posts a viewer’s `!ban victim says hi` from the streamer’s account', async () => {
    const since = mark();
    say('!s !ban victim says hi');
    await settle(since);
    expect(fromStreamer(since)).toEqual([]);
    // The chatter still gets the answer, from the bot's account.
    expect(fromBot(since).map((m) => m.content)).toEqual(['!ban victim says hi']);
  });

  it('never lets a field with nothing in it put the viewer’s words first', async () => {
    // The channel has no category (Kick's empty one), so `{category}{args}` renders as the viewer's words alone.
    fx.sandbox.ctx.state.channels.get(STREAMER_USER_ID)!.categoryId = 0;
    const uncategorised = announced((e) => e.kind !== 'chat' && e.item.kind === 'metadata');
    // A new title only (a trigger left to itself may move the channel to another category).
    triggerEvent(fx.sandbox.ctx, 'livestream.metadata.updated', { overrides: { metadata: { title: 'Chatting' } } });
    await uncategorised;
    const since = mark();
    say('!echo \u200b/ban victim');
    await settle(since);
    expect(fromStreamer(since)).toEqual([]);
    expect(fromBot(since).map((m) => m.content)).toEqual(['\u200b/ban victim']);
  });

  it('never lets an invisible letter stand in for the streamer’s words', async () => {
    const since = mark();
    say('!filler !ban streamer');
    await settle(since);
    expect(fromStreamer(since)).toEqual([]);
    expect(fromBot(since).map((m) => m.content)).toEqual(['\u3164!ban streamer']);
  });

  it('never starts with a `!` the streamer did not write, whichever field brought it', async () => {
    // A title an editor set, say: not a viewer's field, but it would lead the message.
    const titled = announced((e) => e.kind !== 'chat' && e.item.kind === 'metadata');
    triggerEvent(fx.sandbox.ctx, 'livestream.metadata.updated', { overrides: { metadata: { title: '!ban victim' } } });
    await titled;
    const since = mark();
    say('!status');
    await settle(since);
    expect(fromStreamer(since)).toEqual([]);
    expect(fromBot(since).map((m) => m.content)).toEqual([expect.stringMatching(/^!ban victim is on, \w+$/)]);
  });

  it('still answers the streamer’s own command typed in the panel', async () => {
    const since = mark();
    // Heard back through the receiver like any chat line, before the marker is said behind it.
    const echo = heard((m) => m.content === '!discord' && m.sender.userId === STREAMER_USER_ID);
    const sent = await invoke('chat:send', { content: '!discord', as: 'user' });
    expect(sent.ok).toBe(true);
    await echo;
    await settle(since);
    expect(fromBot(since).map((m) => m.content)).toEqual(['Our Discord: discord.gg/greenroom']);
  });
});

describe('Save', () => {
  const save = async (reply: string, sendAs: 'bot' | 'user') => {
    const chatBot = structuredClone(DEFAULT_CHAT_BOT_SETTINGS);
    chatBot.commands = [command('say', reply, { sendAs })];
    return invoke('settings:update', { chatBot });
  };

  it('refuses a reply sent as the streamer that a viewer would start, naming the field and why', async () => {
    const before = await invoke('settings:get');
    for (const reply of ['{args}', ' {user} asked', '{category}{args}', '!{args}', '{title} — {args}']) {
      const result = await save(reply, 'user');
      expect(result.ok, reply).toBe(false);
      expect(!result.ok && result.error).toMatchObject({
        code: 'InvalidArgument',
        message: expect.stringContaining(
          'chatBot.commands.0.reply: The reply to !say goes out as you, so it must start with words you wrote',
        ),
      });
    }
    expect(await invoke('settings:get')).toEqual(before);
  });

  it('refuses a reply that starts with an invisible letter before the viewer’s field', async () => {
    const before = await invoke('settings:get');
    for (const reply of [...INVISIBLE_LETTERS.map((c) => `${c}{args}`), '\u3164\u200b\u0001 {user} asked']) {
      const result = await save(reply, 'user');
      expect(result.ok, JSON.stringify(reply)).toBe(false);
      expect(!result.ok && result.error.message).toContain(
        'chatBot.commands.0.reply: The reply to !say goes out as you',
      );
    }
    expect(await invoke('settings:get')).toEqual(before);
    expect((await save('\u3164Hi {user}', 'user')).ok).toBe(true);
  });

  it('keeps such a reply when it goes out as the bot, and words-first replies as the streamer', async () => {
    expect((await save('{args}', 'bot')).ok).toBe(true);
    expect((await save('You said: {args}', 'user')).ok).toBe(true);
  });

  it('refuses an event reply sent as the streamer that starts with the viewer’s name', async () => {
    const chatBot = structuredClone(DEFAULT_CHAT_BOT_SETTINGS);
    chatBot.sendRepliesAs = 'user';
    chatBot.replies.follow = { ...chatBot.replies.follow, enabled: true, template: '{user} followed!' };
    const result = await invoke('settings:update', { chatBot });
    expect(!result.ok && result.error.message).toContain(
      'chatBot.replies.follow.template: The follow reply goes out as you',
    );
    chatBot.replies.follow.template = 'Thanks for the follow, {user}!';
    expect((await invoke('settings:update', { chatBot })).ok).toBe(true);
  });
});
