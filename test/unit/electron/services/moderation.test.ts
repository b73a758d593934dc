import { describe, expect, it } from 'vitest';
import { AppError } from '../../../../shared/errors';
import type { ChatMessageView, ModAction } from '../../../../shared/views';
import { AdjustableClock } from '../../../../electron/core/clock';
import { KickApiError } from '../../../../electron/kick/kick-errors';
import { ChatHistory } from '../../../../electron/services/chat-history';
import { Chatters } from '../../../../electron/services/chatters';
import type { ModLogStore } from '../../../../electron/services/mod-log-file';
import { Moderation, type ModerationClient } from '../../../../electron/services/moderation';

const BROADCASTER = 100001;

function chatFrom(userId: number, username: string, id: string): ChatMessageView {
  return {
    messageId: id,
    content: `hello from ${username}`,
    emotes: [],
    sender: { userId, username, color: null, badges: [], isVerified: false },
    replyTo: null,
    sentAtMs: 0,
    deleted: false,
  };
}

/** A client that records calls and fails the ones a test names. */
function fakeClient(failures: Partial<Record<keyof ModerationClient, Error>> = {}) {
  const calls: [string, unknown][] = [];
  const act = (name: keyof ModerationClient) => (input: unknown) => {
    calls.push([name, input]);
    const failure = failures[name];
    return failure ? Promise.reject(failure) : Promise.resolve();
  };
  const client: ModerationClient = {
    banUser: act('banUser'),
    unbanUser: act('unbanUser'),
    deleteChatMessage: act('deleteChatMessage'),
    fetchUser: (id: number) =>
      Promise.resolve(id === 555 ? { user_id: 555, name: 'quiet_lurker', email: '', profile_picture: '' } : null),
  };
  return { client, calls };
}

function setup(
  options: { failures?: Partial<Record<keyof ModerationClient, Error>>; signedIn?: boolean; logSize?: number } = {},
) {
  const { client, calls } = fakeClient(options.failures);
  const chat = new ChatHistory();
  chat.add(chatFrom(7, 'noodle_ninja', 'msg-7a'));
  chat.add(chatFrom(7, 'noodle_ninja', 'msg-7b'));
  const emitted: ModAction[] = [];
  const deleted: string[] = [];
  const chatters = new Chatters();
  chatters.note({ ...chatFrom(7, 'noodle_ninja', 'msg-7a'), sentAtMs: 500 }, 500);
  chatters.note({ ...chatFrom(7, 'noodle_ninja', 'msg-7b'), sentAtMs: 900 }, 900);
  const notes = new Map<number, string>();
  const moderation = new Moderation({
    client,
    broadcasterUserId: () =>
      options.signedIn === false
        ? Promise.reject(new AppError('NotSignedIn', 'Sign in with Kick first'))
        : Promise.resolve(BROADCASTER),
    chat,
    clock: new AdjustableClock({ now: () => 1_000_000 }),
    onAction: (a) => emitted.push(a),
    onDeleted: (id) => deleted.push(id),
    log: () => undefined,
    logSize: options.logSize,
    chatters,
    notes: {
      get: (userId) => notes.get(userId) ?? '',
      set: (userId, note) => (note === '' ? notes.delete(userId) : notes.set(userId, note)),
    },
  });
  return { moderation, calls, chat, emitted, deleted, notes };
}

describe('Moderation', () => {
  it('marks the messages its kept log deleted once chat is restored, and only successful deletes', async () => {
    const { moderation, chat } = setup({ failures: {} });
    await moderation.deleteMessage('msg-7a');
    const failing = setup({ failures: { deleteChatMessage: new AppError('Forbidden', 'no') } });
    await expect(failing.moderation.deleteMessage('msg-7b')).rejects.toThrow();
    // A restart: the journal gives chat back undeleted, and the log comes back from its store.
    const restoredChat = new ChatHistory();
    restoredChat.add(chatFrom(7, 'noodle_ninja', 'msg-7a'));
    restoredChat.add(chatFrom(7, 'noodle_ninja', 'msg-7b'));
    const store: ModLogStore = {
      load: () => [...moderation.actions(), ...failing.moderation.actions()],
      append: () => Promise.resolve(),
      flush: () => Promise.resolve(),
    };
    const restarted = new Moderation({
      client: fakeClient().client,
      broadcasterUserId: () => Promise.resolve(BROADCASTER),
      chat: restoredChat,
      clock: new AdjustableClock({ now: () => 2_000_000 }),
      onAction: () => undefined,
      onDeleted: () => undefined,
      log: () => undefined,
      store,
    });
    expect(restarted.reapplyDeletions()).toBe(1);
    expect(restoredChat.find('msg-7a')?.deleted).toBe(true);
    expect(restoredChat.find('msg-7b')?.deleted).toBe(false);
    expect(chat.find('msg-7a')?.deleted).toBe(true);
  });

  it('times out, bans and unbans for the broadcaster, recording each action', async () => {
    const { moderation, calls, emitted } = setup();
    const timeout = await moderation.timeout({ userId: 7, minutes: 10, reason: 'calm down' });
    await moderation.ban({ userId: 7, reason: '' });
    await moderation.unban({ userId: 7 });
    expect(calls).toEqual([
      ['banUser', { broadcasterUserId: BROADCASTER, userId: 7, duration: 10, reason: 'calm down' }],
      ['banUser', { broadcasterUserId: BROADCASTER, userId: 7, reason: '' }],
      ['unbanUser', { broadcasterUserId: BROADCASTER, userId: 7 }],
    ]);
    expect(timeout).toMatchObject({
      kind: 'timeout',
      ok: true,
      targetUserId: 7,
      targetUsername: 'noodle_ninja',
      minutes: 10,
      reason: 'calm down',
      atMs: 1_000_000,
    });
    expect(emitted.map((a) => [a.kind, a.ok])).toEqual([
      ['timeout', true],
      ['ban', true],
      ['unban', true],
    ]);
    expect(emitted[1]).not.toHaveProperty('reason');
    expect(moderation.actions()).toEqual(emitted);
    expect(new Set(emitted.map((a) => a.id)).size).toBe(3);
  });

  it("records a failed action with Kick's reason, announces it, and rethrows the error", async () => {
    const refusal = new KickApiError('Forbidden', 'banUser: you cannot ban a moderator', {
      operation: 'banUser',
      status: 403,
    });
    const { moderation, emitted } = setup({ failures: { banUser: refusal } });
    await expect(moderation.ban({ userId: 7, reason: 'spam' })).rejects.toBe(refusal);
    expect(moderation.actions()).toEqual([
      expect.objectContaining({ kind: 'ban', ok: false, error: 'banUser: you cannot ban a moderator', reason: 'spam' }),
    ]);
    expect(emitted).toHaveLength(1);
  });

  it('records an action that failed before reaching Kick (signed out), and a bug without its details', async () => {
    const signedOut = setup({ signedIn: false });
    await expect(signedOut.moderation.unban({ userId: 7 })).rejects.toMatchObject({ code: 'NotSignedIn' });
    expect(signedOut.calls).toEqual([]);
    expect(signedOut.moderation.actions()[0]).toMatchObject({ ok: false, error: 'Sign in with Kick first' });

    const buggy = setup({ failures: { unbanUser: new TypeError('x is undefined at /src/secret.ts:1') } });
    await expect(buggy.moderation.unban({ userId: 7 })).rejects.toBeInstanceOf(TypeError);
    expect(buggy.moderation.actions()[0]).toMatchObject({ ok: false, error: 'Something went wrong' });
  });

  it('deletes a message: marks it, tells the panel, and logs who it belonged to', async () => {
    const { moderation, calls, chat, deleted } = setup();
    const action = await moderation.deleteMessage('msg-7a');
    expect(calls).toEqual([['deleteChatMessage', 'msg-7a']]);
    expect(action).toMatchObject({
      kind: 'delete',
      messageId: 'msg-7a',
      targetUserId: 7,
      targetUsername: 'noodle_ninja',
      ok: true,
    });
    expect(deleted).toEqual(['msg-7a']);
    expect(chat.find('msg-7a')?.deleted).toBe(true);
  });

  it('does not mark a message deleted when Kick refused', async () => {
    const { moderation, chat, deleted } = setup({
      failures: {
        deleteChatMessage: new KickApiError('NotFound', 'no such message', { operation: 'deleteChatMessage' }),
      },
    });
    await expect(moderation.deleteMessage('msg-7b')).rejects.toMatchObject({ code: 'NotFound' });
    expect(chat.find('msg-7b')?.deleted).toBe(false);
    expect(deleted).toEqual([]);
    expect(moderation.actions()[0]).toMatchObject({ kind: 'delete', ok: false, targetUserId: 7 });
  });

  it("builds the user card from the user's recent chat and the actions on them", async () => {
    const { moderation } = setup();
    await moderation.timeout({ userId: 7, minutes: 5 });
    await moderation.ban({ userId: 8 });
    const card = await moderation.userCard(7);
    expect(card.username).toBe('noodle_ninja');
    expect(card.recentMessages.map((m) => m.messageId)).toEqual(['msg-7a', 'msg-7b']);
    expect(card.actions.map((a) => a.kind)).toEqual(['timeout']);
    // Someone who never chatted: the name comes from Kick, or a placeholder.
    expect((await moderation.userCard(555)).username).toBe('quiet_lurker');
    expect(await moderation.userCard(8)).toMatchObject({
      username: 'user 8',
      recentMessages: [],
      actions: [expect.objectContaining({ kind: 'ban' })],
    });
  });

  it('shows first seen, message count and the private note on the card, and keeps a note trimmed', async () => {
    const { moderation, notes } = setup();
    expect(await moderation.userCard(7)).toMatchObject({ chatter: { firstSeenMs: 500, messageCount: 2 }, note: '' });
    expect((await moderation.setNote(7, '  warned twice about spoilers  ')).note).toBe('warned twice about spoilers');
    expect(notes.get(7)).toBe('warned twice about spoilers');
    expect((await moderation.setNote(7, '')).note).toBe('');
    expect(notes.has(7)).toBe(false);
    expect((await moderation.userCard(8)).chatter).toBeNull();
  });

  it('keeps the mod log bounded', async () => {
    const { moderation } = setup({ logSize: 3 });
    for (let userId = 1; userId <= 5; userId++) {
      await moderation.unban({ userId });
    }
    expect(moderation.actions().map((a) => a.targetUserId)).toEqual([3, 4, 5]);
  });
});
