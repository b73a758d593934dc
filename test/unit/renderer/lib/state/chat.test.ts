import { describe, expect, it } from 'vitest';
import { ChatState } from '../../../../../renderer/src/lib/state/chat.svelte';
import { createFakeApi, manualFrames } from '../../fake-api';
import { message } from '../../fixtures';

function setup() {
  const fake = createFakeApi();
  const frames = manualFrames();
  const chat = new ChatState(fake.api, frames.scheduler);
  return { fake, frames, chat };
}

describe('ChatState', () => {
  it('batches incoming messages into one flush per frame', () => {
    const { frames, chat } = setup();
    for (let i = 0; i < 50; i++) {
      chat.receive(message());
    }
    expect(chat.messages).toHaveLength(0);
    expect(frames.pending()).toBe(1);
    frames.run();
    expect(chat.messages).toHaveLength(50);
    chat.receive(message());
    expect(frames.pending()).toBe(1);
  });

  it('keeps a bounded scrollback and follows the configured limit', () => {
    const { frames, chat } = setup();
    for (let i = 0; i < 1200; i++) {
      chat.receive(message({ content: `n${i}` }));
    }
    frames.run();
    expect(chat.messages).toHaveLength(1000);
    expect(chat.messages[999]!.content).toBe('n1199');
    chat.setLimit(200);
    expect(chat.messages).toHaveLength(200);
    expect(chat.messages[0]!.content).toBe('n1000');
  });

  it('skips duplicates by message id', () => {
    const { frames, chat } = setup();
    const m = message();
    chat.receive(m);
    chat.receive({ ...m });
    frames.run();
    expect(chat.messages).toHaveLength(1);
  });

  it('holds messages while paused, counts them, and releases when the last reason lifts', () => {
    const { frames, chat } = setup();
    chat.receive(message());
    frames.run();
    chat.pause('hover');
    chat.pause('scroll');
    chat.receive(message());
    chat.receive(message());
    frames.run();
    expect(chat.paused).toBe(true);
    expect(chat.messages).toHaveLength(1);
    expect(chat.newCount).toBe(2);
    chat.resume('hover');
    expect(chat.paused).toBe(true);
    expect(chat.messages).toHaveLength(1);
    chat.resume('scroll');
    expect(chat.messages).toHaveLength(3);
    expect(chat.newCount).toBe(0);
  });

  it('resumeAll jumps back to live', () => {
    const { frames, chat } = setup();
    chat.pause('scroll');
    chat.receive(message());
    frames.run();
    chat.resumeAll();
    expect(chat.paused).toBe(false);
    expect(chat.messages).toHaveLength(1);
  });

  it('marks deleted messages in the log, the held queue and the buffer', () => {
    const { frames, chat } = setup();
    const a = message();
    const b = message();
    const c = message();
    chat.receive(a);
    frames.run();
    chat.pause('hover');
    chat.receive(b);
    frames.run();
    chat.receive(c);
    chat.markDeleted(a.messageId);
    chat.markDeleted(b.messageId);
    chat.markDeleted(c.messageId);
    frames.run();
    chat.resumeAll();
    expect(chat.messages.map((m) => m.deleted)).toEqual([true, true, true]);
  });

  it('remembers each user recent messages, capped', () => {
    const { frames, chat } = setup();
    for (let i = 0; i < 60; i++) {
      chat.receive(message({ userId: 7, username: 'seven', content: `s${i}` }));
    }
    chat.receive(message({ userId: 8, username: 'eight' }));
    frames.run();
    const recent = chat.recentFor(7, 'seven');
    expect(recent).toHaveLength(50);
    expect(recent[49]!.content).toBe('s59');
    expect(chat.recentFor(8, 'eight')).toHaveLength(1);
  });

  it("finds a user's messages held while paused, and an anonymous sender by name", () => {
    const { frames, chat } = setup();
    chat.receive(message({ userId: null, username: 'Guest' }));
    frames.run();
    chat.pause('hover');
    chat.receive(message({ userId: 7, username: 'seven', content: 'held' }));
    frames.run();
    expect(chat.messages).toHaveLength(1);
    expect(chat.recentFor(7, 'seven').map((m) => m.content)).toEqual(['held']);
    expect(chat.recentFor(null, 'guest')).toHaveLength(1);
    expect(chat.recentFor(null, 'seven')).toEqual([]);
  });

  it("puts Kick's signed line in the place of the line with its id, shown, held or not yet flushed", () => {
    const { frames, chat } = setup();
    const [a, b, c, d] = [message(), message(), message(), message()];
    chat.receive(a);
    chat.receive(b);
    frames.run();
    chat.pause('hover');
    chat.receive(c);
    frames.run();
    chat.receive(d);
    for (const m of [b, c, d]) {
      chat.replace({ ...m, content: `signed ${m.messageId}`, deleted: m === d });
    }
    frames.run();
    chat.resumeAll();
    expect(chat.messages.map((m) => [m.messageId, m.content, m.deleted])).toEqual([
      [a.messageId, a.content, false],
      [b.messageId, `signed ${b.messageId}`, false],
      [c.messageId, `signed ${c.messageId}`, false],
      [d.messageId, `signed ${d.messageId}`, true],
    ]);
  });

  it('drops a replaced line whose signed sender is ignored, and leaves an unknown id alone', () => {
    const fake = createFakeApi();
    const frames = manualFrames();
    const chat = new ChatState(fake.api, frames.scheduler, {
      isIgnored: (m) => m.sender.username === 'ignored',
      heard: () => undefined,
    });
    const a = message({ username: 'someone' });
    chat.receive(a);
    frames.run();
    chat.replace(message({ content: 'not here' }));
    expect(chat.messages.map((m) => m.messageId)).toEqual([a.messageId]);
    chat.replace({ ...a, sender: { ...a.sender, username: 'ignored' } });
    expect(chat.messages).toEqual([]);
  });

  it('restores history before live messages without duplicates', async () => {
    const { fake, frames, chat } = setup();
    const old = message();
    const live = message();
    chat.receive(live);
    frames.run();
    fake.ok('chat:history', [old, live]);
    await chat.loadHistory();
    expect(chat.messages.map((m) => m.messageId)).toEqual([old.messageId, live.messageId]);
  });

  it('shows the history error', async () => {
    const { fake, chat } = setup();
    fake.fail('chat:history', 'Network', 'offline');
    await chat.loadHistory();
    expect(chat.error?.text).toContain('could not reach Kick');
    expect(chat.error?.detail).toContain('offline');
  });
});
