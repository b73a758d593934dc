/**
 * Kills a journal writer with SIGKILL mid-stream, then tears its last write by hand, and checks the promise
 * the receiver relies on: every append that resolved (and was acknowledged) is still there on reopen.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { appendFile, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { encodeRecord } from '../../../electron/webhooks/journal/journal-format';
import { createFileJournal } from '../../../electron/webhooks/journal/journal';
import { writerRecord } from './fixtures/journal-writer-record';

const root = resolve(import.meta.dirname, '../../..');
const writer = join(import.meta.dirname, 'fixtures/journal-writer.ts');
const KILL_AFTER_ACKS = 150;
const SEGMENT_BYTES = 4096;

let dir: string;
let child: ChildProcess | null = null;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'greenroom-journal-crash-'));
});

afterEach(async () => {
  // Only if an assertion failed before the kill: never leave the writer running.
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
  }
  child = null;
  await rm(dir, { recursive: true, force: true });
});

/** Runs the writer until it has acknowledged `n` appends, kills it, and returns every index it acknowledged. */
async function runAndKill(n: number): Promise<number[]> {
  // `node --import tsx` rather than the tsx CLI: the CLI runs the script in a grandchild that a SIGKILL of
  // the CLI would not reach, so the writer would live on.
  const proc = spawn(process.execPath, ['--import', 'tsx', writer, dir, String(SEGMENT_BYTES)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((done) => proc.on('exit', (_code, signal) => done(signal)));
  const acked: number[] = [];
  // Reading to the end also collects acks already in the pipe when the kill lands; those count too.
  for await (const line of createInterface({ input: proc.stdout })) {
    const match = /^ack (\d+)$/.exec(line);
    if (!match) {
      continue;
    }
    acked.push(Number(match[1]));
    if (acked.length === n) {
      proc.kill('SIGKILL');
    }
  }
  const signal = await exited;
  expect(signal, `writer did not die by SIGKILL; stderr: ${stderr}`).toBe('SIGKILL');
  return acked;
}

async function segments(): Promise<string[]> {
  return (await readdir(dir)).sort();
}

it('keeps every acknowledged append through SIGKILL and a torn write, and appends cleanly after', async () => {
  const acked = await runAndKill(KILL_AFTER_ACKS);
  expect(acked.length).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
  expect(acked).toEqual(acked.map((_, i) => i));
  const lastAck = acked.at(-1)!;
  expect((await segments()).length).toBeGreaterThan(1);

  // A power cut in the middle of a write: half of the next record's bytes reach the newest segment.
  const newest = join(dir, (await segments()).at(-1)!);
  const torn = Buffer.from(encodeRecord(writerRecord(lastAck + 2)), 'utf8');
  await appendFile(newest, torn.subarray(0, Math.floor(torn.length / 2)));

  const logs: string[] = [];
  const journal = await createFileJournal({
    dir,
    fsync: 'always',
    maxSegmentBytes: SEGMENT_BYTES,
    maxSegments: 1000,
    log: (l) => logs.push(l),
  });
  expect(logs).toEqual([expect.stringContaining('truncated a torn record')]);
  const tail = await readFile(newest);
  expect(tail.length === 0 || tail.at(-1) === 0x0a).toBe(true);

  const records = await journal.readAll();
  // Every acknowledged record, in order; at most one more was written but killed before its ack.
  expect(records.slice(0, acked.length)).toEqual(acked.map(writerRecord));
  expect(records.length - acked.length).toBeLessThanOrEqual(1);
  if (records.length > acked.length) {
    expect(records.at(-1)).toEqual(writerRecord(lastAck + 1));
  }
  // Nothing else was skipped: every line on disk is one of these records.
  let lines = 0;
  for (const name of await segments()) {
    lines += (await readFile(join(dir, name), 'utf8')).split('\n').length - 1;
  }
  expect(lines).toBe(records.length);

  const next = records.length;
  await journal.append(writerRecord(next));
  await journal.append(writerRecord(next + 1));
  await journal.close();

  const reopened = await createFileJournal({
    dir,
    maxSegmentBytes: SEGMENT_BYTES,
    maxSegments: 1000,
    log: (l) => logs.push(l),
  });
  const after = await reopened.readAll();
  await reopened.close();
  expect(after).toEqual([...records, writerRecord(next), writerRecord(next + 1)]);
  expect(logs).toHaveLength(1);
  expect((await stat(newest)).mode & 0o777).toBe(0o600);
});
