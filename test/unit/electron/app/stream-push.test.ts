import { describe, expect, it } from 'vitest';
import { createStreamPush } from '../../../../electron/app/stream-push';
import type { ChannelView } from '../../../../shared/views';

/** A read that waits until the test lets it finish, counting how often it ran. */
function gatedRead() {
  const gates: ((channel: ChannelView | null) => void)[] = [];
  let reads = 0;
  return {
    read: () => {
      reads++;
      return new Promise<ChannelView | null>((resolve) => gates.push(resolve));
    },
    finish: (channel: ChannelView | null) => gates.shift()!(channel),
    reads: () => reads,
  };
}

const view = (title: string) => ({ stream_title: title }) as ChannelView;

describe('stream push', () => {
  it('reads once per burst of changes: one read now, one more after it, whatever the burst', async () => {
    const gate = gatedRead();
    const pushed: (string | undefined)[] = [];
    const push = createStreamPush({ read: gate.read, push: (c) => pushed.push(c?.stream_title), log: () => {} });
    push.changed();
    push.changed();
    push.changed();
    push.changed();
    expect(gate.reads()).toBe(1);
    gate.finish(view('A'));
    await Promise.resolve();
    await Promise.resolve();
    expect(gate.reads()).toBe(2);
    gate.finish(view('B'));
    await push.settled();
    expect(gate.reads()).toBe(2);
    expect(pushed).toEqual(['A', 'B']);
  });

  it('logs a failed read and pushes nothing; the next change reads again', async () => {
    const lines: string[] = [];
    const pushed: unknown[] = [];
    let fail = true;
    const push = createStreamPush({
      read: () => (fail ? Promise.reject(new Error('Kick is down')) : Promise.resolve(view('back'))),
      push: (c) => pushed.push(c),
      log: (line) => lines.push(line),
    });
    push.changed();
    await push.settled();
    expect(pushed).toEqual([]);
    expect(lines).toEqual(['stream: could not read the channel after a change: Kick is down']);
    fail = false;
    push.changed();
    await push.settled();
    expect(pushed).toEqual([view('back')]);
  });

  it('pushes nothing once stopped', async () => {
    const gate = gatedRead();
    const pushed: unknown[] = [];
    const push = createStreamPush({ read: gate.read, push: (c) => pushed.push(c), log: () => {} });
    push.changed();
    push.stop();
    gate.finish(view('late'));
    await push.settled();
    push.changed();
    expect(gate.reads()).toBe(1);
    expect(pushed).toEqual([]);
  });
});
