/**
 * Reading one settings field when part of it is bad: only the bad part is left out, never the whole field
 * ([design notes](../../docs/design-notes.md#files-in-the-data-folder)). Generic over the field's zod schema,
 * so it needs no change when a schema gains a list or a rule:
 *
 * - a bad entry of a list (a blocked term with an unknown kind, a command without a reply, an ignored name
 *   that is not a Kick name) is dropped from its list, and only it; the deepest list on the issue's path is
 *   the one, so a bad alias drops the alias and keeps its command;
 * - a list with more entries than its limit keeps the first ones up to the limit;
 * - a rule over a whole list (two commands with one name) keeps the entries in order while the rule holds
 *   and drops each one that would break it, so the later of two commands with one name goes;
 * - a bad value outside any list (an event reply's message too long) is removed, so it takes its default;
 *   a value without a default takes its parent's, one level at a time.
 *
 * Each round parses again, so a drop that breaks a rule one level up (the last alias of a list that needs
 * one) is handled there. What cannot be salvaged leaves the whole field to its default, as before.
 */
import { errResult, okResult, type Result } from '../../shared/errors';
import type { z } from 'zod';

/** A path inside one field, as zod gives it. */
export type SettingPath = readonly PropertyKey[];

/** What was left out of a field: where, what it held, and zod's reason. */
export interface LeftOut {
  path: SettingPath;
  /** The entry or value as it was in the file. */
  value: unknown;
  /** The first issue zod found in it. */
  issue: z.core.$ZodIssue;
  /** The value that issue is about (the entry itself, or a part of it). */
  bad: unknown;
  /** `dropped`: removed from its list (or its map); `reset`: back to its default. */
  how: 'dropped' | 'reset';
}

/** Rounds of parse-and-drop before giving up on the field (each round handles every issue zod reports). */
const MAX_ROUNDS = 25;

type Fix =
  | { kind: 'drop'; list: SettingPath; index: number }
  | { kind: 'trim'; list: SettingPath; keep: number }
  | { kind: 'reset'; path: SettingPath };

/** Parses `value` with `schema`, leaving out only what is bad; null when nothing can be saved. */
export function salvage<T>(
  schema: z.ZodType<T>,
  value: unknown,
): Result<{ data: T; leftOut: LeftOut[] }, z.core.$ZodIssue> {
  let current: unknown = structuredClone(value);
  const leftOut: LeftOut[] = [];
  let firstIssue: z.core.$ZodIssue | null = null;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const parsed = schema.safeParse(current);
    if (parsed.success) {
      // A reset value that came back as nothing was an entry of a map (a mod note): it was dropped.
      for (const left of leftOut) {
        if (left.how === 'reset' && valueAt(parsed.data, left.path) === undefined) {
          left.how = 'dropped';
        }
      }
      return okResult({ data: parsed.data, leftOut });
    }
    firstIssue ??= parsed.error.issues[0]!;
    const fixes = new Map<string, { fix: Fix; issue: z.core.$ZodIssue }>();
    for (const issue of parsed.error.issues) {
      for (const fix of fixesFor(schema, current, issue)) {
        fixes.set(JSON.stringify(fix), { fix, issue });
      }
    }
    if (fixes.size === 0) {
      return errResult(firstIssue);
    }
    current = applyFixes(current, [...fixes.values()], leftOut);
  }
  return errResult(firstIssue!);
}

// --- Finding the smallest part to leave out ---

function fixesFor(schema: z.ZodType, root: unknown, issue: z.core.$ZodIssue): Fix[] {
  const path = issue.path;
  // The deepest list entry on the path: the entry is what goes, whatever inside it is wrong.
  for (let depth = path.length; depth >= 1; depth--) {
    const holder = valueAt(root, path.slice(0, depth - 1));
    const key = path[depth - 1];
    if (Array.isArray(holder) && typeof key === 'number' && key < holder.length) {
      return [{ kind: 'drop', list: path.slice(0, depth - 1), index: key }];
    }
  }
  const at = valueAt(root, path);
  if (Array.isArray(at) && path.length > 0) {
    return listFixes(schema, root, path, at, issue);
  }
  // Outside any list: the deepest value that is there goes back to its default.
  for (let depth = path.length; depth >= 1; depth--) {
    const holder = valueAt(root, path.slice(0, depth - 1));
    const key = path[depth - 1]!;
    if (isPlainObject(holder) && typeof key === 'string' && Object.hasOwn(holder, key)) {
      return [{ kind: 'reset', path: path.slice(0, depth) }];
    }
  }
  return [];
}

/** An issue about a whole list: too many entries, or a rule across entries. */
function listFixes(
  schema: z.ZodType,
  root: unknown,
  path: SettingPath,
  list: unknown[],
  issue: z.core.$ZodIssue,
): Fix[] {
  if (issue.code === 'too_big' && typeof issue.maximum === 'number' && issue.maximum < list.length) {
    return [{ kind: 'trim', list: path, keep: Number(issue.maximum) }];
  }
  const same = (other: z.core.$ZodIssue): boolean =>
    other.code === issue.code && other.message === issue.message && samePath(other.path, path);
  // The entries in order, each kept while the rule still holds with it: the earlier of two that clash stays.
  const kept: unknown[] = [];
  const drops: Fix[] = [];
  list.forEach((entry, index) => {
    const parsed = schema.safeParse(setAt(root, path, [...kept, entry]));
    if (!parsed.success && parsed.error.issues.some(same)) {
      drops.push({ kind: 'drop', list: path, index });
    } else {
      kept.push(entry);
    }
  });
  // A rule the whole list breaks however it is cut (one that needs an entry it lacks): back to its default.
  return drops.length > 0 ? drops : [{ kind: 'reset', path }];
}

function applyFixes(root: unknown, fixes: { fix: Fix; issue: z.core.$ZodIssue }[], leftOut: LeftOut[]): unknown {
  // Deeper lists first, then from the end of each list, so the paths of the others still hold.
  const ordered = [...fixes].sort((a, b) => depthOf(b.fix) - depthOf(a.fix) || indexOf(b.fix) - indexOf(a.fix));
  let next = root;
  for (const { fix, issue } of ordered) {
    if (fix.kind === 'reset') {
      const value = valueAt(next, fix.path);
      // Already gone with a wider reset this round.
      if (value !== undefined) {
        record(leftOut, { path: fix.path, value, issue, bad: valueAt(next, issue.path), how: 'reset' });
        next = setAt(next, fix.path, undefined);
      }
      continue;
    }
    const list = valueAt(next, fix.list);
    if (!Array.isArray(list)) {
      continue;
    }
    const from = fix.kind === 'drop' ? fix.index : fix.keep;
    const count = fix.kind === 'drop' ? 1 : list.length - fix.keep;
    const bad = valueAt(next, issue.path);
    list.slice(from, from + count).forEach((value, i) => {
      record(leftOut, { path: [...fix.list, from + i], value, issue, bad, how: 'dropped' });
    });
    next = setAt(
      next,
      fix.list,
      list.filter((_, i) => i < from || i >= from + count),
    );
  }
  return next;
}

/**
 * Adds what was left out; a later, wider removal takes the place of the narrower ones inside it (a reset
 * key that had no default, then its parent; an alias, then its command). A reset keeps the first reason,
 * which says what was wrong.
 */
function record(leftOut: LeftOut[], entry: LeftOut): void {
  const inside = leftOut.filter((e) => startsWith(e.path, entry.path));
  const kept = inside[0];
  for (const e of inside) {
    leftOut.splice(leftOut.indexOf(e), 1);
  }
  leftOut.push(kept && entry.how === 'reset' ? { ...entry, issue: kept.issue, bad: kept.bad } : entry);
}

// --- Paths in plain JSON data ---

function depthOf(fix: Fix): number {
  return fix.kind === 'reset' ? fix.path.length : fix.list.length;
}

function indexOf(fix: Fix): number {
  return fix.kind === 'drop' ? fix.index : fix.kind === 'trim' ? fix.keep : -1;
}

/** The value at `path` in plain JSON data (undefined where there is none). */
export function valueAt(root: unknown, path: SettingPath): unknown {
  let at = root;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) {
      return undefined;
    }
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

/** A copy of `root` with `value` at `path` (undefined removes an object's key). */
function setAt(root: unknown, path: SettingPath, value: unknown): unknown {
  if (path.length === 0) {
    return value;
  }
  const [key, ...rest] = path;
  if (Array.isArray(root)) {
    return (root as unknown[]).map((item, i): unknown => (i === key ? setAt(item, rest, value) : item));
  }
  const copy: Record<PropertyKey, unknown> = { ...(root as Record<PropertyKey, unknown>) };
  const inner = setAt(copy[key!], rest, value);
  if (inner === undefined) {
    delete copy[key!];
  } else {
    copy[key!] = inner;
  }
  return copy;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function samePath(a: readonly PropertyKey[], b: SettingPath): boolean {
  return a.length === b.length && a.every((key, i) => key === b[i]);
}

function startsWith(path: SettingPath, prefix: SettingPath): boolean {
  return prefix.length <= path.length && prefix.every((key, i) => key === path[i]);
}
