import { describe, expect, it } from 'vitest';
import {
  filterModLog,
  isFiltering,
  liftableByPerson,
  NO_FILTER,
  standingOf,
  type ModLogFilter,
} from '../../../../renderer/src/lib/mod-log-filter';
import type { AutomodNote } from '../../../../shared/views';
import { modAction } from '../fixtures';

const note = (rule: AutomodNote['rule']): AutomodNote => ({ rule, reason: rule, content: 'spam' });
const MIN = 60_000;

describe('filterModLog', () => {
  const termDelete = modAction({ id: 'a1', kind: 'delete', targetUsername: 'SpamBot', auto: note('blocked-term') });
  const linkHide = modAction({ id: 'a2', kind: 'hide', targetUsername: 'linker', auto: note('link') });
  const personBan = modAction({ id: 'a3', kind: 'ban', targetUsername: 'troll' });
  const dryRun = modAction({ id: 'a4', kind: 'flag', targetUsername: 'spambot2', auto: note('blocked-term') });
  const log = [termDelete, linkHide, personBan, dryRun];
  const only = (change: Partial<ModLogFilter>, undoable: ReadonlySet<string> = new Set()) =>
    filterModLog(log, { ...NO_FILTER, ...change }, undoable).map((a) => a.id);

  it('lets everything through with no filter', () => {
    expect(only({})).toEqual(['a1', 'a2', 'a3', 'a4']);
    expect(isFiltering(NO_FILTER)).toBe(false);
  });

  it('filters by who acted: auto-moderation or the person', () => {
    expect(only({ who: 'automod' })).toEqual(['a1', 'a2', 'a4']);
    expect(only({ who: 'person' })).toEqual(['a3']);
  });

  it('filters by rule, which only auto-moderation has', () => {
    expect(only({ rule: 'blocked-term' })).toEqual(['a1', 'a4']);
    expect(only({ rule: 'link', who: 'person' })).toEqual([]);
  });

  it('filters by action and by part of the chatter name, any case', () => {
    expect(only({ kind: 'delete' })).toEqual(['a1']);
    expect(only({ chatter: ' spamb ' })).toEqual(['a1', 'a4']);
    expect(isFiltering({ ...NO_FILTER, chatter: '   ' })).toBe(false);
    // Typed text is text, never a pattern: a bracket or a star matches only itself.
    expect(only({ chatter: '(.*' })).toEqual([]);
    expect(only({ chatter: '*' })).toEqual([]);
  });

  it('keeps only what can be undone when asked', () => {
    expect(only({ undoable: true }, new Set(['a2', 'a3']))).toEqual(['a2', 'a3']);
    expect(isFiltering({ ...NO_FILTER, undoable: true })).toBe(true);
  });
});

describe('liftableByPerson', () => {
  const at = 1_700_000_000_000;

  it('offers an unban for a person’s ban, and for a timeout until it runs out', () => {
    const ban = modAction({ kind: 'ban', targetUserId: 1, atMs: at });
    const timeout = modAction({ kind: 'timeout', targetUserId: 2, atMs: at, minutes: 10 });
    expect(liftableByPerson([ban, timeout], at + 9 * MIN)).toEqual(new Set([ban.id, timeout.id]));
    expect(liftableByPerson([ban, timeout], at + 10 * MIN)).toEqual(new Set([ban.id]));
  });

  it('offers nothing once the user was unbanned, failed actions and automatic ones', () => {
    const ban = modAction({ kind: 'ban', targetUserId: 1, atMs: at });
    const unban = modAction({ kind: 'unban', targetUserId: 1, atMs: at + 1 });
    const failed = modAction({ kind: 'ban', targetUserId: 2, atMs: at, ok: false });
    const auto = modAction({ kind: 'ban', targetUserId: 3, atMs: at, auto: note('rate') });
    const nobody = modAction({ kind: 'ban', targetUserId: null, atMs: at });
    // Newest first, as the panel holds the log.
    expect(liftableByPerson([unban, ban, failed, auto, nobody], at)).toEqual(new Set());
  });

  it('offers only the latest restriction of a user: a ban after a timeout, not the timeout', () => {
    const timeout = modAction({ kind: 'timeout', targetUserId: 1, atMs: at, minutes: 60 });
    const ban = modAction({ kind: 'ban', targetUserId: 1, atMs: at + MIN });
    expect(liftableByPerson([ban, timeout], at + 2 * MIN)).toEqual(new Set([ban.id]));
    // An automatic ban after the person's timeout is auto-moderation's to undo.
    const autoBan = modAction({ kind: 'ban', targetUserId: 1, atMs: at + MIN, auto: note('rate') });
    expect(liftableByPerson([autoBan, timeout], at + 2 * MIN)).toEqual(new Set());
  });

  it('orders two actions of the same millisecond by their ids', () => {
    const ban = modAction({ id: '01B', kind: 'ban', targetUserId: 1, atMs: at });
    const unban = modAction({ id: '01C', kind: 'unban', targetUserId: 1, atMs: at });
    expect(liftableByPerson([ban, unban], at)).toEqual(new Set());
    expect(liftableByPerson([unban, ban], at)).toEqual(new Set());
  });
});

describe('standingOf', () => {
  const at = 1_800_000_000_000;
  it('reads the latest ban, timeout or unban by anyone, through Greenroom or on Kick', () => {
    const timeout = modAction({ id: 's1', kind: 'timeout', minutes: 10, atMs: at, elsewhere: { moderator: 'mia' } });
    expect(standingOf([timeout], at + 5 * MIN)).toEqual({ kind: 'timed-out', untilMs: at + 10 * MIN });
    expect(standingOf([timeout], at + 10 * MIN)).toBeNull();
    const ban = modAction({ id: 's2', kind: 'ban', atMs: at + MIN });
    expect(standingOf([ban, timeout], at + 20 * MIN)).toEqual({ kind: 'banned' });
    const unban = modAction({ id: 's3', kind: 'unban', atMs: at + 2 * MIN, elsewhere: { moderator: null } });
    expect(standingOf([unban, ban, timeout], at + 3 * MIN)).toBeNull();
    // A failed ban or a deletion says nothing of it.
    const failed = modAction({ id: 's4', kind: 'ban', atMs: at + 3 * MIN, ok: false });
    const deleted = modAction({ id: 's5', kind: 'delete', atMs: at + 4 * MIN });
    expect(standingOf([unban, failed, deleted], at + 5 * MIN)).toBeNull();
  });

  it('keeps a timeout Kick gave no length for until an unban', () => {
    const timeout = modAction({ id: 's6', kind: 'timeout', atMs: at });
    expect(standingOf([timeout], at + 10_000 * MIN)).toEqual({ kind: 'timed-out', untilMs: null });
  });
});
