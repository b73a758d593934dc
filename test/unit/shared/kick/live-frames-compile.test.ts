/**
 * A frame's schema is built once (docs/decisions.md#a-frames-schema-is-built-once): zod compiles an object
 * schema's checks into a function (`new Function`) the first time that schema parses, so a schema made per
 * frame compiled code for every ban, deletion or host the live socket brought. Here every kind of frame is read
 * twice, counting the functions made from source: the second reading makes none.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseLiveFrame } from '../../../../shared/kick/live-frames';
import { PAYLOADS, wireFrame, withExtras } from './live-frames-fixtures';

const realFunction = globalThis.Function;

/** Runs `work` with every `new Function(...)` counted, and gives the count. */
function compiledDuring(work: () => void): number {
  let compiled = 0;
  globalThis.Function = new Proxy(realFunction, {
    construct(target, args: string[]) {
      compiled += 1;
      return Reflect.construct(target, args);
    },
  });
  try {
    work();
  } finally {
    globalThis.Function = realFunction;
  }
  return compiled;
}

/** Every frame the reader knows: each event's payload, with and without fields it does not know, and Pusher's own. */
const FRAMES = [
  ...Object.entries(PAYLOADS).flatMap(([name, payload]) => [
    wireFrame(name, payload),
    wireFrame(name, withExtras(payload)),
  ]),
  wireFrame('pusher:connection_established', { socket_id: '1.2', activity_timeout: 120 }),
  wireFrame('pusher:error', { code: 4201, message: 'closed' }),
  // A payload that fails its schema still parses with it.
  wireFrame('App\\Events\\UserBannedEvent', { user: { id: 'not a number', username: 7 } }),
];

describe('reading a live frame compiles no code once its kind has been read', () => {
  afterEach(() => {
    globalThis.Function = realFunction;
  });

  it('sees zod compile a schema it has not parsed with before', () => {
    // Without this, a zod that stopped compiling (or compiled some other way) would leave the tests below
    // passing whatever the reader does.
    const schema = z.looseObject({ socket_id: z.string(), activity_timeout: z.number() });
    expect(compiledDuring(() => schema.safeParse({ socket_id: '1', activity_timeout: 2 }))).toBeGreaterThan(0);
  });

  it('makes no function the second time every kind of frame is read', () => {
    FRAMES.forEach((frame) => parseLiveFrame(frame));
    expect(compiledDuring(() => FRAMES.forEach((frame) => parseLiveFrame(frame)))).toBe(0);
  });

  it('reads a hundred bans with no more compiled than one', () => {
    const ban = wireFrame('App\\Events\\UserBannedEvent', PAYLOADS['App\\Events\\UserBannedEvent']);
    parseLiveFrame(ban);
    expect(compiledDuring(() => Array.from({ length: 100 }, () => parseLiveFrame(ban)))).toBe(0);
  });
});

describe('a schema built once hands out no shared fallback', () => {
  it('gives each frame with unreadable rules a list of its own', () => {
    // `.catch([])` would give every such frame the one array: a reader changing it would change the next frame's.
    const frame = wireFrame('App\\Events\\MessageDeletedEvent', { message: { id: 'm1' }, violatedRules: 'not a list' });
    const rules = (parsed: ReturnType<typeof parseLiveFrame>) =>
      parsed.kind === 'event' && parsed.event.type === 'chat.deleted' ? parsed.event.violatedRules : null;
    const first = rules(parseLiveFrame(frame));
    expect(first).toEqual([]);
    expect(rules(parseLiveFrame(frame))).not.toBe(first);
  });
});
