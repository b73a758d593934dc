/**
 * Who the bot answers, and from which account (../../../../docs/chat-bot.md#who-the-bot-never-answers,
 * ../../../../docs/chat-bot.md#replies-sent-as-you). The same attacks through the app's webhook receiver are in
 * test/integration/app/chat-bot-loops.test.ts and chat-bot-as-streamer.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { ChatCommand } from '../../../../shared/chat-bot';
import { botSetup, chat, event, gift, STREAMER_ID } from './chat-bot-fixtures';

const say = (over: Partial<ChatCommand> = {}): ChatCommand => ({
  name: 'say',
  aliases: ['s'],
  reply: '{args}',
  permission: 'everyone',
  cooldownSec: 0,
  userCooldownSec: 0,
  sendAs: 'bot',
  enabled: true,
  ...over,
});

describe('the chat bot never answers a bot', () => {
  it('skips an account with Kick’s bot badge and the names on the bot list, in any case', () => {
    const { bot, sent } = botSetup((s) => (s.commands = [say()]));
    bot.onChat(chat('!s hi', 'otherbot', [{ type: 'bot', text: 'Bot' }]));
    bot.onChat(chat('!s hi', 'botrix'));
    bot.onChat(chat('!s hi', 'KICKBOT'));
    expect(sent).toEqual([]);
    bot.onChat(chat('!s hi', 'ana'));
    expect(sent.map((m) => m.content)).toEqual(['hi']);
  });

  it('skips the echo of its own reply, and does not count it towards a timer', () => {
    const { bot, sent, own, timers } = botSetup((s) => {
      s.commands = [say()];
      s.timers = [{ message: 'Follow!', everySec: 60, minMessages: 2, enabled: true }];
    });
    bot.onEvent(
      event('livestream.status.updated', { is_live: true, title: 't', started_at: new Date(timers.now).toISOString() }),
      true,
    );
    bot.onChat(chat('!s !s !s', 'ana'));
    own.sending(sent[0]!).sent('echo-1');
    bot.onChat({ ...chat('!s !s', 'greenroom_bot', [], 77), messageId: 'echo-1' });
    expect(sent.map((m) => m.content)).toEqual(['!s !s']);
    timers.advance(61_000);
    bot.tick();
    expect(sent).toHaveLength(1); // one chat message from a person, not two
  });

  it('answers one message once, even delivered twice', () => {
    const { bot, sent } = botSetup((s) => (s.commands = [say()]));
    const line = chat('!s hi', 'ana');
    bot.onChat(line);
    bot.onChat({ ...line });
    expect(sent).toHaveLength(1);
  });
});

describe('a reply meant to go out as the streamer', () => {
  it('goes out as the bot when a viewer would start it, and says so in the log', () => {
    const { bot, sent, logs } = botSetup((s) => (s.commands = [say({ sendAs: 'user' })]));
    bot.onChat(chat('!s !ban victim says hi', 'ana'));
    expect(sent).toEqual([{ content: '!ban victim says hi', as: 'bot', manual: false }]);
    expect(logs).toEqual([
      'chat bot: the reply to !say was sent as the bot, not as you: its template starts with {args}, which a viewer chooses',
    ]);
  });

  it('goes out as the streamer when the streamer’s words come first', () => {
    const { bot, sent } = botSetup((s) => (s.commands = [say({ sendAs: 'user', reply: 'You said: {args}' })]));
    bot.onChat(chat('!s !ban victim', 'ana', [], STREAMER_ID + 1));
    expect(sent).toEqual([{ content: 'You said: !ban victim', as: 'user', manual: false }]);
  });

  it('thanks an event as the bot when its template starts with the viewer’s name', () => {
    const { bot, sent, timers } = botSetup((s) => {
      s.sendRepliesAs = 'user';
      s.replies['gifted-subs'] = { ...s.replies['gifted-subs'], enabled: true, template: '{user} gifted {count}' };
    });
    bot.onEvent(gift('ana', 3), true);
    timers.advance(10_000);
    expect(sent).toEqual([{ content: 'ana gifted 3', as: 'bot', manual: false }]);
  });
});
