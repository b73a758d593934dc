/**
 * The live socket's frame log (sandbox/live-socket/frame-log.ts): what went out, on which channel, to how many
 * sockets and when; bounded, whatever a storm sends.
 */
import { describe, expect, it } from 'vitest';
import { FrameLog } from '../../../../sandbox/live-socket/frame-log';
import type { LiveFrame } from '../../../../sandbox/live-socket/frames';

const chat = (id: unknown): LiveFrame => ({
  broadcasterUserId: 100001,
  room: 'chatrooms.v2',
  event: 'App\\Events\\ChatMessageEvent',
  data: { id, content: 'hi' },
});

describe('FrameLog', () => {
  it('keeps a sent frame with its channel, data id, time and sockets', () => {
    const log = new FrameLog();
    log.record(chat('m-1'), 1_000, 2);
    expect(log.last(10)).toEqual([
      {
        event: 'App\\Events\\ChatMessageEvent',
        channel: 'chatrooms.70100001.v2',
        id: 'm-1',
        sentAtMs: 1_000,
        sockets: 2,
      },
    ]);
  });

  it('keeps nothing for a frame no socket got', () => {
    const log = new FrameLog();
    log.record(chat('m-1'), 1_000, 0);
    expect(log.last(10)).toEqual([]);
  });

  it('names no id where the data has none, or an id that is not a string or number', () => {
    const log = new FrameLog();
    log.record({ ...chat(null), data: '[]' }, 1, 1);
    log.record(chat({ nested: true }), 2, 1);
    log.record(chat(42), 3, 1);
    expect(log.last(10).map((f) => f.id)).toEqual([null, null, '42']);
  });

  it('holds at most twice what it keeps, and always the last frames, oldest first', () => {
    const log = new FrameLog(100);
    for (let i = 0; i < 1_050; i++) {
      log.record(chat(`m-${i}`), i, 1);
    }
    const last = log.last(1_000);
    expect(last).toHaveLength(100);
    expect(last[0]!.id).toBe('m-950');
    expect(last.at(-1)!.id).toBe('m-1049');
    expect(log.last(3).map((f) => f.id)).toEqual(['m-1047', 'm-1048', 'm-1049']);
  });
});
