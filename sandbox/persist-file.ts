/**
 * The saved sandbox world on disk ([sandbox notes](../docs/sandbox.md#what-the-saved-world-keeps)): read once
 * at start, written whole (a new file synced, then renamed over the old one, data-files.ts) at most once a
 * second while the world changes, at once for a change that must outlive a crash (`saveNow`), and at stop.
 *
 * A file that cannot be used (not JSON, not a saved world, written by a newer Greenroom, or a link, folder
 * or special file where the file belongs) is moved aside by the caller's `setAside` (the app's
 * `<name>.damaged-<time>`), one plain line says so, and the sandbox starts from its seeded world. When it
 * cannot be moved aside, or the caller has no `setAside` (`npm run sandbox -- --state FILE`, which then
 * refuses to start), it is left as it is and nothing is written over it.
 */
import { lstatSync } from 'node:fs';
import { readDataFile, RefusedPathError, writeDataFileAsync } from '../electron/core/data-files';
import { parseWorld, type SavedWorld, WORLD_FILE_MAX_BYTES, type WorldProblem } from './persist';

/** The embedded sandbox's file in Greenroom's data dir. */
export const SANDBOX_WORLD_FILE = 'sandbox-world.json';

/** The largest saved world read back (or written: `saveWorld` fits what it keeps under it). */
export { WORLD_FILE_MAX_BYTES };

/** How long changes gather before the file is written (the world changes in bursts: a raid, a wave). */
export const WORLD_SAVE_DELAY_MS = 1000;

export interface WorldFileDeps {
  path: string;
  /** Moves the file at `path` aside and returns its new name; throws when it cannot. Absent: left as it is. */
  setAside?: (path: string) => string;
  /** One plain line for the streamer. */
  notice: (line: string) => void;
}

export interface ReadWorld {
  world: SavedWorld | null;
  /** False when a file that could not be used is still at the path: it must not be written over. */
  writable: boolean;
}

type FileProblem =
  WorldProblem | { kind: 'json' } | { kind: 'refused'; what: string } | { kind: 'large'; bytes: number };

function problemText(problem: FileProblem): string {
  switch (problem.kind) {
    case 'large':
      return `is ${(problem.bytes / 1024 / 1024).toFixed(1)} MB, too large to be a saved world (at most ${WORLD_FILE_MAX_BYTES / 1024 / 1024} MB)`;
    case 'json':
      return 'was damaged (not valid JSON)';
    case 'damaged':
      return `was damaged (${problem.detail})`;
    case 'newer':
      return `was saved by a newer Greenroom (version ${problem.version}), which this one cannot read`;
    case 'refused':
      return `is ${problem.what}, which Greenroom will not follow or use`;
  }
}

/** The saved world at `deps.path`, or null (nothing there, or a file moved aside with one line). */
export function readWorldFile(deps: WorldFileDeps): ReadWorld {
  const { path } = deps;
  const size = lstatSync(path, { throwIfNoEntry: false });
  if (size?.isFile() && size.size > WORLD_FILE_MAX_BYTES) {
    return setAside(deps, problemText({ kind: 'large', bytes: size.size }));
  }
  let bytes: Buffer | null;
  try {
    bytes = readDataFile(path);
  } catch (error) {
    if (error instanceof RefusedPathError) {
      return setAside(deps, problemText({ kind: 'refused', what: error.what }));
    }
    deps.notice(
      `Greenroom: the saved sandbox world ${path} could not be read (${reasonOf(error)}); the sandbox starts fresh.`,
    );
    return { world: null, writable: false };
  }
  if (bytes === null) {
    return { world: null, writable: true };
  }
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString('utf8'));
  } catch {
    return setAside(deps, problemText({ kind: 'json' }));
  }
  const parsed = parseWorld(data);
  if (!parsed.ok) {
    return setAside(deps, problemText(parsed.problem));
  }
  return { world: parsed.world, writable: true };
}

function setAside(deps: WorldFileDeps, why: string): ReadWorld {
  const start = `Greenroom: the saved sandbox world ${deps.path} ${why}`;
  if (!deps.setAside) {
    deps.notice(`${start}; it was left as it is.`);
    return { world: null, writable: false };
  }
  try {
    const aside = deps.setAside(deps.path);
    deps.notice(`${start}; it was moved to ${aside} and the sandbox starts fresh (sign in again).`);
    return { world: null, writable: true };
  } catch (error) {
    deps.notice(
      `${start}, and it could not be moved aside (${reasonOf(error)}); the sandbox starts fresh and will not save over it.`,
    );
    return { world: null, writable: false };
  }
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code ?? (error instanceof Error ? error.message : String(error));
}

/** Timers, injected so tests decide when a coalesced save runs. */
export interface SaveTimers {
  set(run: () => void, delayMs: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: SaveTimers = {
  set: (run, delayMs) => setTimeout(run, delayMs).unref(),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface WorldSaver {
  /** Something changed: the file is written within the save delay (once, however many changes came). */
  changed(): void;
  /** Writes now if anything changed since the last write (at stop, and after a reset). */
  flush(): Promise<void>;
  /**
   * Something changed that must outlive a crash (a sign-in, a subscription): written now, durably. Calls
   * that come while a write is under way share the next one, so a burst of them costs two writes at most.
   */
  saveNow(): Promise<void>;
  /** Writes nothing more after the flush under way; at stop. */
  stop(): Promise<void>;
}

/** Saves `snapshot()` to `path`, coalesced. A write that fails is said once in `log`, and tried again. */
export function createWorldSaver(deps: {
  path: string;
  snapshot: () => SavedWorld;
  log: (line: string) => void;
  timers?: SaveTimers;
  delayMs?: number;
}): WorldSaver {
  const timers = deps.timers ?? realTimers;
  let dirty = false;
  let timer: unknown = null;
  let writing: Promise<void> = Promise.resolve();
  let failed = false;
  let stopped = false;

  const write = (): Promise<void> => {
    writing = writing.then(async () => {
      if (!dirty) {
        return;
      }
      dirty = false;
      try {
        const text = `${JSON.stringify(deps.snapshot())}\n`;
        const bytes = Buffer.byteLength(text);
        // Never a file the next start would refuse: the one there now is kept instead.
        if (bytes > WORLD_FILE_MAX_BYTES) {
          throw new Error(`the world came to ${bytes} bytes, over the ${WORLD_FILE_MAX_BYTES}-byte limit`);
        }
        await writeDataFileAsync(deps.path, text);
        failed = false;
      } catch (error) {
        dirty = true;
        if (!failed) {
          deps.log(
            `sandbox: could not save the world to ${deps.path} (${reasonOf(error)}); trying again on the next change`,
          );
        }
        failed = true;
      }
    });
    return writing;
  };
  const flush = (): Promise<void> => {
    if (timer !== null) {
      timers.clear(timer);
      timer = null;
    }
    return write();
  };
  return {
    changed() {
      if (stopped) {
        return;
      }
      dirty = true;
      timer ??= timers.set(() => {
        timer = null;
        void write();
      }, deps.delayMs ?? WORLD_SAVE_DELAY_MS);
    },
    flush,
    saveNow() {
      if (stopped) {
        return writing;
      }
      dirty = true;
      return flush();
    },
    async stop() {
      await flush();
      stopped = true;
    },
  };
}
