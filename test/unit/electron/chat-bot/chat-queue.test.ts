import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../shared/errors';
import { ChatQueue, type OutgoingMessage } from '../../../../electron/chat-bot/chat-queue';
import { ManualTimers } from './chat-bot-fixtures';

const flush = () => new Promise((resolve) => setImmediate(resolve));

function setup(answers: (message: OutgoingMessage) => Promise<void> = () => Promise.resolve()) {
  const timers = new ManualTimers();
  const sent: { content: string; at: number }[] = [];
  const state = { allowed: true };
  const queue = new ChatQueue({
    send: async (message) => {
      await answers(message);
      sent.push({ content: message.content, at: timers.now });
    },
    now: () => timers.now,
    setTimer: timers.set,
    automationAllowed: () => state.allowed,
    minIntervalMs: 1500,
    after429: { initialMs: 60_000, maxMs: 300_000, spread: 0 },
    log: () => undefined,
    random: () => 0,
  });
  const auto = (content: string) => queue.enqueue({ content, as: 'bot', manual: false });
  const manual = (content: string) => queue.enqueue({ content, as: 'user', manual: true });
  const run = async (ms: number, step = 500) => {
    for (let t = 0; t < ms; t += step) {
      await flush();
      timers.advance(step);
    }
    await flush();
  };
  return { queue, sent, timers, state, auto, manual, run };
}

describe('the outgoing chat queue', () => {
  it('sends one message at a time, at most one per interval', async () => {
    const { sent, auto, run } = setup();
    void auto('a');
    void auto('b');
    void auto('c');
    await run(5000);
    expect(sent.map((s) => s.content)).toEqual(['a', 'b', 'c']);
    expect(sent[1]!.at - sent[0]!.at).toBeGreaterThanOrEqual(1500);
    expect(sent[2]!.at - sent[1]!.at).toBeGreaterThanOrEqual(1500);
  });

  it('puts a manual message before every automatic one waiting', async () => {
    const { sent, auto, manual, run } = setup();
    void auto('a1');
    void auto('a2');
    void auto('a3');
    await flush();
    void manual('me');
    await run(6000);
    expect(sent.map((s) => s.content)).toEqual(['a1', 'me', 'a2', 'a3']);
  });

  it('backs off on 429 and sends the same message again after', async () => {
    let first = true;
    const { sent, auto, run, timers } = setup(() => {
      if (first) {
        first = false;
        return Promise.reject(new AppError('Ratelimited', 'slow down'));
      }
      return Promise.resolve();
    });
    const start = timers.now;
    const delivered = auto('thanks');
    await run(30_000);
    expect(sent).toEqual([]);
    await run(40_000);
    expect(sent.map((s) => s.content)).toEqual(['thanks']);
    expect(sent[0]!.at - start).toBeGreaterThanOrEqual(60_000);
    expect(await delivered).toBe(true);
  });

  it('holds automatic messages while paused or signed out, drops stale ones, and still sends manual ones', async () => {
    const { sent, auto, manual, run, state, queue } = setup();
    state.allowed = false;
    const stale = auto('old thanks');
    void manual('hello');
    await run(3000);
    expect(sent.map((s) => s.content)).toEqual(['hello']);
    await run(61_000);
    state.allowed = true;
    void auto('fresh');
    await run(3000);
    expect(await stale).toBe(false);
    expect(sent.map((s) => s.content)).toEqual(['hello', 'fresh']);
    void auto('sent at once');
    const dropped = auto('waits its turn');
    queue.clearAutomatic();
    expect(await dropped).toBe(false);
  });

  it("answers the streamer's own message with Kick's reply, ahead of automatic ones", async () => {
    const { queue, sent, auto, run } = setup();
    void auto('a1');
    void auto('a2');
    await flush();
    const mine = queue.sendManual({ content: 'me', as: 'user', replyToMessageId: 'parent' });
    await run(4000);
    expect(sent.map((s) => s.content)).toEqual(['a1', 'me', 'a2']);
    // The fake send resolves with nothing; Kick's answer is whatever `send` resolves with.
    await expect(mine).resolves.toBeUndefined();
  });

  it("gives the streamer's message Kick's error, and refuses at once while a 429 back-off runs", async () => {
    let answer: Error | null = new AppError('Forbidden', 'no chat:write');
    const { queue, sent, auto, run } = setup(() => (answer ? Promise.reject(answer) : Promise.resolve()));
    // Caught as they are made: the rejection comes while the clock runs, before the assertion.
    const refused = queue.sendManual({ content: 'hi', as: 'user' }).catch((error: unknown) => error);
    await run(500);
    expect(await refused).toMatchObject({ code: 'Forbidden' });

    answer = new AppError('Ratelimited', 'slow down');
    const limited = queue.sendManual({ content: 'again', as: 'user' }).catch((error: unknown) => error);
    await run(2000);
    expect(await limited).toMatchObject({ code: 'Ratelimited' });
    // Not kept for later: the panel keeps the draft; a new try during the back-off is refused at once.
    answer = null;
    await expect(queue.sendManual({ content: 'now?', as: 'user' })).rejects.toMatchObject({
      code: 'Ratelimited',
      message: expect.stringMatching(/try again in \d+ s$/),
    });
    const later = auto('automatic waits the back-off out');
    await run(70_000);
    expect(await later).toBe(true);
    expect(sent.map((s) => s.content)).toEqual(['automatic waits the back-off out']);
  });
});
