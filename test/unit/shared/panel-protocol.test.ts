/** The panel WebSocket envelope: what the server accepts from a panel and what the client accepts back. */
import { describe, expect, it } from 'vitest';
import { parseClientFrame, parseServerFrame } from '../../../shared/panel-protocol';

describe('parseClientFrame', () => {
  it('accepts hello, invoke and send envelopes, leaving channel and args to the router', () => {
    expect(parseClientFrame('{"type":"hello","token":"t"}')).toEqual({
      ok: true,
      value: { type: 'hello', token: 't' },
    });
    expect(parseClientFrame('{"type":"invoke","id":0,"channel":42,"args":"x"}')).toEqual({
      ok: true,
      value: { type: 'invoke', id: 0, channel: 42, args: 'x' },
    });
    expect(parseClientFrame('{"type":"send","channel":"a:b"}')).toEqual({
      ok: true,
      value: { type: 'send', channel: 'a:b', args: undefined },
    });
  });

  it('refuses everything else with a reason', () => {
    for (const text of [
      '',
      'nope',
      '[]',
      '"hello"',
      '{"type":"hello"}',
      `{"type":"hello","token":"${'x'.repeat(513)}"}`,
      '{"type":"invoke","channel":"a:b"}',
      '{"type":"invoke","id":1.5}',
      '{"type":"invoke","id":-1}',
      '{"type":"result"}',
      '{"type":"__proto__"}',
    ]) {
      const parsed = parseClientFrame(text);
      expect(parsed.ok, text).toBe(false);
      expect(parsed.ok ? '' : parsed.error, text).not.toBe('');
    }
  });
});

describe('parseServerFrame', () => {
  it("reads a turn's events frame, and refuses one with an event that has no name", () => {
    expect(
      parseServerFrame(
        '{"type":"events","events":[{"event":"chat:deleted","payload":{"messageId":"a"}},{"event":"x"}]}',
      ),
    ).toEqual({
      type: 'events',
      events: [
        { event: 'chat:deleted', payload: { messageId: 'a' } },
        { event: 'x', payload: undefined },
      ],
    });
    expect(parseServerFrame('{"type":"events","events":[{"payload":1}]}')).toBeNull();
    expect(parseServerFrame('{"type":"events","events":{}}')).toBeNull();
  });

  it('accepts the four server frames', () => {
    expect(parseServerFrame('{"type":"ready"}')).toEqual({ type: 'ready' });
    expect(parseServerFrame('{"type":"result","id":3,"result":{"ok":true,"value":null}}')).toEqual({
      type: 'result',
      id: 3,
      result: { ok: true, value: null },
    });
    expect(parseServerFrame('{"type":"event","event":"chat:deleted","payload":{"messageId":"m"}}')).toMatchObject({
      event: 'chat:deleted',
    });
    expect(parseServerFrame('{"type":"error","error":{"code":"InvalidArgument","message":"m"}}')).toMatchObject({
      type: 'error',
    });
  });

  it('ignores anything malformed', () => {
    for (const text of [
      'x',
      '{"type":"result","id":3,"result":{"ok":true}}',
      '{"type":"result","id":3,"result":{"ok":false}}',
      '{"type":"result","result":{"ok":true,"value":1}}',
      '{"type":"event","payload":1}',
      '{"type":"error","error":{"code":1}}',
      '{"type":"other"}',
    ]) {
      expect(parseServerFrame(text), text).toBeNull();
    }
  });
});
