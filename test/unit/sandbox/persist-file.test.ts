/**
 * The saved world's file (sandbox/persist-file.ts): saves are coalesced (one write for a burst of changes,
 * at the time the injected timer says), a flush writes at once, a failed write is said once and tried again;
 * a file that cannot be moved aside is never written over.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SavedWorld } from '../../../sandbox/persist';
import { createWorldSaver, readWorldFile, type SaveTimers, WORLD_FILE_MAX_BYTES } from '../../../sandbox/persist-file';

/** Timers the test fires by hand. */
function manualTimers(): SaveTimers & { pending: (() => void)[]; fire(): void } {
  const pending: (() => void)[] = [];
  return {
    pending,
    set: (run) => {
      pending.push(run);
      return run;
    },
    clear: (handle) => {
      pending.splice(pending.indexOf(handle as () => void), 1);
    },
    fire() {
      pending.splice(0).forEach((run) => run());
    },
  };
}

describe('the saved world file', () => {
  let dir: string;
  let path: string;
  let snapshots: number;
  const world = (): SavedWorld => {
    snapshots++;
    return { version: 1, savedAtMs: snapshots } as SavedWorld;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'greenroom-world-file-'));
    path = join(dir, 'sandbox-world.json');
    snapshots = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a burst of changes once, when the timer fires', async () => {
    const timers = manualTimers();
    const saver = createWorldSaver({ path, snapshot: world, log: () => undefined, timers });
    for (let i = 0; i < 50; i++) {
      saver.changed();
    }
    expect(timers.pending).toHaveLength(1);
    expect(existsSync(path)).toBe(false);
    timers.fire();
    await saver.flush();
    expect(snapshots).toBe(1);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ version: 1, savedAtMs: 1 });
    await saver.flush();
    expect(snapshots).toBe(1);
  });

  it('saves at once when asked, and a burst of such asks shares the writes', async () => {
    const timers = manualTimers();
    const saver = createWorldSaver({ path, snapshot: world, log: () => undefined, timers });
    saver.changed();
    await saver.saveNow();
    // On disk when the promise settles, the pending routine save taken along with it.
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ version: 1, savedAtMs: 1 });
    expect(timers.pending).toHaveLength(0);
    await Promise.all(Array.from({ length: 20 }, () => saver.saveNow()));
    // Twenty asks before the write began: one write holds them all.
    expect(snapshots).toBe(2);
    await saver.stop();
    const after = snapshots;
    await saver.saveNow();
    expect(snapshots).toBe(after);
  });

  it('writes at stop what changed since, and nothing after', async () => {
    const timers = manualTimers();
    const saver = createWorldSaver({ path, snapshot: world, log: () => undefined, timers });
    saver.changed();
    await saver.stop();
    expect(snapshots).toBe(1);
    saver.changed();
    expect(timers.pending).toHaveLength(0);
    await saver.flush();
    expect(snapshots).toBe(1);
  });

  it('says a failed write once, and writes on a later change once it can', async () => {
    const logs: string[] = [];
    mkdirSync(path);
    const saver = createWorldSaver({ path, snapshot: world, log: (line) => logs.push(line), timers: manualTimers() });
    saver.changed();
    await saver.flush();
    saver.changed();
    await saver.flush();
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/could not save the world to .*sandbox-world\.json/);
    rmSync(path, { recursive: true });
    saver.changed();
    await saver.flush();
    expect(existsSync(path)).toBe(true);
  });

  it('a damaged file that cannot be moved aside is left as it is, and not to be written', () => {
    writeFileSync(path, '{"version":1,');
    const notices: string[] = [];
    const read = readWorldFile({
      path,
      setAside: () => {
        throw Object.assign(new Error('read-only'), { code: 'EROFS' });
      },
      notice: (line) => notices.push(line),
    });
    expect(read).toEqual({ world: null, writable: false });
    expect(notices).toEqual([
      `Greenroom: the saved sandbox world ${path} was damaged (not valid JSON), and it could not be moved aside (EROFS); the sandbox starts fresh and will not save over it.`,
    ]);
    expect(readFileSync(path, 'utf8')).toBe('{"version":1,');
  });

  it('a file far larger than any saved world is moved aside unread', () => {
    // Sparse: the size is there without the disk space.
    writeFileSync(path, '');
    truncateSync(path, WORLD_FILE_MAX_BYTES + 1);
    const notices: string[] = [];
    const read = readWorldFile({ path, setAside: () => `${path}.aside`, notice: (line) => notices.push(line) });
    expect(read).toEqual({ world: null, writable: true });
    expect(notices).toEqual([
      `Greenroom: the saved sandbox world ${path} is 16.0 MB, too large to be a saved world (at most 16 MB); it was moved to ${path}.aside and the sandbox starts fresh (sign in again).`,
    ]);
  });

  it('no file is a fresh start with nothing said', () => {
    const notices: string[] = [];
    expect(readWorldFile({ path, setAside: () => '', notice: (line) => notices.push(line) })).toEqual({
      world: null,
      writable: true,
    });
    expect(notices).toEqual([]);
  });
});
