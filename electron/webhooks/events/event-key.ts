/**
 * An event's own identity, apart from the delivery that carried it
 * ([design notes](../../../docs/design-notes.md#kicks-own-event-ids)). Kick resends the same event under a new
 * `Kick-Event-Message-Id` ([reference §5.5](../../../docs/kick-wire-reference.md#55-expected-response-and-retries)),
 * and the body-hash window catches such a copy only for ten seconds. Two events carry Kick's own id for what happened
 * ([reference §5.8](../../../docs/kick-wire-reference.md#58-payloads-v1-field-by-field)), and with it a copy is
 * recognised for as long as message ids are remembered (48 h):
 *
 * - `chat.message.sent`: `message_id`, one chat line;
 * - `channel.reward.redemption.updated`: `id` with `status`, since one redemption is announced again when
 *   the streamer accepts or rejects it, and that change is news.
 *
 * The key is written as a ULID so the id memory stores it like a message id (decoded, not hashed): the
 * event's own time (`created_at`, `redeemed_at`) in the first 48 bits keeps the memory's runs ordered by
 * time, and 80 bits of SHA-256 over the type and id tell events apart. Without a readable time the key is
 * the hash alone, still exact, only not ordered.
 *
 * A chat line's time is taken to the whole second: the live socket gives `created_at` in whole seconds and the
 * webhook to the nanosecond ([reference §10](../../../docs/kick-wire-reference.md#10-kicks-live-socket)), and the
 * line the socket brought first must have the same key as its webhook
 * ([design notes](../../../docs/design-notes.md#chat-from-the-live-socket-first)).
 */
import { hash } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** Longest id taken as Kick's (a UUID or a ULID in practice); anything longer is not an id we trust. */
const MAX_ID_LENGTH = 128;
/** ULID time limit: 48 bits of milliseconds. */
const MAX_TIME_MS = 2 ** 48 - 1;

/** The key of the event in `payload` (already parsed), or null when its type has no id of its own. */
export function eventKeyOf(type: string, payload: unknown): string | null {
  if (typeof payload !== 'object' || payload === null) {
    return null;
  }
  const fields = payload as Record<string, unknown>;
  if (type === 'chat.message.sent') {
    return isId(fields.message_id) ? buildKey(`${type}\n${fields.message_id}`, fields.created_at, 1000) : null;
  }
  if (type === 'channel.reward.redemption.updated') {
    const { id, status } = fields;
    return isId(id) && typeof status === 'string' && status.length <= MAX_ID_LENGTH
      ? buildKey(`${type}\n${id}\n${status}`, fields.redeemed_at)
      : null;
  }
  return null;
}

function isId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_LENGTH;
}

/** The key's 26 character codes, filled in place and made into one string: no string per character. */
const keyCodes: number[] = new Array<number>(26).fill(0);
const CROCKFORD_CODES = Array.from(CROCKFORD, (c) => c.charCodeAt(0));

/** The value of one lower-case hex digit's character code. */
function nibble(code: number): number {
  return code <= 57 ? code - 48 : code - 87;
}

/** Byte `i` of a lower-case hex digest, read in place. */
function hexByte(hex: string, i: number): number {
  return (nibble(hex.charCodeAt(2 * i)) << 4) | nibble(hex.charCodeAt(2 * i + 1));
}

/** 10 characters of time (or of hash, without one), then 16 of hash: a canonical ULID. */
function buildKey(identity: string, time: unknown, unitMs = 1): string {
  // The one-shot hash as hex: one string, where a Buffer cost an ArrayBuffer and its views per event.
  const digest = hash('sha256', identity, 'hex');
  const parsed = typeof time === 'string' ? Date.parse(time) : NaN;
  const ms = Math.floor(parsed / unitMs) * unitMs;
  if (Number.isSafeInteger(ms) && ms >= 0 && ms <= MAX_TIME_MS) {
    let t = ms;
    for (let i = 9; i >= 0; i--) {
      keyCodes[i] = CROCKFORD_CODES[t % 32]!;
      t = Math.floor(t / 32);
    }
  } else {
    // First character 0–7, as a ULID's must be, so the id memory decodes the key rather than hashing it.
    keyCodes[0] = CROCKFORD_CODES[hexByte(digest, 16) % 8]!;
    for (let i = 17; i < 26; i++) {
      keyCodes[i - 16] = CROCKFORD_CODES[hexByte(digest, i) % 32]!;
    }
  }
  for (let i = 0; i < 16; i++) {
    keyCodes[10 + i] = CROCKFORD_CODES[hexByte(digest, i) % 32]!;
  }
  return String.fromCharCode(...keyCodes);
}
