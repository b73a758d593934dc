/**
 * Payload overrides for triggered events, like the Twitch CLI's `event trigger` flags but for any field: a
 * flat or nested object whose keys may be dotted paths (`sender.username`, `gift.amount`, `giftees.0.user_id`
 * or plain `content`). Pure functions, so the admin API, the CLI and the unit tests share one definition.
 */

/** An overrides object as the admin API receives it (`{"sender.username": "x", "gift": {"amount": 5}}`). */
export type Overrides = Record<string, unknown>;

/** Bad override input; `message` names the offending key. */
export class OverrideError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OverrideError';
  }
}

// Keys that would reach Object.prototype through a plain-object merge.
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Splits `a.b.0.c` into segments, rejecting empty and prototype-reaching ones. */
export function splitOverridePath(path: string): string[] {
  const segments = path.split('.');
  for (const segment of segments) {
    if (segment.length === 0) {
      throw new OverrideError(`overrides.${path}: empty path segment`);
    }
    if (FORBIDDEN_SEGMENTS.has(segment)) {
      throw new OverrideError(`overrides.${path}: "${segment}" is not allowed`);
    }
  }
  return segments;
}

/** Checks an overrides value from untrusted input and returns it typed (an empty object when absent). */
export function parseOverrides(value: unknown): Overrides {
  if (value === undefined || value === null) {
    return {};
  }
  if (!isPlainObject(value)) {
    throw new OverrideError('overrides: must be an object of field paths to values');
  }
  const walk = (object: Record<string, unknown>, prefix: string): void => {
    for (const [key, inner] of Object.entries(object)) {
      splitOverridePath(prefix + key);
      if (isPlainObject(inner)) {
        walk(inner, `${prefix}${key}.`);
      }
    }
  };
  walk(value, '');
  return value;
}

/** Deep-merges `value` into `target[key]`: objects merge key by key, arrays index by index, scalars replace. */
function mergeValue(target: Record<string, unknown> | unknown[], key: string, value: unknown): void {
  const slot = target as Record<string, unknown>;
  const current = slot[key];
  if (isPlainObject(value) && (isPlainObject(current) || Array.isArray(current))) {
    for (const [innerKey, inner] of Object.entries(value)) {
      setPath(current, splitOverridePath(innerKey), inner);
    }
    return;
  }
  if (Array.isArray(value) && Array.isArray(current)) {
    // Index by index, so `giftees: [{"user_id": 5}]` refines the generated giftee instead of replacing it;
    // the override's length wins, so `emotes: []` still empties the list.
    slot[key] = value.map((item: unknown, i) => {
      const existing: unknown = current[i];
      if (!isPlainObject(item) || !isPlainObject(existing)) {
        return isPlainObject(item) ? mergeFresh(item) : item;
      }
      const merged = { ...existing };
      for (const [innerKey, inner] of Object.entries(item)) {
        setPath(merged, splitOverridePath(innerKey), inner);
      }
      return merged;
    });
    return;
  }
  slot[key] = isPlainObject(value) ? mergeFresh(value) : value;
}

function mergeFresh(value: Record<string, unknown>): Record<string, unknown> {
  const fresh: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    setPath(fresh, splitOverridePath(key), inner);
  }
  return fresh;
}

function setPath(target: Record<string, unknown> | unknown[], segments: string[], value: unknown): void {
  let node: Record<string, unknown> | unknown[] = target;
  for (let i = 0; i < segments.length - 1; i++) {
    const segment = segments[i]!;
    const next = (node as Record<string, unknown>)[segment];
    if (isPlainObject(next) || Array.isArray(next)) {
      node = next;
    } else {
      // A missing (or scalar) step becomes an object, so `metadata.category.id` works on any payload.
      const created: Record<string, unknown> = {};
      (node as Record<string, unknown>)[segment] = created;
      node = created;
    }
  }
  mergeValue(node, segments[segments.length - 1]!, value);
}

/**
 * Applies overrides to a payload in place and returns it. Keys apply in insertion order, so a later
 * `sender.username` refines an earlier `sender` object.
 */
export function applyOverrides<T>(payload: T, overrides: Overrides): T {
  if (!isPlainObject(payload)) {
    throw new OverrideError('overrides: the payload is not an object');
  }
  for (const [key, value] of Object.entries(overrides)) {
    setPath(payload, splitOverridePath(key), value);
  }
  return payload;
}

/** The overrides as one nested object (`{"a.b": 1}` → `{a: {b: 1}}`), for reading single fields. */
export function overrideTree(overrides: Overrides): Record<string, unknown> {
  return applyOverrides({}, overrides);
}

/** The value an overrides object sets at `path`, or undefined when it sets none. */
export function readOverride(overrides: Overrides, path: string): unknown {
  let node: unknown = overrideTree(overrides);
  for (const segment of path.split('.')) {
    if (!isPlainObject(node) && !Array.isArray(node)) {
      return undefined;
    }
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

/**
 * Parses a CLI `field.path=value` argument. The value is JSON when it parses as JSON (`5`, `true`,
 * `null`, `"5"`, `{"a":1}`), else the literal string, so `content=hello world` needs no quoting.
 */
export function parseFieldAssignment(argument: string): [string, unknown] {
  const eq = argument.indexOf('=');
  if (eq <= 0) {
    throw new OverrideError(`${argument}: expected field.path=value`);
  }
  const path = argument.slice(0, eq);
  splitOverridePath(path);
  const raw = argument.slice(eq + 1);
  try {
    return [path, JSON.parse(raw) as unknown];
  } catch {
    return [path, raw];
  }
}
