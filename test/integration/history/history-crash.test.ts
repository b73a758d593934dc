import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { expect, it } from 'vitest';
import { describeSqlite } from '../../unit/electron/history/history-fixtures';
import { CRASH_LINES, crashStream } from './history-crash-records';
import { open, useDataFolder } from './history-fixtures';

const CHILD = fileURLToPath(new URL('./fixtures/history-writer-child.ts', import.meta.url));
const folder = useDataFolder();

/** Runs the writer until it has acknowledged `atLeast` records, then kills it with SIGKILL; returns the last ack. */
function writeThenKill(path: string, atLeast: number): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, path], { stdio: ['ignore', 'pipe', 'inherit'] });
  let acked = -1;
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      acked = (JSON.parse(line) as { acked: number }).acked;
      if (acked === atLeast) {
        child.kill('SIGKILL');
      }
    });
    child.once('exit', (code, signal) => {
      if (signal === 'SIGKILL') {
        resolve(acked);
      } else {
        reject(new Error(`writer exited by itself (${code}) before it was killed`));
      }
    });
  });
}

describeSqlite('history store killed mid-write', () => {
  it('loses nothing it acknowledged to kill -9, and a catch-up from the journal counts nothing twice', async () => {
    const acked = await writeThenKill(folder.path(), 2_000);
    expect(acked).toBeGreaterThanOrEqual(2_000);
    expect(acked).toBeLessThan(CRASH_LINES);

    // Without the journal: only what the store itself kept. Every acknowledged line is there.
    const alone = await open(folder.path(), []);
    const kept = alone.store.chatLines();
    expect(kept.length).toBeGreaterThanOrEqual(acked); // record 0 is the live status, lines are 1..acked
    expect(kept.slice(0, acked).map((l) => l.content)).toEqual(Array.from({ length: acked }, (_, i) => `line ${i}`));
    expect(alone.store.streams()).toHaveLength(1);
    const viewerCounts = [100, 149].map((id) => alone.store.viewer(id)?.messages);
    alone.store.close();

    // With the journal, which held every line before it was acknowledged: the rest come in, once each.
    const records = crashStream();
    const caught = await open(folder.path(), records);
    expect(caught.rebuilt).toBeNull();
    expect(caught.store.chatLines()).toHaveLength(CRASH_LINES);
    expect(caught.store.viewer(100)?.messages).toBe(CRASH_LINES / 50);
    expect(caught.store.viewer(149)?.messages).toBe(CRASH_LINES / 50);
    expect(viewerCounts.every((n) => n !== undefined && n <= CRASH_LINES / 50)).toBe(true);
    caught.store.close();
  });
});
