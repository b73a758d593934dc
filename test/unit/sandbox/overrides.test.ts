import { describe, expect, it } from 'vitest';
import {
  applyOverrides,
  OverrideError,
  parseFieldAssignment,
  parseOverrides,
  readOverride,
} from '../../../sandbox/admin/overrides';

function payload() {
  return {
    content: 'hello',
    sender: { user_id: 1, username: 'a', identity: { username_color: '#fff', badges: [] as string[] } },
    giftees: [
      { user_id: 2, username: 'b' },
      { user_id: 3, username: 'c' },
    ],
    emotes: [{ emote_id: '1', positions: [] as number[] }],
  };
}

/** The payload with some top-level keys replaced, for whole-object comparisons. */
function payloadWith(changes: Record<string, unknown>): Record<string, unknown> {
  return { ...payload(), ...changes };
}

describe('applyOverrides', () => {
  it('sets plain keys and dotted paths, leaving siblings alone', () => {
    expect(applyOverrides(payload(), { content: 'bye', 'sender.username': 'zed' })).toEqual(
      payloadWith({
        content: 'bye',
        sender: { user_id: 1, username: 'zed', identity: { username_color: '#fff', badges: [] } },
      }),
    );
  });

  it('deep-merges nested objects instead of replacing them', () => {
    expect(applyOverrides(payload(), { sender: { identity: { username_color: '#000' } } }).sender).toEqual({
      user_id: 1,
      username: 'a',
      identity: { username_color: '#000', badges: [] },
    });
  });

  it('accepts dotted keys inside nested objects', () => {
    const result = applyOverrides(payload(), { sender: { 'identity.username_color': '#123' } });
    expect(result.sender.identity.username_color).toBe('#123');
  });

  it('creates missing intermediate objects and replaces scalars on the way', () => {
    expect(applyOverrides(payload(), { 'metadata.category.id': 7, 'content.length': 3 })).toEqual(
      payloadWith({ metadata: { category: { id: 7 } }, content: { length: 3 } }),
    );
  });

  it('merges arrays index by index and keeps the override length', () => {
    expect(applyOverrides(payload(), { giftees: [{ username: 'x' }] }).giftees).toEqual([
      { user_id: 2, username: 'x' },
    ]);
    expect(applyOverrides(payload(), { emotes: [] }).emotes).toEqual([]);
    expect(applyOverrides(payload(), { 'giftees.1.username': 'y' }).giftees).toEqual([
      { user_id: 2, username: 'b' },
      { user_id: 3, username: 'y' },
    ]);
  });

  it('sets null and replaces objects with scalars', () => {
    expect(applyOverrides(payload(), { emotes: null, sender: 'nobody' })).toEqual(
      payloadWith({ emotes: null, sender: 'nobody' }),
    );
  });

  it('applies keys in order, so a later path refines an earlier object', () => {
    const result = applyOverrides(payload(), { sender: { user_id: 9 }, 'sender.username': 'nine' });
    expect(result.sender).toMatchObject({ user_id: 9, username: 'nine' });
  });

  it('refuses prototype-reaching and empty path segments', () => {
    expect(() => applyOverrides({}, { '__proto__.polluted': true })).toThrow(OverrideError);
    expect(() => applyOverrides({}, { 'a.constructor.prototype': 1 })).toThrow(/not allowed/);
    expect(() => applyOverrides({}, { 'a..b': 1 })).toThrow(/empty path segment/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('parseOverrides', () => {
  it('treats absent as empty and accepts objects', () => {
    expect(parseOverrides(undefined)).toEqual({});
    expect(parseOverrides(null)).toEqual({});
    expect(parseOverrides({ a: { b: 1 } })).toEqual({ a: { b: 1 } });
  });

  it('rejects non-objects and bad nested keys, naming the key', () => {
    expect(() => parseOverrides([1])).toThrow('overrides: must be an object of field paths to values');
    expect(() => parseOverrides('x')).toThrow(OverrideError);
    expect(() => parseOverrides({ a: { constructor: 1 } })).toThrow(
      'overrides.a.constructor: "constructor" is not allowed',
    );
  });
});

describe('readOverride', () => {
  it('reads a path whether it was given dotted or nested', () => {
    expect(readOverride({ 'sender.user_id': 5 }, 'sender.user_id')).toBe(5);
    expect(readOverride({ sender: { user_id: 6 } }, 'sender.user_id')).toBe(6);
    expect(readOverride({ sender: { user_id: 6 } }, 'sender.username')).toBeUndefined();
    expect(readOverride({ content: 'x' }, 'content.length')).toBeUndefined();
  });
});

describe('parseFieldAssignment', () => {
  it('parses values as JSON when they parse, else as strings', () => {
    expect(parseFieldAssignment('gift.amount=100')).toEqual(['gift.amount', 100]);
    expect(parseFieldAssignment('is_live=false')).toEqual(['is_live', false]);
    expect(parseFieldAssignment('metadata.expires_at=null')).toEqual(['metadata.expires_at', null]);
    expect(parseFieldAssignment('user_input="42"')).toEqual(['user_input', '42']);
    expect(parseFieldAssignment('giftees=[{"user_id":1}]')).toEqual(['giftees', [{ user_id: 1 }]]);
    expect(parseFieldAssignment('content=hello world')).toEqual(['content', 'hello world']);
    expect(parseFieldAssignment('content=a=b')).toEqual(['content', 'a=b']);
    expect(parseFieldAssignment('content=')).toEqual(['content', '']);
  });

  it('rejects arguments without a field', () => {
    expect(() => parseFieldAssignment('novalue')).toThrow('novalue: expected field.path=value');
    expect(() => parseFieldAssignment('=5')).toThrow(OverrideError);
    expect(() => parseFieldAssignment('__proto__.x=1')).toThrow(OverrideError);
  });
});
