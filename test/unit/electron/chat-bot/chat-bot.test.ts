import { describe, expect, it } from 'vitest';
import { channel as liveChannel } from '../app/live-state-fixtures';
import { botSetup, chat, event, gift, redemption, STREAMER_ID } from './chat-bot-fixtures';

const command = (over: Record<string, unknown> = {}) => ({
  name: 'discord',
  aliases: ['dc'],
  reply: 'Join us: discord.gg/example, {user}!',
  permission: 'everyone' as const,
  cooldownSec: 30,
  userCooldownSec: 0,
  sendAs: 'bot' as const,
  enabled: true,
  ...over,
});

describe('chat bot commands', () => {
  it('answers a command and its alias once per cooldown', () => {
    const { bot, sent, timers } = botSetup((s) => (s.commands = [command()]));
    bot.onChat(chat('!discord', 'ana'));
    bot.onChat(chat('!dc', 'ben'));
    expect(sent).toEqual([{ content: 'Join us: discord.gg/example, ana!', as: 'bot', manual: false }]);
    timers.advance(30_000);
    bot.onChat(chat('!DC', 'ben'));
    expect(sent.map((m) => m.content)).toEqual([
      'Join us: discord.gg/example, ana!',
      'Join us: discord.gg/example, ben!',
    ]);
  });

  it('keeps a per-chatter cooldown apart from the command’s', () => {
    const { bot, sent, timers } = botSetup((s) => (s.commands = [command({ cooldownSec: 0, userCooldownSec: 60 })]));
    bot.onChat(chat('!discord', 'ana'));
    bot.onChat(chat('!discord', 'ana'));
    bot.onChat(chat('!discord', 'ben'));
    timers.advance(60_000);
    bot.onChat(chat('!discord', 'ana'));
    expect(sent).toHaveLength(3);
  });

  it('checks the permission level from badges, each level including those above', () => {
    const { bot, sent } = botSetup(
      (s) => (s.commands = [command({ name: 'title', permission: 'vip', cooldownSec: 0 })]),
    );
    bot.onChat(chat('!title', 'sub', [{ type: 'subscriber', text: 'Subscriber' }]));
    bot.onChat(chat('!title', 'vip', [{ type: 'vip', text: 'VIP' }]));
    bot.onChat(chat('!title', 'mod', [{ type: 'moderator', text: 'Moderator' }]));
    expect(sent).toHaveLength(2);
  });

  it('fills {user}, {args}, {title}, {category}, {uptime} and {count}', () => {
    const { bot, sent, timers } = botSetup(
      (s) =>
        (s.commands = [
          command({
            name: 'info',
            cooldownSec: 0,
            reply: '{user} asked {args}: {title} / {category}, live {uptime}, asked {count} times',
          }),
        ]),
    );
    bot.onEvent(
      event('livestream.status.updated', {
        is_live: true,
        title: 'Ranked',
        started_at: new Date(timers.now).toISOString(),
      }),
      true,
    );
    bot.onEvent(
      event('livestream.metadata.updated', { metadata: { title: 'Ranked grind', category: { name: 'Valorant' } } }),
      true,
    );
    timers.advance(83 * 60_000);
    bot.onChat(chat('!info  what is this ', 'ana'));
    bot.onChat(chat('!info', 'ben'));
    expect(sent.map((m) => m.content)).toEqual([
      'ana asked what is this: Ranked grind / Valorant, live 1h 23m, asked 1 times',
      'ben asked : Ranked grind / Valorant, live 1h 23m, asked 2 times',
    ]);
  });

  it('sends nothing while paused', () => {
    const { bot, sent, settings } = botSetup((s) => (s.commands = [command()]));
    settings.paused = true;
    bot.onChat(chat('!discord'));
    expect(sent).toEqual([]);
  });
});

describe('chat bot timers', () => {
  it('posts only while live, after its interval, and after enough chat since it last posted', () => {
    const { bot, sent, timers } = botSetup(
      (s) => (s.timers = [{ message: 'Follow!', everySec: 60, minMessages: 3, enabled: true }]),
    );
    timers.advance(120_000);
    bot.tick();
    expect(sent).toEqual([]); // offline
    bot.onEvent(
      event('livestream.status.updated', { is_live: true, title: 't', started_at: new Date(timers.now).toISOString() }),
      true,
    );
    bot.tick();
    timers.advance(61_000);
    bot.tick();
    expect(sent).toEqual([]); // no chat yet
    bot.onChat(chat('a'));
    bot.onChat(chat('b'));
    bot.tick();
    expect(sent).toEqual([]);
    bot.onChat(chat('c'));
    bot.tick();
    expect(sent.map((m) => m.content)).toEqual(['Follow!']);
    for (const line of ['d', 'e', 'f']) {
      bot.onChat(chat(line));
    }
    bot.tick();
    expect(sent).toHaveLength(1); // the interval again first
  });
});

const offlineChannel = () => liveChannel(false, { id: STREAMER_ID });

describe('chat bot timers after a restart', () => {
  const setup = () =>
    botSetup((s) => (s.timers = [{ message: 'Follow!', everySec: 60, minMessages: 0, enabled: true }]));
  const wentLive = (at: number) =>
    event('livestream.status.updated', { is_live: true, title: 't', started_at: new Date(at).toISOString() }, at);

  it('posts nothing while only the journal says live, nor once Kick says offline', async () => {
    const { bot, live, sent, timers } = setup();
    bot.onEvent(wentLive(timers.now - 3_600_000), false); // the journal's last word: live
    for (let i = 0; i < 10; i++) {
      timers.advance(61_000);
      bot.tick();
    }
    expect(sent).toEqual([]);
    await live.ask(() => Promise.resolve(offlineChannel()));
    for (let i = 0; i < 10; i++) {
      timers.advance(61_000);
      bot.tick();
    }
    expect(sent).toEqual([]);
  });

  it('posts a full interval after Kick says live', async () => {
    const { bot, live, sent, timers } = setup();
    bot.onEvent(wentLive(timers.now - 3_600_000), false);
    await live.ask(() =>
      Promise.resolve({ ...offlineChannel(), stream: { ...offlineChannel().stream, is_live: true } }),
    );
    bot.tick();
    timers.advance(59_000);
    bot.tick();
    expect(sent).toEqual([]);
    timers.advance(1_000);
    bot.tick();
    expect(sent.map((m) => m.content)).toEqual(['Follow!']);
  });
});

describe('chat bot event replies', () => {
  it('thanks a sub train of 20 gifts once, combined', () => {
    const { bot, sent, timers } = botSetup((s) => (s.replies['gifted-subs'].enabled = true));
    for (let i = 0; i < 20; i++) {
      bot.onEvent(gift(i < 10 ? 'ana' : 'ben', 1), true);
      timers.advance(500);
    }
    expect(sent).toEqual([]);
    timers.advance(10_000);
    expect(sent.map((m) => m.content)).toEqual(['Thank you ana and ben for the 20 gifted subs!']);
  });

  it('applies the minimum, never thanks the journal’s events, and sends a long train by the 60 s cap', () => {
    const { bot, sent, timers } = botSetup((s) => {
      s.replies['gifted-subs'] = {
        enabled: true,
        template: '{user}: {count}',
        minAmount: 5,
        combineSec: 10,
        rewards: [],
      };
    });
    bot.onEvent(gift('small', 1), true);
    bot.onEvent(gift('old', 10), false);
    timers.advance(20_000);
    expect(sent).toEqual([]);
    for (let i = 0; i < 30; i++) {
      bot.onEvent(gift('big', 5), true);
      timers.advance(5000);
    }
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent[0]!.content).toBe('big: 60');
  });

  it('answers redemptions of the chosen rewards only, each reward in its own message', () => {
    const { bot, sent, timers } = botSetup((s) => {
      s.replies.redemption = {
        enabled: true,
        template: '{user} redeemed {reward}',
        minAmount: 0,
        combineSec: 5,
        rewards: ['Hydrate', 'song request'],
      };
    });
    bot.onEvent(redemption('ana', 'hydrate'), true);
    bot.onEvent(redemption('ben', 'Song Request'), true);
    bot.onEvent(redemption('cy', 'Hydrate'), true);
    bot.onEvent(redemption('dee', 'Timeout a mod'), true);
    timers.advance(6000);
    expect(sent.map((m) => m.content).sort()).toEqual(['ana and cy redeemed hydrate', 'ben redeemed Song Request']);
  });
});
