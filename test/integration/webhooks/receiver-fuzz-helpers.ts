/**
 * The receiver fuzz's building blocks: a seeded random source, garbage text and header-list edits.
 */
import { createHash } from 'node:crypto';

/** mulberry32: small, fast, and the same sequence on every run for a seed. */
export function createRng(seed: number) {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return { next, int, pick: <T>(items: readonly T[]): T => items[int(items.length)]! };
}

export type Rng = ReturnType<typeof createRng>;

/** One request as sent: header pairs (flat, so a name may repeat) and the body. */
export interface Mutant {
  kind: string;
  headers: [string, string][];
  body: Buffer;
}

export const SIGNED_HEADERS = ['Kick-Event-Message-Id', 'Kick-Event-Message-Timestamp', 'Kick-Event-Signature'];
export const ALL_HEADERS = [
  ...SIGNED_HEADERS,
  'Kick-Event-Subscription-Id',
  'Kick-Event-Type',
  'Kick-Event-Version',
  'Content-Type',
];

export const sha = (body: Buffer): string => createHash('sha256').update(body).digest('hex');
export const tripleKey = (id: string, ts: string, body: Buffer): string => `${id}\n${ts}\n${sha(body)}`;

/** Header values undici will send: printable ASCII, tab and Latin-1 (no CR, LF, NUL or DEL). */
export function garbage(rng: Rng, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    const r = rng.int(10);
    out += String.fromCharCode(r === 0 ? 0x80 + rng.int(0x80) : r === 1 ? 0x09 : 0x20 + rng.int(0x5f));
  }
  return out;
}

export function set(headers: [string, string][], name: string, value: string | undefined): [string, string][] {
  const rest = headers.filter(([n]) => n.toLowerCase() !== name.toLowerCase());
  return value === undefined ? rest : [...rest, [name, value]];
}

export function get(headers: [string, string][], name: string): string[] {
  return headers.filter(([n]) => n.toLowerCase() === name.toLowerCase()).map(([, v]) => v);
}
