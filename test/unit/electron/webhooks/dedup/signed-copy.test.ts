import { describe, expect, it } from 'vitest';
import {
  createSignedCopies,
  LIVE_SOCKET_SOURCE,
  readBackChat,
} from '../../../../../electron/webhooks/dedup/signed-copy';
import type { KickEvent } from '../../../../../electron/webhooks/events/types';

const line = (content: string, userId = 1, username = 'one') => ({
  message_id: 'm1',
  content,
  sender: { user_id: userId, username },
});

const event = (subscriptionId: string, payload: unknown, messageId = 'd'): KickEvent => ({
  kind: 'unknown',
  type: 'chat.message.sent',
  version: '1',
  messageId,
  subscriptionId,
  timestamp: '',
  receivedAtMs: 0,
  payload,
  reason: 'test',
});

describe('signed copies of socket lines', () => {
  it('tells a webhook with other words, another sender id or name from one that agrees', () => {
    const copies = createSignedCopies();
    copies.socketLine(line('A'));
    expect(copies.differs(line('B'))).toBe(true);
    expect(copies.differs(line('A', 2))).toBe(true);
    expect(copies.differs(line('A', 1, 'other'))).toBe(true);
    // Still waiting for the signed copy to be kept: asked again, it still differs.
    expect(copies.differs(line('B'))).toBe(true);
    expect(copies.differs(line('A'))).toBe(false);
    // Agreed: confirmed and forgotten, so nothing differs any more.
    expect(copies.differs(line('B'))).toBe(false);
  });

  it('forgets a key once its signed copy is kept, and a key it never saw differs from nothing', () => {
    const copies = createSignedCopies();
    expect(copies.differs(line('B'))).toBe(false);
    copies.socketLine(line('A'));
    copies.signed(line('A'));
    expect(copies.differs(line('B'))).toBe(false);
  });

  it('keeps at most its bound, dropping the oldest line first', () => {
    const copies = createSignedCopies(2);
    const of = (id: string, content: string) => ({ ...line(content), message_id: id });
    ['a', 'b', 'c'].forEach((id) => copies.socketLine(of(id, 'A')));
    expect(copies.differs(of('a', 'B'))).toBe(false);
    expect(copies.differs(of('b', 'B'))).toBe(true);
    expect(copies.differs(of('c', 'B'))).toBe(true);
  });

  it('ignores a payload without a message id', () => {
    const copies = createSignedCopies();
    copies.socketLine({ content: 'A' });
    expect(copies.differs({ content: 'B' })).toBe(false);
  });
});

describe('reading the journal back', () => {
  it("puts a signed line that differs in the socket line's place, and adds one that agrees as usual", () => {
    const copies = createSignedCopies();
    const before = event('sub', { message_id: 'm0', content: 'x' }, 'd0');
    const socket = event(LIVE_SOCKET_SOURCE, line('A'), 'live-socket:m1');
    const events = [before];
    expect(readBackChat(copies, events, socket)).toBe(false);
    events.push(socket, event('sub', { message_id: 'm2', content: 'y' }, 'd2'));
    const signed = event('sub', line('B'), 'd3');
    expect(readBackChat(copies, events, signed)).toBe(true);
    expect(events.map((e) => e.messageId)).toEqual(['d0', 'd3', 'd2']);
    // A resend of it later in the journal is not placed again.
    expect(readBackChat(copies, events, event('sub', line('C'), 'd4'))).toBe(false);
  });

  it('adds the signed line when the socket line is no longer among the events kept', () => {
    const copies = createSignedCopies();
    readBackChat(copies, [], event(LIVE_SOCKET_SOURCE, line('A')));
    const events: KickEvent[] = [];
    expect(readBackChat(copies, events, event('sub', line('B')))).toBe(false);
    expect(events).toEqual([]);
  });
});
