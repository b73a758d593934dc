/** The id memory's parts: exact ULID keys, the open table, and runs sealed, spilled, expired and reloaded. */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUlid } from '../../../../../electron/core/ids';
import { compareKeys, KEY_WORDS, sortKeysInPlace, writeIdKey } from '../../../../../electron/webhooks/dedup/id-key';
import { IdMemory } from '../../../../../electron/webhooks/dedup/id-memory';
import { KeyTable } from '../../../../../electron/webhooks/dedup/id-table';

const T = 1_750_000_000_000;
const HOUR = 3_600_000;

function key(id: string): Uint32Array {
  const out = new Uint32Array(KEY_WORDS);
  writeIdKey(id, out, 0);
  return out;
}

describe('id keys', () => {
  it("decode a ULID's 128 bits exactly, so ids differing in their last bit differ and sort as the strings do", () => {
    expect([...key('00000000000000000000000001')]).toEqual([0, 0, 0, 1]);
    expect([...key('7ZZZZZZZZZZZZZZZZZZZZZZZZZ')]).toEqual([0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff]);
    const ids = Array.from({ length: 200 }, (_, i) => createUlid(T + i * 7919));
    const byString = [...ids].sort();
    const byKey = [...ids].sort((a, b) => compareKeys(key(a), 0, key(b), 0));
    expect(byKey).toEqual(byString);
  });

  it('hash anything else to 128 bits, deterministically', () => {
    expect(key('not-a-ulid')).toEqual(key('not-a-ulid'));
    expect(key('not-a-ulid')).not.toEqual(key('not-a-ulie'));
    // Lower case is not Kick's canonical form, so it is a different id, as its string is.
    expect(key('01jq8zv4m3k5n7p9r1s3t5v7xa')).not.toEqual(key('01JQ8ZV4M3K5N7P9R1S3T5V7XA'));
  });

  it('decode exactly what a canonical ULID is and hash everything near one, as the keys on disk were made', () => {
    // Independent of the decoder: the ULID read as a base-32 number, and SHA-256's first 128 bits otherwise.
    const ulid = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
    const reference = (id: string): number[] => {
      const value = ulid.test(id)
        ? [...id].reduce((n, c) => n * 32n + BigInt('0123456789ABCDEFGHJKMNPQRSTVWXYZ'.indexOf(c)), 0n)
        : BigInt(`0x${createHash('sha256').update(id, 'utf8').digest('hex').slice(0, 32)}`);
      return [96n, 64n, 32n, 0n].map((shift) => Number((value >> shift) & 0xffffffffn));
    };
    const base = createUlid(T);
    const near = [
      base,
      `8${base.slice(1)}`, // past 128 bits
      base.toLowerCase(),
      base.slice(0, 25),
      `${base}0`,
      `${base.slice(0, 25)}\n`,
      ...['I', 'L', 'O', 'U', 'i', '@', '[', '\u00c9', '\u{1F600}'].map((c) =>
        `${base.slice(0, 13)}${c}${base.slice(14)}`.slice(0, 26),
      ),
      '',
      'x'.repeat(26),
      ...Array.from({ length: 300 }, (_, i) => createUlid(T + i * 104_729)),
    ];
    for (const id of near) {
      expect([...key(id)], id).toEqual(reference(id));
    }
  });

  it('sort in place as a comparison sort does, only the first `count` keys', () => {
    const ids = Array.from({ length: 3001 }, (_, i) =>
      i % 4 === 0 ? `custom-${i}` : createUlid(T + ((i * 7919) % 5000)),
    );
    const packed = new Uint32Array(ids.length * KEY_WORDS);
    ids.forEach((id, i) => writeIdKey(id, packed, i * KEY_WORDS));
    const last = packed.slice(3000 * KEY_WORDS);
    sortKeysInPlace(packed, 3000);
    const expected = ids
      .slice(0, 3000)
      .map(key)
      .sort((a, b) => compareKeys(a, 0, b, 0));
    expect(Array.from({ length: 3000 }, (_, i) => [...packed.subarray(i * KEY_WORDS, (i + 1) * KEY_WORDS)])).toEqual(
      expected.map((k) => [...k]),
    );
    expect(packed.slice(3000 * KEY_WORDS)).toEqual(last);
    const one = key(ids[1]!);
    sortKeysInPlace(one, 1);
    expect(one).toEqual(key(ids[1]!));
  });
});

describe('KeyTable', () => {
  it('adds each key once and finds every key after growing', () => {
    const table = new KeyTable();
    const ids = Array.from({ length: 5000 }, (_, i) => createUlid(T + i));
    for (const id of ids) {
      expect(table.add(key(id), 0)).toBe(true);
    }
    expect(table.add(key(ids[0]!), 0)).toBe(false);
    expect(table.count).toBe(5000);
    expect(ids.every((id) => table.has(key(id), 0))).toBe(true);
    expect(table.has(key(createUlid(T)), 0)).toBe(false);
    expect(table.keys()).toHaveLength(5000 * KEY_WORDS);
  });

  it('once cleared holds nothing, keeps its grown arrays, and takes keys again', () => {
    const table = new KeyTable();
    const ids = Array.from({ length: 3000 }, (_, i) => createUlid(T + i));
    ids.forEach((id) => table.add(key(id), 0));
    const grown = table.bytes;
    table.clear();
    expect(table.count).toBe(0);
    expect(table.bytes).toBe(grown);
    expect(ids.some((id) => table.has(key(id), 0))).toBe(false);
    expect(table.keys()).toHaveLength(0);
    expect(table.add(key(ids[7]!), 0)).toBe(true);
    expect(table.add(key(ids[7]!), 0)).toBe(false);
    expect([...table.keys()]).toEqual([...key(ids[7]!)]);
  });
});

describe('IdMemory', () => {
  let dir: string;
  const logs: string[] = [];
  const open = (extra: Partial<ConstructorParameters<typeof IdMemory>[0]> = {}): IdMemory =>
    new IdMemory({ dir, retentionMs: 48 * HOUR, runMaxIds: 100, log: (line) => logs.push(line), ...extra });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'greenroom-ids-'));
    logs.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('seals full generations into runs and still recognises every id', () => {
    const memory = open();
    const ids = Array.from({ length: 1000 }, (_, i) => createUlid(T + i));
    ids.forEach((id, i) => expect(memory.add(id, T + i)).toBe(true));
    expect(memory.stats()).toMatchObject({ ids: 1000, runs: 9 });
    expect(ids.every((id) => memory.has(id))).toBe(true);
    expect(memory.add(ids[3]!, T + 2000)).toBe(false);
    expect(memory.has(createUlid(T))).toBe(false);
    memory.close();
  });

  it('over its memory cap keeps only sparse indexes, and answers from disk exactly', () => {
    const memory = open({ maxMemoryBytes: 25_000 });
    const ids = Array.from({ length: 3000 }, (_, i) => (i % 3 === 0 ? `custom-${i}` : createUlid(T + i)));
    ids.forEach((id, i) => memory.add(id, T + i));
    const stats = memory.stats();
    expect(stats.spilledRuns).toBeGreaterThan(20);
    expect(stats.memoryBytes).toBeLessThanOrEqual(25_000);
    expect(ids.every((id) => memory.has(id))).toBe(true);
    expect(Array.from({ length: 300 }, () => createUlid(T + 1500)).some((id) => memory.has(id))).toBe(false);
    memory.close();
  });

  /** Adds `count` ids to a memory with `options`, closes it, and opens it again as the next start would. */
  const restartWith = (
    options: Partial<ConstructorParameters<typeof IdMemory>[0]>,
    count: number,
  ): { ids: string[]; second: IdMemory } => {
    const first = open(options);
    const ids = Array.from({ length: count }, (_, i) => createUlid(T + i));
    ids.forEach((id, i) => first.add(id, T + i));
    first.close();
    return { ids, second: open(options) };
  };

  it('comes back after a restart: sealed runs from their files, the open generation from its log', () => {
    const { ids, second } = restartWith({ maxMemoryBytes: 20_000 }, 1050);
    expect(second.stats().ids).toBe(1050);
    expect(ids.every((id) => second.has(id))).toBe(true);
    second.close();
  });

  it('writes and reads back runs larger than one write chunk, checksum and all', () => {
    const { ids, second } = restartWith({ runMaxIds: 5000 }, 10_001);
    expect(second.stats()).toMatchObject({ ids: 10_001, runs: 2 });
    expect(ids.every((id) => second.has(id))).toBe(true);
    expect(second.has(createUlid(T + 5))).toBe(false);
    expect(logs).toEqual([]);
    second.close();
  });

  it('writes the open log once per event-loop turn, not once per id, and a crash after the turn keeps them', async () => {
    const first = open({ runMaxIds: 10_000 });
    const ids = Array.from({ length: 500 }, (_, i) => createUlid(T + i));
    ids.forEach((id, i) => first.add(id, T + i));
    const log = join(dir, 'open.log');
    expect(statSync(log).size).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(statSync(log).size).toBe(500 * 24);
    // No close(): the process dies here. What the turn wrote is read back.
    const second = open({ runMaxIds: 10_000 });
    expect(ids.every((id) => second.has(id))).toBe(true);
    second.close();
    first.close();
  });

  it('forgets runs older than the retention, deleting their files', () => {
    const memory = open({ retentionMs: 2 * HOUR, runMaxSpanMs: HOUR });
    const old = createUlid(T);
    memory.add(old, T);
    memory.add(createUlid(T + HOUR), T + HOUR);
    expect(memory.has(old)).toBe(true);
    memory.add(createUlid(T + 4 * HOUR), T + 4 * HOUR);
    expect(memory.has(old)).toBe(false);
    expect(readdirSync(dir).filter((name) => name.endsWith('.ids'))).toHaveLength(0);
    memory.close();
  });

  it('ignores a damaged run file with one line naming it, and cuts a torn log record', () => {
    const first = open();
    const ids = Array.from({ length: 150 }, (_, i) => createUlid(T + i));
    ids.forEach((id, i) => first.add(id, T + i));
    first.close();
    const run = readdirSync(dir).find((name) => name.endsWith('.ids'))!;
    writeFileSync(join(dir, run), 'garbage');
    writeFileSync(join(dir, 'open.log'), Buffer.alloc(24 * 50 + 7), { flag: 'a' });
    const logSize = statSync(join(dir, 'open.log')).size;
    const second = open();
    expect(logs).toEqual([`webhooks: dedup: ignoring ${run}, which is not a whole id run`]);
    expect(statSync(join(dir, 'open.log')).size).toBe(logSize - 7);
    expect(second.has(ids[149]!)).toBe(true);
    expect(second.has(ids[0]!)).toBe(false);
    second.close();
  });
});
