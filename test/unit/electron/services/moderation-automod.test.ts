import { describe, expect, it } from 'vitest';
import type { AutomodVerdict } from '../../../../shared/automod';
import type { ChatMessageView, ModAction } from '../../../../shared/views';
import { AdjustableClock } from '../../../../electron/core/clock';
import { ChatHistory } from '../../../../electron/services/chat-history';
import { Moderation, type ModerationClient } from '../../../../electron/services/moderation';

const chat = (id: string, userId: number | null = 7): ChatMessageView => ({
  messageId: id,
  content: 'FREE FOLLOWERS',
  emotes: [],
  sender: { userId, username: 'spammer', color: null, badges: [], isVerified: false },
  replyTo: null,
  sentAtMs: 0,
  deleted: true,
});

const verdict = (kind: AutomodVerdict['action']['kind'], dryRun = false): AutomodVerdict => ({
  rule: 'blocked-term',
  reason: 'blocked term “free followers”',
  action: { kind, minutes: 5 },
  dryRun,
});

function setup() {
  const calls: [string, unknown][] = [];
  const act = (name: string) => (input: unknown) => {
    calls.push([name, input]);
    return Promise.resolve();
  };
  const client: ModerationClient = {
    banUser: act('banUser'),
    unbanUser: act('unbanUser'),
    deleteChatMessage: act('deleteChatMessage'),
    fetchUser: () => Promise.resolve(null),
  };
  const history = new ChatHistory();
  const actions: ModAction[] = [];
  const shown: string[] = [];
  const moderation = new Moderation({
    client,
    broadcasterUserId: () => Promise.resolve(1),
    chat: history,
    clock: new AdjustableClock({ now: () => 5000 }),
    onAction: (a) => actions.push(a),
    onDeleted: () => undefined,
    onShown: (id) => shown.push(id),
    log: () => undefined,
  });
  return { moderation, calls, history, actions, shown };
}

describe('Moderation: automatic actions and their Undo', () => {
  it('a timeout’s Undo lifts it on Kick and shows the message again, also after a restart', async () => {
    const { moderation, calls, history, actions, shown } = setup();
    history.add(chat('m1'));
    const timeout = (await moderation.automod(chat('m1'), verdict('timeout')))!;
    expect(timeout).toMatchObject({ kind: 'timeout', minutes: 5, ok: true, auto: { rule: 'blocked-term' } });
    const undone = await moderation.undoAutomatic(timeout.id);
    expect(undone.map((a) => a.kind)).toEqual(['unban', 'show']);
    expect(calls.map(([name]) => name)).toEqual(['banUser', 'unbanUser']);
    expect(history.find('m1')?.deleted).toBe(false);
    expect(shown).toEqual(['m1']);
    expect(actions.at(-1)).toMatchObject({ kind: 'show', messageId: 'm1', targetUserId: 7 });

    // A restart: the journal gives the message back, the log comes back from its store, and the message
    // its Undo showed is not removed again (a second automatic removal still is).
    history.add(chat('m9'));
    await moderation.automod(chat('m9'), verdict('hide'));
    const restored = new ChatHistory();
    restored.add({ ...chat('m1'), deleted: false });
    restored.add({ ...chat('m9'), deleted: false });
    const store = { load: () => [...actions], append: () => Promise.resolve(), flush: () => Promise.resolve() };
    const restarted = new Moderation({
      client: {} as ModerationClient,
      broadcasterUserId: () => Promise.resolve(1),
      chat: restored,
      clock: new AdjustableClock({ now: () => 9000 }),
      onAction: () => undefined,
      onDeleted: () => undefined,
      log: () => undefined,
      store,
    });
    expect(restarted.reapplyDeletions()).toBe(1);
    expect(restored.find('m1')?.deleted).toBe(false);
    expect(restored.find('m9')?.deleted).toBe(true);
  });

  it('a hide’s Undo shows the message without calling Kick', async () => {
    const { moderation, calls, history } = setup();
    history.add(chat('m2'));
    const hide = (await moderation.automod(chat('m2'), verdict('hide')))!;
    expect(hide.kind).toBe('hide');
    expect((await moderation.undoAutomatic(hide.id)).map((a) => a.kind)).toEqual(['show']);
    expect(calls).toEqual([]);
    expect(history.find('m2')?.deleted).toBe(false);
  });

  it('refuses to undo a delete (Kick cannot restore it), a dry-run flag, or the streamer’s own action', async () => {
    const { moderation } = setup();
    const deleted = (await moderation.automod(chat('m3'), verdict('delete')))!;
    const flagged = (await moderation.automod(chat('m4'), verdict('ban', true)))!;
    const own = await moderation.timeout({ userId: 9, minutes: 1 });
    for (const action of [deleted, flagged, own]) {
      await expect(moderation.undoAutomatic(action.id)).rejects.toMatchObject({
        code: 'InvalidArgument',
        message: expect.stringMatching(/^actionId: only a hide, timeout or ban made by auto-moderation/),
      });
    }
    await expect(moderation.undoAutomatic('nope')).rejects.toMatchObject({ code: 'InvalidArgument' });
  });
});
