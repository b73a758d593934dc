import { describe, expect, it } from 'vitest';
import type { ModAction } from '../../../../../shared/views';
import { ChatState } from '../../../../../renderer/src/lib/state/chat.svelte';
import {
  ModerationState,
  validateBanReason,
  validateTimeoutMinutes,
} from '../../../../../renderer/src/lib/state/moderation.svelte';
import { UserCardState } from '../../../../../renderer/src/lib/state/user-card.svelte';
import { createFakeApi, manualFrames } from '../../fake-api';
import { message, modAction } from '../../fixtures';

function setup() {
  const fake = createFakeApi();
  const frames = manualFrames();
  const chat = new ChatState(fake.api, frames.scheduler);
  const mod = new ModerationState(fake.api, chat);
  const card = new UserCardState(fake.api, chat, mod);
  return { fake, frames, chat, mod, card };
}

const troll = { userId: 42, username: 'troll' };

describe('ModerationState', () => {
  it('validates custom timeouts and ban reasons against Kick limits', () => {
    expect(validateTimeoutMinutes(1)).toBeNull();
    expect(validateTimeoutMinutes(10080)).toBeNull();
    expect(validateTimeoutMinutes(0)).toMatch(/between 1 and 10080/);
    expect(validateTimeoutMinutes(10081)).toMatch(/between 1 and 10080/);
    expect(validateTimeoutMinutes(2.5)).toMatch(/whole number/);
    expect(validateTimeoutMinutes(null)).toMatch(/whole number/);
    expect(validateBanReason('x'.repeat(100))).toBeNull();
    expect(validateBanReason('x'.repeat(101))).toMatch(/at most 100/);
  });

  it('refuses an invalid timeout without calling main', async () => {
    const { fake, mod } = setup();
    await mod.timeout(troll, 20000, 'o1');
    expect(fake.argsOf('mod:timeout')).toHaveLength(0);
    expect(mod.statusFor('o1')?.state).toBe('failed');
  });

  it('shows pending, then the result, and logs the action once', async () => {
    const { fake, mod } = setup();
    const held = fake.hold('mod:timeout');
    const done = mod.timeout(troll, 5, 'o1', 'calm down');
    expect(mod.statusFor('o1')).toEqual({ state: 'pending', text: 'Timing out troll for 5m…' });
    const action = modAction({ id: 'act-1', minutes: 5, targetUserId: 42 });
    held.release({ ok: true, value: action });
    await done;
    expect(fake.argsOf('mod:timeout')).toEqual([[{ userId: 42, minutes: 5, reason: 'calm down' }]]);
    expect(mod.statusFor('o1')?.state).toBe('ok');
    mod.record(action);
    expect(mod.log).toHaveLength(1);
  });

  it('reports an action main logged as failed', async () => {
    const { fake, mod } = setup();
    fake.ok(
      'mod:ban',
      modAction({ kind: 'ban', ok: false, error: 'banUser: user is a moderator', errorCode: 'Forbidden' }),
    );
    mod.requestBan(troll, 'o2');
    await mod.confirmBan('');
    expect(mod.statusFor('o2')).toEqual({
      state: 'failed',
      text: 'Ban failed: Kick does not allow this for your account or channel.',
      detail: 'banUser: user is a moderator · Greenroom code: Forbidden',
    });
    expect(mod.undoable).toBeNull();
  });

  it('bans only after confirm, then offers undo which unbans', async () => {
    const { fake, mod } = setup();
    mod.requestBan(troll, 'o3');
    expect(fake.argsOf('mod:ban')).toHaveLength(0);
    expect(mod.confirming).toEqual({ ...troll, origin: 'o3' });
    await mod.confirmBan('  spam  ');
    expect(fake.argsOf('mod:ban')).toEqual([[{ userId: 42, reason: 'spam' }]]);
    expect(mod.confirming).toBeNull();
    expect(mod.undoable).toEqual(troll);
    await mod.undoBan();
    expect(fake.argsOf('mod:unban')).toEqual([[{ userId: 42 }]]);
    expect(mod.undoable).toBeNull();
  });

  it('cancelling a ban sends nothing', async () => {
    const { fake, mod } = setup();
    mod.requestBan(troll, 'o4');
    mod.cancelBan();
    await mod.confirmBan('x');
    expect(fake.argsOf('mod:ban')).toHaveLength(0);
  });

  it('deleting marks the message deleted in chat', async () => {
    const { frames, chat, mod } = setup();
    const m = message();
    chat.receive(m);
    frames.run();
    await mod.deleteMessage(m);
    expect(chat.messages[0]!.deleted).toBe(true);
    expect(mod.statusFor(m.messageId)?.text).toBe('Deleted');
  });

  it('loads the mod log newest first and merges pushed actions', async () => {
    const { fake, mod } = setup();
    fake.ok('mod:log', [modAction({ id: 'a', atMs: 1 }), modAction({ id: 'b', atMs: 3 })]);
    await mod.loadLog();
    mod.record(modAction({ id: 'c', atMs: 2 }));
    mod.record(modAction({ id: 'a', atMs: 1 }));
    expect(mod.log.map((a) => a.id)).toEqual(['b', 'c', 'a']);
  });
});

/** Asks about one action the way the mod log asks about all its entries. */
const canUndo = (mod: ModerationState, action: ModAction): boolean => mod.undoableAmong([action]).has(action.id);

describe('ModerationState: undo of automatic actions', () => {
  it('offers Undo for an automatic hide, timeout or ban until its message is shown again', async () => {
    const { fake, mod } = setup();
    const auto = { rule: 'blocked-term' as const, reason: 'x', content: 'spam' };
    const timeout = modAction({ kind: 'timeout', messageId: 'm1', auto });
    expect(canUndo(mod, timeout)).toBe(true);
    expect(canUndo(mod, modAction({ kind: 'delete', messageId: 'm2', auto }))).toBe(false);
    expect(canUndo(mod, modAction({ kind: 'flag', messageId: 'm3', auto }))).toBe(false);
    expect(canUndo(mod, modAction({ kind: 'timeout', messageId: 'm4' }))).toBe(false);

    const shown = modAction({ kind: 'show', messageId: 'm1', atMs: timeout.atMs + 10 });
    fake.ok('mod:undo-auto', [shown]);
    await mod.undoAutomatic(timeout);
    expect(fake.argsOf('mod:undo-auto')).toEqual([[{ actionId: timeout.id }]]);
    expect(mod.statusFor(`auto:${timeout.id}`)).toMatchObject({ state: 'ok', text: 'Undone' });
    // main announces the entries as mod:action; once the show is in the log, Undo goes away.
    mod.record(shown);
    expect(canUndo(mod, timeout)).toBe(false);

    fake.fail('mod:undo-auto', 'InvalidArgument', 'actionId: only a hide, timeout or ban');
    const ban = modAction({ kind: 'ban', messageId: 'm5', auto });
    await mod.undoAutomatic(ban);
    expect(mod.statusFor(`auto:${ban.id}`)).toMatchObject({ state: 'failed', text: /^Undo failed: actionId/ });
  });
  it('tells which of many entries can still be undone in one answer', () => {
    const { mod } = setup();
    const auto = { rule: 'blocked-term' as const, reason: 'x', content: 'spam' };
    const entries = [
      modAction({ id: 't1', kind: 'timeout', messageId: 'm1', atMs: 10, auto }),
      modAction({ id: 'b2', kind: 'ban', messageId: 'm2', atMs: 20, auto }),
      modAction({ id: 'd3', kind: 'delete', messageId: 'm3', atMs: 30, auto }),
      modAction({ id: 'h4', kind: 'hide', messageId: 'm4', atMs: 40, auto }),
      modAction({ id: 'x5', kind: 'timeout', messageId: 'm5', atMs: 50, auto, ok: false }),
      modAction({ id: 'p6', kind: 'timeout', messageId: 'm6', atMs: 60 }),
    ];
    for (const entry of entries) {
      mod.record(entry);
    }
    // m1 was shown again after its timeout; m4 was shown before its hide, so the hide still counts.
    mod.record(modAction({ id: 's1', kind: 'show', messageId: 'm1', atMs: 15 }));
    mod.record(modAction({ id: 's4', kind: 'show', messageId: 'm4', atMs: 35 }));
    const undoable = mod.undoableAmong(mod.log);
    expect([...undoable].sort()).toEqual(['b2', 'h4']);
  });
});

describe('UserCardState', () => {
  it('merges remote and local recent messages and the actions on the user', async () => {
    const { fake, frames, chat, mod, card } = setup();
    const old = message({ userId: 42, username: 'troll', sentAtMs: 1, messageId: 'old' });
    const live = message({ userId: 42, username: 'troll', sentAtMs: 5, messageId: 'live' });
    fake.ok('mod:user-card', {
      userId: 42,
      username: 'troll',
      recentMessages: [old],
      actions: [modAction({ id: 'r1', targetUserId: 42 })],
      chatter: null,
      note: '',
    });
    chat.receive(live);
    frames.run();
    mod.record(modAction({ id: 'l1', targetUserId: 42, atMs: 9e12 }));
    mod.record(modAction({ id: 'other', targetUserId: 7 }));
    await card.open(troll, 'live');
    expect(card.messages.map((m) => m.messageId)).toEqual(['old', 'live']);
    expect(card.actions.map((a) => a.id)).toEqual(['l1', 'r1']);
    expect(card.selected?.messageId).toBe('live');
    chat.receive(message({ userId: 42, username: 'troll', sentAtMs: 9, messageId: 'newer' }));
    frames.run();
    expect(card.messages.map((m) => m.messageId)).toEqual(['old', 'live', 'newer']);
    card.close();
    expect(card.target).toBeNull();
  });

  it('shows the error when main cannot build the card', async () => {
    const { fake, card } = setup();
    fake.fail('mod:user-card', 'NotFound', 'no such user');
    await card.open(troll);
    expect(card.error).toEqual({
      text: expect.stringContaining('could not find'),
      detail: expect.stringContaining('no such user'),
    });
  });
});
