import { describe, expect, it } from 'vitest';
import { parseLiveFrame, quickChatMessage, schemaChatMessage } from '../../../../shared/kick/live-frames';
import { CHAT_MESSAGE, CHATROOM } from './live-frames-fixtures';

/** Values a hostile or drifting peer could put in any field. */
const ODD_VALUES: unknown[] = [
  undefined,
  null,
  '',
  'x',
  '123',
  ' 7',
  0,
  -1,
  1.5,
  2 ** 60,
  Number.MAX_SAFE_INTEGER,
  true,
  [],
  [1],
  {},
  { id: 1 },
  { __proto__: { id: 5 } },
  'a'.repeat(600),
];

/** Every field path in the fixture, nested ones too (badges by index). */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) {
    return [prefix];
  }
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [prefix, ...keys.flatMap((key) => paths((value as Record<string | number, unknown>)[key], [...prefix, key]))];
}

/** A copy of the fixture (as JSON would give it) with the field at `path` set to `odd`, or removed. */
function variant(path: (string | number)[], odd: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(CHAT_MESSAGE)) as Record<string | number, unknown>;
  if (path.length === 0) {
    return odd;
  }
  let at = copy;
  for (const key of path.slice(0, -1)) {
    at = at[key] as Record<string | number, unknown>;
  }
  const last = path.at(-1)!;
  if (odd === undefined) {
    delete at[last];
  } else {
    at[last] = odd;
  }
  return copy;
}

const bySchema = (data: unknown) => {
  try {
    return schemaChatMessage(data);
  } catch {
    return 'malformed';
  }
};

describe("the quick chat-line reader beside the live socket's schema", () => {
  it('reads the usual line itself, exactly as the schema does', () => {
    const quick = quickChatMessage(CHAT_MESSAGE);
    expect(quick).not.toBeNull();
    expect(quick).toStrictEqual(schemaChatMessage(CHAT_MESSAGE));
  });

  it('never reads a line otherwise than the schema: every field set to every odd value, or removed', () => {
    let quickTook = 0;
    let leftToSchema = 0;
    for (const path of paths(CHAT_MESSAGE)) {
      for (const odd of ODD_VALUES) {
        const data = variant(path, odd);
        const quick = quickChatMessage(data);
        if (quick === null) {
          leftToSchema++;
          continue;
        }
        quickTook++;
        expect({ path, odd, read: quick }).toStrictEqual({ path, odd, read: bySchema(data) });
      }
    }
    // Both sides ran: the comparison is not empty, and odd values did reach the schema.
    expect(quickTook).toBeGreaterThan(50);
    expect(leftToSchema).toBeGreaterThan(50);
  });

  it('gives the socket the same event through parseLiveFrame whichever reader took it', () => {
    const numericId = { ...CHAT_MESSAGE, sender: { ...CHAT_MESSAGE.sender, id: '777' } };
    expect(quickChatMessage(numericId)).toBeNull();
    const frame = (data: unknown) =>
      parseLiveFrame(
        JSON.stringify({ event: 'App\\Events\\ChatMessageEvent', channel: CHATROOM, data: JSON.stringify(data) }),
      );
    expect(frame(numericId)).toStrictEqual(frame(CHAT_MESSAGE));
  });

  it('reads an odd envelope as the schema did: no name, an empty or non-text name, a channel that is not text', () => {
    const malformed = { kind: 'malformed', name: null, reason: 'no event name' };
    for (const envelope of [
      {},
      [],
      { event: '' },
      { event: 7 },
      { event: ['pusher:ping'] },
      { event: 'pusher:ping', channel: 5 },
      { event: 'pusher:ping', channel: {} },
    ]) {
      expect(parseLiveFrame(JSON.stringify(envelope))).toStrictEqual(malformed);
    }
    expect(parseLiveFrame('{"event":"pusher:subscription_succeeded","channel":null}', CHATROOM)).toStrictEqual({
      kind: 'subscribed',
      channel: CHATROOM,
    });
    expect(parseLiveFrame('{"event":"pusher:subscription_succeeded"}')).toStrictEqual({
      kind: 'subscribed',
      channel: null,
    });
  });
});
