/**
 * Greenroom's mod log on disk, so the actions taken through it survive a restart (Kick sends no event for
 * a deletion or an unban, docs/design-notes.md, so nothing else could bring them back). One JSON object a
 * line in `mod-log.jsonl`:
 *
 * - An action is appended with one write and an fdatasync. A crash mid-write leaves at most a torn last
 *   line, which loading skips; the next write then rewrites the file whole, so the torn bytes never glue
 *   onto a new line.
 * - Bounded: once the file holds twice the log's size in lines, it is rewritten with the newest entries
 *   into a temporary file that is synced and renamed over the old one, so the file on disk is always either
 *   the old or the new whole.
 * - A data dir that refuses writes (read-only, full) costs the persistence, never the action: the failure
 *   is logged once and the log keeps working in memory.
 * - Nothing is lost silently ([design notes](../../docs/design-notes.md#files-in-the-data-folder)): a file
 *   that cannot be read at all (nothing in it is a mod action, or it cannot be opened) is moved aside
 *   (`mod-log.jsonl.damaged-<time>`), and one with some unreadable lines is copied aside before the rewrite
 *   leaves them out; the streamer is told in one line either way. A link in its place is moved aside, never
 *   followed, and appends refuse a file with a second name (electron/core/data-files.ts).
 */
import { z } from 'zod';
import {
  API_ERROR_CODES,
  AUTH_ERROR_CODES,
  CONTRACT_ERROR_CODES,
  OBS_ERROR_CODES,
  WEBHOOK_ERROR_CODES,
} from '../../shared/errors';
import { AUTOMOD_RULES } from '../../shared/automod';
import type { ModAction } from '../../shared/views';
import { openDataFileForAppend, readDataFile, RefusedPathError, writeDataFileAsync } from '../core/data-files';
import { asideReason, fsReason, moveAside } from '../secrets/damaged-file';

/** The file's name in the data dir. */
export const MOD_LOG_FILE = 'mod-log.jsonl';

/** Where the mod log is kept; `Moderation` loads it once and appends each action. */
export interface ModLogStore {
  /** The kept actions, oldest first, at most `limit` (the newest). Never throws. */
  load(): ModAction[];
  /**
   * Writes an action; resolves once the fdatasync covering it is done (or the write failed: failures are
   * logged, never thrown), so an action answered to the panel is on disk first.
   */
  append(action: ModAction): Promise<void>;
  /** Resolves once every queued write has finished (or failed). */
  flush(): Promise<void>;
}

const ERROR_CODES = [
  ...API_ERROR_CODES,
  ...AUTH_ERROR_CODES,
  ...WEBHOOK_ERROR_CODES,
  ...CONTRACT_ERROR_CODES,
  ...OBS_ERROR_CODES,
];

const modAction = z.object({
  id: z.string().min(1),
  kind: z.enum(['delete', 'timeout', 'ban', 'unban', 'hide', 'flag', 'show']),
  atMs: z.number(),
  targetUserId: z.int().nullable(),
  targetUsername: z.string().nullable(),
  messageId: z.string().optional(),
  minutes: z.int().optional(),
  reason: z.string().optional(),
  ok: z.boolean(),
  error: z.string().optional(),
  // A code this version does not know (written by a newer one) is dropped, not the whole line.
  errorCode: z.enum(ERROR_CODES).optional().catch(undefined),
  auto: z
    .object({
      rule: z.enum(AUTOMOD_RULES),
      reason: z.string(),
      content: z.string(),
      wouldDo: z.enum(['hide', 'delete', 'timeout', 'ban']).optional(),
    })
    .optional()
    .catch(undefined),
  elsewhere: z
    .object({ moderator: z.string().max(100).nullable() })
    .optional()
    .catch(undefined),
});

/** Options of {@link openModLogFile}. */
export interface ModLogFileDeps {
  limit: number;
  log: (line: string) => void;
  /** One plain line for the streamer about the file (moved or copied aside); `log` when absent. */
  notice?: (line: string) => void;
  /** Clock for a moved-aside file's name. */
  nowMs?: () => number;
}

/** Opens the JSON-lines mod log at `path`, keeping the newest `limit` actions. */
export function openModLogFile(path: string, options: ModLogFileDeps): ModLogStore {
  const { limit, log } = options;
  const notice = options.notice ?? log;
  const nowMs = options.nowMs ?? Date.now;
  /** The kept actions, mirrored from what is written; the source of every rewrite. */
  let kept: ModAction[] = [];
  /** Lines in the file now (valid or not), to know when a rewrite is due. */
  let linesOnDisk = 0;
  /** The file ends in a torn or foreign line, so the next write must rewrite it whole. */
  let mustRewrite = false;
  /** Lines appended since the last write started, and who waits for them; one write takes them all. */
  let pending: { line: string; done: () => void }[] = [];
  let writing: Promise<void> | null = null;
  let failureLogged = false;

  const fail = (error: unknown): void => {
    // The next write starts over from a whole file, whatever the failed one left behind.
    mustRewrite = true;
    if (!failureLogged) {
      failureLogged = true;
      log(`mod log: could not write ${path}; the log is kept in memory until Greenroom closes (${String(error)})`);
    }
  };

  /** The file could not be set aside: it is never written, so what is in it stays as it is. */
  let leaveAlone = false;
  const refuseIfLeftAlone = (): void => {
    if (leaveAlone) {
      throw new Error(`${path} is left as it was found`);
    }
  };

  const appendLines = async (lines: string[]): Promise<void> => {
    refuseIfLeftAlone();
    const file = await openDataFileForAppend(path);
    try {
      await file.write(lines.join(''));
      await file.datasync();
    } finally {
      await file.close();
    }
    linesOnDisk += lines.length;
  };

  const rewrite = async (actions: ModAction[]): Promise<void> => {
    refuseIfLeftAlone();
    await writeDataFileAsync(path, actions.map((action) => `${JSON.stringify(action)}\n`).join(''));
    linesOnDisk = actions.length;
    mustRewrite = false;
  };

  /** Moves (or, with `copy`, copies) the file aside; false when even that failed, said in the line. */
  const setAside = (why: string, after: string, copy?: Buffer): boolean => {
    try {
      const aside = moveAside(path, nowMs(), copy ? { copy } : {});
      const where = copy ? `a copy is kept as ${aside}` : `it was moved to ${aside}`;
      notice(`Greenroom: the mod log ${path} ${why}; ${where} ${after}.`);
      return true;
    } catch (error) {
      notice(
        `Greenroom: the mod log ${path} ${why}, and it could not be set aside (${fsReason(error)}); Greenroom ` +
          'leaves it as it is, and actions taken now are kept only until it closes.',
      );
      leaveAlone = true;
      return false;
    }
  };

  /**
   * Writes what is pending, then anything appended meanwhile. A rewrite takes `kept` as it is when the
   * batch is taken (it holds exactly the batch's lines as its newest), so later appends are not written twice.
   */
  const drain = async (): Promise<void> => {
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      const whole = mustRewrite || linesOnDisk + batch.length > limit * 2 ? [...kept] : null;
      try {
        await (whole ? rewrite(whole) : appendLines(batch.map((p) => p.line)));
      } catch (error) {
        fail(error);
      }
      batch.forEach((p) => p.done());
    }
    writing = null;
  };

  return {
    load() {
      let bytes: Buffer | null;
      try {
        bytes = readDataFile(path);
      } catch (error) {
        const why = error instanceof RefusedPathError ? asideReason(error) : `could not be read (${fsReason(error)})`;
        setAside(why, 'and the mod log starts empty');
        return [];
      }
      if (bytes === null) {
        return [];
      }
      const lines = bytes.toString('utf8').split('\n');
      const torn = lines.pop() !== '';
      const actions: ModAction[] = [];
      let skipped = 0;
      for (const line of lines) {
        const parsed = parseLine(line);
        if (parsed) {
          actions.push(parsed);
        } else if (line.trim() !== '') {
          skipped++;
        }
      }
      linesOnDisk = lines.length + (torn ? 1 : 0);
      if (actions.length === 0 && (skipped > 0 || torn)) {
        setAside('was damaged (nothing in it is a mod action)', 'and the mod log starts empty');
        linesOnDisk = 0;
        return [];
      }
      if (skipped > 0) {
        // The next write rewrites the file without these lines: the file as it was is kept first.
        setAside(
          `had ${skipped} line(s) that could not be read, left out of the mod log`,
          'with them; the rest of the mod log is kept',
          bytes,
        );
      } else if (torn) {
        // A line cut short by a crash mid-write: its action was never answered as done (append waits for the sync).
        log(`mod log: skipped 1 unreadable line(s) in ${path} (cut short by a crash); the rest is kept`);
      }
      mustRewrite = torn || skipped > 0;
      kept = actions.slice(-limit);
      return [...kept];
    },

    append(action) {
      kept.push(action);
      if (kept.length > limit) {
        kept.splice(0, kept.length - limit);
      }
      const written = new Promise<void>((done) => pending.push({ line: `${JSON.stringify(action)}\n`, done }));
      writing ??= drain();
      return written;
    },

    flush() {
      return writing ?? Promise.resolve();
    },
  };
}

function parseLine(line: string): ModAction | null {
  try {
    const result = modAction.safeParse(JSON.parse(line));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}
