/**
 * Timers and chat that comes before the bot hears the stream is live
 * (../../../../docs/chat-bot.md#timers-count-chat-from-the-streams-start): Kick's live socket brings a line at
 * once, the live-status webhook comes later from Kick's queue, and Kick's answer at sign-in may come later still.
 * The journey test/journeys/chat-bot.spec.ts runs the same through the app with the socket on.
 */
import { describe, expect, it } from 'vitest';
import type { ChatMessageView } from '../../../../shared/views';
import { channel as liveChannel } from '../app/live-state-fixtures';
import { botSetup, chat, event, STREAMER_ID } from './chat-bot-fixtures';

/** A timer every 60 s after 3 messages. */
const setup = () => botSetup((s) => (s.timers = [{ message: 'Follow!', everySec: 60, minMessages: 3, enabled: true }]));

/** A line as Kick times it: to the second, like the socket's `created_at`. */
const typedAt = (content: string, atMs: number): ChatMessageView => ({
  ...chat(content),
  sentAtMs: Math.floor(atMs / 1000) * 1000,
});

const wentLive = (startedAtMs: number, receivedAtMs: number) =>
  event(
    'livestream.status.updated',
    { is_live: true, title: 't', started_at: new Date(startedAtMs).toISOString() },
    receivedAtMs,
  );

describe('chat bot timers with chat that came before the live status', () => {
  it('counts lines typed after the start that arrived before the live-status webhook', () => {
    const { bot, sent, timers } = setup();
    // The stream starts mid-second; its webhook is 4 s behind the socket's three lines.
    const startedAtMs = timers.now + 345;
    bot.onChat(typedAt('first', startedAtMs + 100)); // the start's own second: counts
    bot.onChat(typedAt('second', startedAtMs + 1_500));
    bot.onChat(typedAt('third', startedAtMs + 3_000));
    timers.advance(4_000);
    bot.onEvent(wentLive(startedAtMs, timers.now), true);
    bot.tick();
    timers.advance(59_000);
    bot.tick();
    expect(sent).toEqual([]); // the interval first
    timers.advance(1_000);
    bot.tick();
    expect(sent.map((m) => m.content)).toEqual(['Follow!']);
  });

  it('does not count chat from before the start, and counts on from what came early', () => {
    const { bot, sent, timers } = setup();
    const startedAtMs = timers.now + 10_000;
    bot.onChat(typedAt('still offline', startedAtMs - 1_000));
    bot.onChat(typedAt('offline too', startedAtMs - 5_000));
    timers.advance(10_500);
    bot.onChat(typedAt('live now', startedAtMs + 200));
    timers.advance(1_000);
    bot.onEvent(wentLive(startedAtMs, timers.now), true);
    bot.tick();
    timers.advance(60_000);
    bot.tick();
    expect(sent).toEqual([]); // one line of the stream so far
    bot.onChat(typedAt('two', timers.now));
    bot.tick();
    expect(sent).toEqual([]);
    bot.onChat(typedAt('three', timers.now));
    bot.tick();
    expect(sent.map((m) => m.content)).toEqual(['Follow!']);
  });

  it("counts chat heard before Kick's answer at sign-in said the stream is live", async () => {
    const { bot, live, sent, timers } = setup();
    timers.advance(7_200_000);
    // Greenroom starts while the stream has been live for an hour: the socket is up before Kick answers.
    const startedAtMs = timers.now - 3_600_000;
    for (const line of ['a', 'b', 'c']) {
      bot.onChat(typedAt(line, timers.now));
      timers.advance(500);
    }
    await live.ask(() => Promise.resolve(liveChannel(true, { id: STREAMER_ID, startedAtMs })));
    expect(live.isLive()).toBe(true);
    bot.tick();
    timers.advance(60_000);
    bot.tick();
    expect(sent.map((m) => m.content)).toEqual(['Follow!']);
  });

  it('starts afresh at the next stream: chat of the last one does not count', () => {
    const { bot, sent, timers } = setup();
    const firstStart = timers.now;
    bot.onEvent(wentLive(firstStart, timers.now), true);
    bot.tick();
    timers.advance(10_000);
    bot.onChat(typedAt('x', timers.now));
    bot.onChat(typedAt('y', timers.now));
    bot.onEvent(
      event('livestream.status.updated', { is_live: false, title: 't', ended_at: new Date(timers.now).toISOString() }),
      true,
    );
    bot.tick();
    timers.advance(600_000);
    const secondStart = timers.now;
    bot.onChat(typedAt('z', secondStart + 1_000));
    timers.advance(2_000);
    bot.onEvent(wentLive(secondStart, timers.now), true);
    bot.tick();
    timers.advance(61_000);
    bot.tick();
    expect(sent).toEqual([]); // one line of this stream
    bot.onChat(typedAt('two', timers.now));
    bot.onChat(typedAt('three', timers.now));
    bot.tick();
    expect(sent.map((m) => m.content)).toEqual(['Follow!']);
  });
});
