/**
 * Runtime checks for the ten v1 webhook payloads ([reference §5.7–5.8](../../../docs/kick-wire-reference.md#57-shared-user-objects-in-payloads)), loose the way real deliveries
 * are: unknown keys are kept (e.g. the deprecated capitalised `Category` beside `category`), nullable
 * fields may also be absent (read as null), and optional objects (`identity`, `replies_to`) may be null
 * or missing. A required field that is absent or of the wrong type fails, naming its path.
 *
 * Hand-written rather than zod: this runs for every accepted delivery, and checking the freshly parsed
 * JSON in place (no copy, nothing allocated unless it fails) keeps it far below the RSA verification
 * beside it ([design notes](../../../docs/design-notes.md): verification is the floor).
 */
import type { KickCompactUser, KickEventPayloads, KickEventUser, KickIdentity } from '../../../shared/kick/events';
import type { KickEventType } from '../../../shared/kick/scopes';
import type { Result } from '../../../shared/errors';

/** Checks a value and returns it (normalised: an absent nullable field becomes null); throws when invalid. */
export type Check<T> = (value: unknown) => T;

/** A failed check: where (filled in on the way out) and what. */
class Invalid extends Error {
  readonly path: (string | number)[] = [];
}

function describeValue(value: unknown): string {
  if (value === null) {
    return 'null';
  }
  if (value === undefined) {
    return 'nothing';
  }
  if (Array.isArray(value)) {
    return 'an array';
  }
  return typeof value === 'number' && !Number.isInteger(value) ? `${value}` : typeof value;
}

function fail(expected: string, value: unknown): never {
  throw new Invalid(`expected ${expected}, got ${describeValue(value)}`);
}

/** Runs a child check, adding its key to the path of a failure. */
function at<T>(key: string | number, check: Check<T>, value: unknown): T {
  try {
    return check(value);
  } catch (error) {
    if (error instanceof Invalid) {
      error.path.unshift(key);
    }
    throw error;
  }
}

// --- Building blocks ---

const string: Check<string> = (v) => (typeof v === 'string' ? v : fail('a string', v));
const boolean: Check<boolean> = (v) => (typeof v === 'boolean' ? v : fail('a boolean', v));
const int: Check<number> = (v) => (Number.isSafeInteger(v) ? (v as number) : fail('an integer', v));

/** `T | null`, where real payloads sometimes leave the field out: absent reads as null. */
function nullable<T>(check: Check<T>): Check<T | null> {
  return (v) => (v === null || v === undefined ? null : check(v));
}

/** May be absent; when present must pass. */
function optional<T>(check: Check<T>): Check<T | undefined> {
  return (v) => (v === undefined ? undefined : check(v));
}

/** May be absent or null. */
function nullish<T>(check: Check<T>): Check<T | null | undefined> {
  return (v) => (v === undefined || v === null ? v : check(v));
}

function oneOf<const T extends string>(values: readonly T[]): Check<T> {
  return (v) => ((values as readonly unknown[]).includes(v) ? (v as T) : fail(`one of ${values.join(', ')}`, v));
}

function array<T>(check: Check<T>): Check<T[]> {
  return (v) => {
    if (!Array.isArray(v)) {
      fail('an array', v);
    }
    for (let i = 0; i < v.length; i++) {
      at(i, check, v[i]);
    }
    return v as T[];
  };
}

type Shape = Record<string, Check<unknown>>;
type Shaped<S extends Shape> = { [K in keyof S]: ReturnType<S[K]> };

/** An object with at least these fields; other keys are kept as they are. */
function object<S extends Shape>(shape: S): Check<Shaped<S>> {
  const keys = Object.keys(shape);
  return (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      fail('an object', v);
    }
    const record = v as Record<string, unknown>;
    for (const key of keys) {
      const value = record[key];
      const out = at(key, shape[key]!, value);
      // Only absent nullable fields change (to null); everything else is checked in place.
      if (out !== value) {
        record[key] = out;
      }
    }
    return v as Shaped<S>;
  };
}

// --- Kick's shapes ---

const identity: Check<KickIdentity> = object({
  username_color: string,
  badges: array(object({ text: string, type: string, count: optional(int) })),
});

/** EventUser: every field but `is_anonymous` nullable (an anonymous gifter has only that one set). */
const eventUser: Check<KickEventUser> = object({
  is_anonymous: boolean,
  user_id: nullable(int),
  username: nullable(string),
  is_verified: nullable(boolean),
  profile_picture: nullable(string),
  channel_slug: nullable(string),
  identity: nullish(identity),
});

/** CompactUser: no `is_anonymous`, no `identity`; id and name are always there. */
const compactUser: Check<KickCompactUser> = object({
  user_id: int,
  username: string,
  is_verified: nullable(boolean),
  profile_picture: nullable(string),
  channel_slug: nullable(string),
});

const subscription = object({
  broadcaster: eventUser,
  subscriber: eventUser,
  duration: int,
  created_at: string,
  expires_at: optional(string),
});

/** One check per documented event type, typed against the payload interfaces in `shared/kick/events.ts`. */
export const PAYLOAD_CHECKS: { [T in KickEventType]: Check<KickEventPayloads[T]> } = {
  'chat.message.sent': object({
    message_id: string,
    replies_to: nullish(object({ message_id: string, content: string, sender: eventUser })),
    broadcaster: eventUser,
    sender: eventUser,
    content: string,
    emotes: nullable(array(object({ emote_id: string, positions: array(object({ s: int, e: int })) }))),
    created_at: optional(string),
  }),
  'channel.followed': object({ broadcaster: eventUser, follower: eventUser }),
  'channel.subscription.renewal': subscription,
  'channel.subscription.new': subscription,
  'channel.subscription.gifts': object({
    broadcaster: eventUser,
    gifter: eventUser,
    giftees: array(eventUser),
    created_at: string,
    expires_at: optional(string),
  }),
  'channel.reward.redemption.updated': object({
    id: string,
    user_input: string,
    status: oneOf(['pending', 'accepted', 'rejected']),
    redeemed_at: string,
    reward: object({ id: string, title: string, cost: int, description: string }),
    redeemer: compactUser,
    broadcaster: compactUser,
  }),
  'livestream.status.updated': object({
    broadcaster: eventUser,
    is_live: boolean,
    title: string,
    started_at: string,
    ended_at: nullable(string),
  }),
  'livestream.metadata.updated': object({
    broadcaster: eventUser,
    metadata: object({
      title: string,
      language: string,
      has_mature_content: boolean,
      category: object({ id: int, name: string, thumbnail: string }),
    }),
  }),
  'moderation.banned': object({
    broadcaster: eventUser,
    moderator: eventUser,
    banned_user: eventUser,
    metadata: object({ reason: string, created_at: string, expires_at: nullable(string) }),
  }),
  'kicks.gifted': object({
    broadcaster: compactUser,
    sender: compactUser,
    gift: object({
      amount: int,
      name: string,
      type: string,
      tier: string,
      message: string,
      pinned_time_seconds: optional(int),
    }),
    created_at: string,
  }),
};

/** The checked payload, or the first problem as `payload.sender.user_id: expected an integer, got string`. */
export function checkPayload<T extends KickEventType>(type: T, payload: unknown): Result<KickEventPayloads[T], string> {
  try {
    return { ok: true, value: PAYLOAD_CHECKS[type](payload) };
  } catch (error) {
    if (!(error instanceof Invalid)) {
      throw error;
    }
    const path = error.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('');
    return { ok: false, error: `payload${path}: ${error.message}` };
  }
}
