import { describe, expect, it } from 'vitest';
import type { ChatMessageView, ChatUserView } from '../../../../shared/views';
import { ChatHistory } from '../../../../electron/services/chat-history';

function message(id: number, userId: number | null, username = `user${userId}`): ChatMessageView {
  return {
    messageId: `m${id}`,
    content: `message ${id}`,
    emotes: [],
    sender: { userId, username, color: null, badges: [], isVerified: false },
    replyTo: null,
    sentAtMs: id,
    deleted: false,
  };
}

describe('ChatHistory', () => {
  it('keeps only the last N messages, oldest first', () => {
    const history = new ChatHistory({ capacity: 100 });
    for (let i = 1; i <= 1000; i++) {
      history.add(message(i, i % 7));
    }
    const kept = history.messages();
    expect(kept).toHaveLength(100);
    expect(kept[0]!.messageId).toBe('m901');
    expect(kept.at(-1)!.messageId).toBe('m1000');
  });

  it('keeps the last N at every step, across the points where it compacts, and forgets dropped ids', () => {
    const history = new ChatHistory({ capacity: 10 });
    for (let i = 1; i <= 57; i++) {
      // Anonymous senders: no per-user list keeps a dropped message findable.
      expect(history.add(message(i, null))).toBe(true);
      const kept = history.messages().map((m) => m.messageId);
      const from = Math.max(1, i - 9);
      expect(kept).toEqual(Array.from({ length: i - from + 1 }, (_, k) => `m${from + k}`));
    }
    expect(history.find('m47')).toBeUndefined();
    expect(history.find('m48')?.messageId).toBe('m48');
    // A dropped id is new again (Kick would not resend it; a restart's replay may).
    expect(history.add(message(40, null))).toBe(true);
    history.resize(3);
    expect(history.messages().map((m) => m.messageId)).toEqual(['m56', 'm57', 'm40']);
  });

  it('defaults to 1,000 messages and resizes with the setting', () => {
    const history = new ChatHistory();
    for (let i = 1; i <= 1200; i++) {
      history.add(message(i, 1));
    }
    expect(history.messages()).toHaveLength(1000);
    history.resize(250);
    expect(history.capacity).toBe(250);
    expect(
      history
        .messages()
        .map((m) => m.messageId)
        .slice(0, 1),
    ).toEqual(['m951']);
    expect(() => history.resize(0)).toThrow(RangeError);
  });

  it('never keeps the same message twice', () => {
    const history = new ChatHistory();
    expect(history.add(message(1, 5))).toBe(true);
    expect(history.add(message(1, 5))).toBe(false);
    expect(history.messages()).toHaveLength(1);
    expect(history.recentFor(5)).toHaveLength(1);
  });

  it("keeps each user's recent messages beyond the ring, bounded per user and by user count", () => {
    const history = new ChatHistory({ capacity: 10, perUser: 3, users: 2 });
    history.add(message(1, 42, 'lunarfox'));
    for (let i = 2; i <= 30; i++) {
      history.add(message(i, 7, 'noodle_ninja'));
    }
    // lunarfox's message left the ring long ago but is still on their card.
    expect(history.messages().some((m) => m.messageId === 'm1')).toBe(false);
    expect(history.recentFor(42).map((m) => m.messageId)).toEqual(['m1']);
    expect(history.usernameOf(42)).toBe('lunarfox');
    expect(history.recentFor(7).map((m) => m.messageId)).toEqual(['m28', 'm29', 'm30']);
    // A third user pushes out the least recently active one (lunarfox).
    history.add(message(31, 99, 'echo_elk'));
    expect(history.recentFor(42)).toEqual([]);
    expect(history.usernameOf(42)).toBeNull();
    expect(history.recentFor(7)).toHaveLength(3);
    // Anonymous senders are in the ring but have no card.
    history.add(message(32, null, 'Someone anonymous'));
    expect(history.messages().at(-1)!.messageId).toBe('m32');
  });

  it("bounds the user cards' lines in all, dropping the least recently active chatter's oldest first", () => {
    const history = new ChatHistory({ capacity: 2, perUser: 4, cardLines: 6 });
    // Three chatters, two lines each: six lines, the bound.
    let id = 0;
    for (const user of [1, 2, 3]) {
      history.add(message(++id, user));
      history.add(message(++id, user));
    }
    expect([1, 2, 3].map((u) => history.recentFor(u).length)).toEqual([2, 2, 2]);
    // A seventh line: user 1 is the least recently active, and loses their oldest line.
    history.add(message(++id, 3));
    expect(history.recentFor(1).map((m) => m.messageId)).toEqual(['m2']);
    expect(history.recentFor(3).map((m) => m.messageId)).toEqual(['m5', 'm6', 'm7']);
    // An eighth: user 1's last line goes, and user 1 with it.
    history.add(message(++id, 2));
    expect(history.recentFor(1)).toEqual([]);
    expect(history.usernameOf(1)).toBeNull();
    expect(history.find('m1')).toBeUndefined();
    // A storm of new chatters never holds more than the bound, whatever the users' bound allows.
    for (let user = 100; user < 400; user++) {
      history.add(message(++id, user));
    }
    const kept = [...Array(400).keys()].reduce((sum, u) => sum + history.recentFor(u).length, 0);
    expect(kept).toBe(6);
    expect(history.recentFor(399).map((m) => m.messageId)).toEqual([`m${id}`]);
  });

  it('keeps at least as many card lines as the ring holds', () => {
    const history = new ChatHistory({ capacity: 4, perUser: 5, cardLines: 2 });
    for (let i = 1; i <= 4; i++) {
      history.add(message(i, i));
    }
    // Every line on screen is still on its sender's card.
    expect([1, 2, 3, 4].map((u) => history.recentFor(u).length)).toEqual([1, 1, 1, 1]);
    history.add(message(5, 5));
    expect(history.recentFor(1)).toEqual([]);
  });

  it('keeps the bound exact when a signed line moves to another sender', () => {
    const history = new ChatHistory({ capacity: 2, perUser: 5, cardLines: 3 });
    [message(1, 7), message(2, 7), message(3, 8)].forEach((m) => history.add(m));
    // Kick's signed copy says user 9 sent m2: it leaves 7's card for 9's; still three lines in all.
    expect(history.replace(message(2, 9))).toBe(true);
    expect(history.recentFor(7).map((m) => m.messageId)).toEqual(['m1']);
    expect(history.recentFor(9).map((m) => m.messageId)).toEqual(['m2']);
    history.add(message(4, 8));
    // Four lines: the least recently active (7) loses m1.
    expect(history.recentFor(7)).toEqual([]);
    expect(history.recentFor(8).map((m) => m.messageId)).toEqual(['m3', 'm4']);
    expect(history.recentFor(9).map((m) => m.messageId)).toEqual(['m2']);
  });

  it('marks a message deleted in the ring and on the user card', () => {
    const history = new ChatHistory({ capacity: 2, perUser: 5 });
    history.add(message(1, 3));
    history.add(message(2, 3));
    history.add(message(3, 4));
    expect(history.markDeleted('m2')).toBe(true);
    expect(history.messages().find((m) => m.messageId === 'm2')!.deleted).toBe(true);
    // m1 left the ring but is still on user 3's card, and can still be marked.
    expect(history.markDeleted('m1')).toBe(true);
    expect(history.recentFor(3).map((m) => m.deleted)).toEqual([true, true]);
    expect(history.markDeleted('nope')).toBe(false);
  });

  it("puts Kick's signed line where the socket's was, in the ring and on the user card", () => {
    const history = new ChatHistory({ capacity: 10 });
    [message(1, 7), message(2, 7), message(3, 8)].forEach((m) => history.add(m));
    expect(history.replace({ ...message(2, 7), content: 'signed words' })).toBe(true);
    expect(history.messages().map((m) => m.content)).toEqual(['message 1', 'signed words', 'message 3']);
    expect(history.recentFor(7).map((m) => m.content)).toEqual(['message 1', 'signed words']);
    expect(history.find('m2')?.content).toBe('signed words');
  });

  it("moves a replaced line to the signed sender's card when the socket named another", () => {
    const history = new ChatHistory({ capacity: 10 });
    [message(1, 7), message(2, 8)].forEach((m) => history.add(m));
    history.replace(message(1, 9));
    expect(history.recentFor(7)).toEqual([]);
    expect(history.recentFor(9).map((m) => m.messageId)).toEqual(['m1']);
    expect(history.messages().map((m) => m.sender.userId)).toEqual([9, 8]);
  });

  it('replaces nothing for an id it does not keep, and a line kept only on a card stays there', () => {
    const history = new ChatHistory({ capacity: 1 });
    expect(history.replace(message(5, 7))).toBe(false);
    history.add(message(1, 7));
    history.add(message(2, 8));
    expect(history.replace({ ...message(1, 7), content: 'signed' })).toBe(true);
    expect(history.messages().map((m) => m.messageId)).toEqual(['m2']);
    expect(history.recentFor(7).map((m) => m.content)).toEqual(['signed']);
  });

  it('keeps one sender object per chatter while the chatter reads the same, and a new one when they change', () => {
    const history = new ChatHistory();
    const line = (id: number, badges: ChatMessageView['sender']['badges'], color: string | null = '#ff0000') => ({
      ...message(id, 7, 'marble_moth'),
      sender: { userId: 7, username: 'marble_moth', color, badges, isVerified: false },
    });
    const first = line(1, [{ type: 'subscriber', text: 'Subscriber', count: 3 }]);
    const second = line(2, [{ type: 'subscriber', text: 'Subscriber', count: 3 }]);
    history.add(first);
    history.add(second);
    expect(history.find('m2')!.sender).toBe(history.find('m1')!.sender);
    // A badge's month count changed: the new line has the new sender, the old line keeps what it was sent with.
    history.add(line(3, [{ type: 'subscriber', text: 'Subscriber', count: 4 }]));
    expect(history.find('m3')!.sender).not.toBe(history.find('m2')!.sender);
    expect(history.find('m3')!.sender.badges[0]!.count).toBe(4);
    expect(history.find('m1')!.sender.badges[0]!.count).toBe(3);
    // A badge with a field beyond Kick's three: never shared.
    const extra = { type: 'subscriber', text: 'Subscriber', count: 4, image: 'x' };
    history.add(line(4, [extra]));
    history.add(line(5, [extra]));
    expect(history.find('m5')!.sender).not.toBe(history.find('m4')!.sender);
    expect(history.find('m5')!.sender.badges[0]).toBe(extra);
    history.add(line(6, [{ type: 'subscriber', text: 'Subscriber', count: 4 }]));
    expect(history.recentFor(7).map((m) => m.messageId)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6']);
  });

  it('gives a line its own sender when anything it shows changed: name, colour, verified, any part of a badge', () => {
    const base: ChatUserView = {
      userId: 7,
      username: 'marble_moth',
      color: '#ff0000',
      badges: [{ type: 'subscriber', text: 'Subscriber', count: 3 }],
      isVerified: false,
    };
    const changes: Partial<ChatUserView>[] = [
      { username: 'marble_moth_2' },
      { color: '#00ff00' },
      { color: null },
      { isVerified: true },
      { badges: [{ type: 'subscriber', text: 'Sub', count: 3 }] },
      { badges: [{ type: 'founder', text: 'Subscriber', count: 3 }] },
      {
        badges: [
          { type: 'subscriber', text: 'Subscriber', count: 3 },
          { type: 'og', text: 'OG', count: 3 },
        ],
      },
      { badges: [] },
    ];
    for (const change of changes) {
      const history = new ChatHistory();
      history.add({ ...message(1, 7), sender: { ...base, badges: base.badges.map((b) => ({ ...b })) } });
      const changed = { ...base, ...change };
      history.add({ ...message(2, 7), sender: changed });
      expect(history.find('m2')!.sender, JSON.stringify(change)).toBe(changed);
      expect(history.find('m1')!.sender.username).toBe('marble_moth');
    }
  });
});
