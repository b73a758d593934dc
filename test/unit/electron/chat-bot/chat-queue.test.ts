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
});
