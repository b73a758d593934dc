import { describe, expect, it } from 'vitest';
import { recentMessages } from '../../../sandbox/admin/generate-chat';
import { ChatMessages, type SandboxChatMessage } from '../../../sandbox/state';

const line = (messageId: string, broadcasterUserId = 1, deleted = false): SandboxChatMessage => ({
  messageId,
  broadcasterUserId,
  senderUserId: 7,
  content: messageId,
  type: 'viewer',
  replyToMessageId: null,
  createdAtMs: 0,
  deleted,
});

const ids = (messages: Iterable<SandboxChatMessage>): string[] => [...messages].map((m) => m.messageId);

describe('the sandbox’s chat messages', () => {
  it('walk newest first; a message stored again under its id keeps its place, a deleted one leaves', () => {
    const chat = new ChatMessages();
    for (const id of ['a', 'b', 'c', 'd']) {
      chat.set(id, line(id));
    }
    chat.set('b', { ...line('b'), content: 'edited' });
    expect(ids(chat.newestFirst())).toEqual(['d', 'c', 'b', 'a']);
    expect([...chat.newestFirst()][2]!.content).toBe('edited');
    chat.delete('c');
    expect(ids(chat.newestFirst())).toEqual(['d', 'b', 'a']);
    chat.clear();
    expect(ids(chat.newestFirst())).toEqual([]);
  });

  it('give a channel’s last visible lines, oldest first, without reading further back than it needs', () => {
    const chat = new ChatMessages();
    chat.set('old', line('old'));
    chat.set('other', line('other', 2));
    chat.set('gone', line('gone', 1, true));
    for (let i = 0; i < 3; i++) {
      chat.set(`new${i}`, line(`new${i}`));
    }
    const state = { chatMessages: chat } as Parameters<typeof recentMessages>[0];
    expect(ids(recentMessages(state, 1, 2))).toEqual(['new1', 'new2']);
    expect(ids(recentMessages(state, 1, 10))).toEqual(['old', 'new0', 'new1', 'new2']);

    // Stop as soon as enough are found: a raid's store is never walked in full for the last few lines.
    let read = 0;
    const counting = Object.assign(new ChatMessages(), {
      *newestFirst() {
        for (const message of ChatMessages.prototype.newestFirst.call(chat)) {
          read++;
          yield message;
        }
      },
    });
    recentMessages({ chatMessages: counting } as typeof state, 1, 2);
    expect(read).toBe(2);
  });
});
