/**
 * The "welcome back" reply (../../../../docs/chat-bot.md#welcome-back): a chatter's first line of a live stream,
 * when the history last saw them at least N days before it; once per viewer per stream; never the broadcaster or a
 * bot; off unless turned on; N from 1 to 365, the limit named at the field. The history answers as
 * electron/history/viewer-recall.ts does: the latest sighting strictly before the line asked about.
 */
import { describe, expect, it } from 'vitest';
import type { BotHistory } from '../../../../electron/chat-bot/history-variables';
import { chatBotSaveSchema, DEFAULT_CHAT_BOT_SETTINGS } from '../../../../shared/chat-bot';
import type { KickBadge } from '../../../../shared/kick/events';
import type { ChatMessageView } from '../../../../shared/views';
import { botSetup, chat, event } from './chat-bot-fixtures';

const DAY = 24 * 60 * 60 * 1000;
const START = 400 * DAY;

/** Sightings per viewer; every line the bot hears is a sighting too, as the store keeps it. */
function history(seen: Record<number, number[]>): BotHistory {
  return {
    recall: (userId, beforeMs) => {
      const earlier = (seen[userId] ?? []).filter((t) => t < beforeMs);
      return {
        followedAtMs: null,
        historySinceMs: 0,
        streams: earlier.length,
        lastSeenBeforeMs: earlier.length > 0 ? Math.max(...earlier) : null,
      };
    },
  };
}

const wentLive = (startedAtMs: number) =>
  event('livestream.status.updated', { is_live: true, title: 't', started_at: new Date(startedAtMs).toISOString() });

function setup(
  seen: Record<number, number[]>,
  change: (w: typeof DEFAULT_CHAT_BOT_SETTINGS.welcomeBack) => void = () => undefined,
) {
  const t = botSetup((s) => {
    s.welcomeBack = { enabled: true, afterDays: 7, template: 'Welcome back, {user}! {days} days away' };
    change(s.welcomeBack);
  }, history(seen));
  t.timers.now = START;
  t.bot.onEvent(wentLive(START), true);
  const say = (content: string, username: string, userId: number, badges: KickBadge[] = [], atMs = t.timers.now) => {
    const line: ChatMessageView = { ...chat(content, username, badges, userId), sentAtMs: atMs };
    (seen[userId] ??= []).push(atMs);
    t.bot.onChat(line);
  };
  return { ...t, say };
}

const words = (sent: { content: string }[]) => sent.map((m) => m.content);

describe('the welcome back reply', () => {
  it('welcomes a chatter back after N days away, once in the stream', () => {
    const { say, sent, timers } = setup({ 101: [START - 10 * DAY], 102: [START - 3 * DAY] });
    say('hi all', 'ana', 101);
    say('me again', 'ana', 101);
    say('hello', 'ben', 102); // away 3 days only
    timers.advance(60_000);
    say('still here', 'ana', 101);
    expect(words(sent)).toEqual(['Welcome back, ana! 10 days away']);
  });

  it('never welcomes a first-time chatter, the broadcaster, a bot, or while paused or off', () => {
    const long = START - 100 * DAY;
    const { say, sent, settings } = setup({ 101: [long], 1: [long], 50: [long], 51: [long], 52: [long] });
    say('first time here', 'newbie', 200);
    say('hello chat', 'streamer', 1, [{ type: 'broadcaster', text: 'Broadcaster' }]);
    say('beep', 'BotRix', 50);
    say('boop', 'helper', 51, [{ type: 'bot', text: 'Bot' }]);
    settings.paused = true;
    say('hi', 'ana', 101);
    settings.paused = false;
    settings.welcomeBack.enabled = false;
    say('hi', 'cleo', 52);
    expect(words(sent)).toEqual([]);
  });

  it('greets again in the next stream, and not after a restart mid-stream', () => {
    const seen = { 101: [START - 30 * DAY] };
    const first = setup(seen);
    first.say('hi', 'ana', 101);
    // A restart: a new bot, the same history, which now holds ana's line of this stream.
    const restarted = setup(seen);
    restarted.timers.now = START + 60_000;
    restarted.say('back after the restart', 'ana', 101);
    // Ten days on, a new stream.
    restarted.timers.now = START + 10 * DAY;
    restarted.bot.onEvent(wentLive(START + 10 * DAY), true);
    restarted.say('next stream', 'ana', 101);
    expect(words(first.sent)).toEqual(['Welcome back, ana! 30 days away']);
    expect(words(restarted.sent)).toEqual(['Welcome back, ana! 9 days away']);
  });

  it('gives a line that was a command its answer only: one line, one reply', () => {
    const { say, sent, settings } = setup({ 101: [START - 10 * DAY] });
    settings.commands = [
      {
        name: 'hi',
        aliases: [],
        reply: 'hi {user}',
        permission: 'everyone',
        cooldownSec: 0,
        userCooldownSec: 0,
        sendAs: 'bot',
        enabled: true,
      },
    ];
    say('!hi', 'ana', 101);
    expect(words(sent)).toEqual(['hi ana']);
  });

  it('refuses N outside 1–365 days at Save, naming the limit at the field', () => {
    for (const afterDays of [0, 366, 100_000, 1e12, 2.5, -1]) {
      const result = chatBotSaveSchema.safeParse({
        ...DEFAULT_CHAT_BOT_SETTINGS,
        welcomeBack: { ...DEFAULT_CHAT_BOT_SETTINGS.welcomeBack, afterDays },
      });
      expect(result.success, String(afterDays)).toBe(false);
      expect(result.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
        ['welcomeBack.afterDays', 'Welcome back after 1 to 365 days away'],
      ]);
    }
    expect(DEFAULT_CHAT_BOT_SETTINGS.welcomeBack).toEqual({
      enabled: false,
      afterDays: 30,
      template: 'Welcome back, {user}!',
    });
  });

  it('refuses a welcome sent as the streamer that starts with the viewer’s name', () => {
    const result = chatBotSaveSchema.safeParse({
      ...DEFAULT_CHAT_BOT_SETTINGS,
      sendRepliesAs: 'user',
      welcomeBack: { enabled: true, afterDays: 7, template: '{user} is back!' },
    });
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['welcomeBack.template']);
  });
});
