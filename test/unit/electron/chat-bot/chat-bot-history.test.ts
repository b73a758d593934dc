/**
 * Chat variables from the stream history (../../../../docs/chat-bot.md#chat-variables-from-the-history):
 * `{followage}` honest about where Greenroom's knowledge starts, `{streams}` attended, plain words where the
 * history does not run, and nothing a viewer types ever expanded. The history here is a small in-memory one
 * that answers as electron/history/viewer-recall.ts does (that module is tested against the real store).
 */
import { describe, expect, it } from 'vitest';
import type { BotHistory } from '../../../../electron/chat-bot/history-variables';
import {
  durationWords,
  FOLLOWAGE_UNAVAILABLE,
  STREAMS_UNAVAILABLE,
} from '../../../../electron/chat-bot/history-variables';
import type { ChatCommand } from '../../../../shared/chat-bot';
import type { ChatMessageView } from '../../../../shared/views';
import { botSetup, chat } from './chat-bot-fixtures';

const command = (name: string, reply: string): ChatCommand => ({
  name,
  aliases: [],
  reply,
  permission: 'everyone',
  cooldownSec: 0,
  userCooldownSec: 0,
  sendAs: 'bot',
  enabled: true,
});

const DAY = 24 * 60 * 60 * 1000;

function history(): BotHistory {
  // Greenroom has watched since day 0. ana followed on day 10; ben's follow was seen on day 0, the first day it
  // watched; cleo never followed where it saw.
  const since = 0;
  const viewers: Record<number, { followedAtMs: number | null; streams: number }> = {
    101: { followedAtMs: 10 * DAY, streams: 7 },
    102: { followedAtMs: 0, streams: 1 },
    103: { followedAtMs: null, streams: 3 },
  };
  return {
    recall: (userId) => {
      const v = viewers[userId];
      return {
        followedAtMs: v?.followedAtMs ?? null,
        historySinceMs: since,
        streams: v?.streams ?? 0,
        lastSeenBeforeMs: null,
      };
    },
  };
}

const by = (content: string, username: string, userId: number): ChatMessageView => ({
  ...chat(content, username, [], userId),
  sentAtMs: 100 * DAY,
});

describe('{followage} and {streams} in a command', () => {
  const setup = (reply: string, withHistory = true) => {
    const t = botSetup((s) => (s.commands = [command('followage', reply)]), withHistory ? history() : undefined);
    t.timers.now = 102 * DAY + 5 * 60_000;
    return t;
  };

  it('says how long ago a follow Greenroom saw was, and the streams attended', () => {
    const { bot, sent } = setup('{user} {followage}, here for {streams} streams');
    bot.onChat(by('!followage', 'ana', 101));
    expect(sent.map((m) => m.content)).toEqual(['ana followed 3 months ago, here for 7 streams']);
  });

  it('says "at least" for a follow seen when Greenroom started watching, and plain words for none', () => {
    const { bot, sent, timers } = setup('{user} {followage}');
    bot.onChat(by('!followage', 'ben', 102));
    timers.advance(60_000);
    bot.onChat(by('!followage', 'cleo', 103));
    timers.advance(60_000);
    bot.onChat(by('!followage', 'dan', 104));
    expect(sent.map((m) => m.content)).toEqual([
      'ben following since at least 1970-01-01 (as far as Greenroom saw)',
      'cleo no follow seen by Greenroom since 1970-01-01',
      'dan no follow seen by Greenroom since 1970-01-01',
    ]);
  });

  it('says plainly that it is not known where the history does not run', () => {
    const { bot, sent } = setup('{user} {followage}; {streams} streams');
    const { bot: without, sent: sentWithout } = setup('{user} {followage}; {streams} streams', false);
    bot.onChat(by('!followage', 'ana', 101));
    without.onChat(by('!followage', 'ana', 101));
    expect(sent[0]!.content).not.toContain('unknown');
    expect(sentWithout.map((m) => m.content)).toEqual([`ana ${FOLLOWAGE_UNAVAILABLE}; ${STREAMS_UNAVAILABLE} streams`]);
  });

  it('never expands a field a viewer typed, in their message or in their name', () => {
    const { bot, sent, timers } = setup('{followage}; you said: {args} ({user})');
    bot.onChat(by('!followage {followage} {streams} {user}', 'ana', 101));
    timers.advance(60_000);
    bot.onChat(by('!followage <b>hi</b>', '{followage}<i>', 102));
    expect(sent.map((m) => m.content)).toEqual([
      'followed 3 months ago; you said: {followage} {streams} {user} (ana)',
      'following since at least 1970-01-01 (as far as Greenroom saw); you said: <b>hi</b> ({followage}<i>)',
    ]);
  });

  it('reads the history only when the reply uses it', () => {
    let asked = 0;
    const counting: BotHistory = { recall: (...a) => (asked++, history().recall(...a)) };
    const { bot, sent } = botSetup((s) => (s.commands = [command('hi', 'hi {user}')]), counting);
    bot.onChat(by('!hi', 'ana', 101));
    expect(sent.map((m) => m.content)).toEqual(['hi ana']);
    expect(asked).toBe(0);
  });
});

describe('durations in words', () => {
  it.each([
    [30_000, 'less than a minute'],
    [60_000, '1 minute'],
    [5 * 3_600_000, '5 hours'],
    [DAY, '1 day'],
    [29 * DAY, '29 days'],
    [92 * DAY, '3 months'],
    [366 * DAY, '1 year'],
    [3 * 365 * DAY + 70 * DAY, '3 years and 2 months'],
  ])('%d ms is "%s"', (ms, words) => {
    expect(durationWords(ms)).toBe(words);
  });
});
