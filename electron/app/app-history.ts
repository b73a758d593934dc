/**
 * The stream history inside the app ([history](../../docs/history.md)): opened at start in the data folder and
 * brought level with the journal, fed each record once the journal has written it, told Kick's live status at
 * start (a stream already live is joined), pruned on a timer, closed on quit, and asked by the panel through
 * the contract (`history:*`).
 *
 * Where `node:sqlite` is missing (Node 20) or the store cannot be opened, the app runs on without a history and
 * says so once: in the log, in Health, and in the Streams view (the status). Every question is then answered
 * `HistoryUnavailable`, never an internal error.
 *
 * Only Kick's event types and Greenroom's record of an ad break it ran go in: its other records in the journal
 * (`greenroom.raid`, `greenroom.late-mark`, app/README.md) are skipped, as is a type this build does not know.
 */
import { join } from 'node:path';
import { AppError } from '../../shared/errors';
import {
  HISTORY_SEARCH_RESULTS_MAX,
  type HistoryChangedView,
  type HistoryRecapView,
  type HistoryStatusView,
} from '../../shared/history';
import type { HistoryHealthView, ModAction } from '../../shared/views';
import type { Clock } from '../core/clock';
import { keptInHistory } from '../history/ad-breaks';
import { type HistoryFacts, newestMovedAside, readHistoryFacts } from '../history/history-facts';
import { openHistory } from '../history/history-open';
import { nextTurn, type HistoryStore } from '../history/history-store';
import { readViewerChat } from '../history/viewer-chat-read';
import type { LiveStatus } from '../history/history-projector';
import { createRecapQueries, type RecapQueries } from '../history/recap';
import { recapCsv, recapJson, thankYouText } from '../history/recap-export';
import {
  HISTORY_NEEDS_NEWER_NODE,
  type SqliteDriver,
  loadSqlite,
  SQLITE_HOW_TO,
  SQLITE_MISSING,
} from '../history/sqlite-driver';
import { listStreams } from '../history/streams-list';
import { impossibleAmountOf } from '../history/support-amounts';
import { createViewerSearch, type ViewerSearch } from '../history/viewer-search';
import { chatInFile, viewerExportCsv, viewerExportFileName, viewerExportJson } from '../history/viewer-export';
import { createViewerStoryQueries, type ViewerStoryQueries } from '../history/viewer-story';
import { createViewerRecall, type ViewerRecall, type ViewerRecallQueries } from '../history/viewer-recall';
import type { SqliteDatabase } from '../history/sqlite-driver';
import type { JournalRecord } from '../webhooks/events/types';
import { type HistoryPort, NO_HISTORY } from '../history/history-port';
import type { SetTimer } from '../core/scheduler';

/** The store's file in the data folder. */
export const HISTORY_FILE = 'history.sqlite';
/** While live, the panel is told the history changed at most this often. */
export const HISTORY_PUSH_MS = 5_000;
/**
 * Journaled records wait at most this long to be kept, together in one transaction
 * ([history](../../docs/history.md#one-transaction-at-a-time)); a question about the history keeps them first.
 * A commit costs about three chat lines' rows, so at a raid's 400 lines a second the 20 ms first chosen (8 lines a
 * commit) still spent a third of the history's CPU on commits; a tenth of a second holds about 40. Nothing reads the
 * history live faster than its five-second push.
 */
export const HISTORY_KEEP_MS = 100;
/** Chat lines past the retention days are deleted this often (and at every start). */
export const HISTORY_PRUNE_MS = 6 * 60 * 60 * 1000;
/** Records that arrive while the store opens wait here; past this, the store reads them back from the journal. */
const PENDING_MAX = 50_000;

/** Kick's live status as the app's LiveState holds it. */
export interface LiveFactsInput {
  live: boolean;
  confirmed: boolean;
  startedAtMs: number | null;
  title: string;
  category: string;
}

export interface AppHistoryDeps {
  dataDir: string;
  clock: Clock;
  /** The retention days (settings), read at open; `onSettingsChange` reopens the store when they change. */
  chatDays: () => number;
  onSettingsChange: (listener: () => void) => () => void;
  /** The journal (the webhook port's); absent where no journal runs, and then no history either. */
  journal:
    | {
        readAll(): Promise<JournalRecord[]>;
        onAppended(listener: (record: JournalRecord) => void): () => void;
      }
    | undefined;
  /** `node:sqlite`; `undefined` loads it, `null` is a Node without it (tests). */
  driver?: SqliteDriver | null;
  /** Greenroom's mod log, for the recap's moderation figures. */
  modLog: () => readonly ModAction[];
  /** The streamer's private note on a viewer ('' for none), for a viewer's export. */
  note?: (userId: number) => string;
  push: (view: HistoryChangedView) => void;
  /** The status changed (Health shows it). */
  statusChanged: () => void;
  setTimer: SetTimer;
  log: (line: string) => void;
}

export interface AppHistory extends HistoryPort {
  /** Opens the store and catches up with the journal (after the journal was read back). Never throws. */
  open(): Promise<void>;
  /** Kick's live status: the first one Kick confirmed joins or begins a stream live at start. */
  liveStatus(facts: LiveFactsInput): void;
  /** Closes the store (on quit); records after this are left to the next start's catch-up. */
  close(): void;
  /** What Health shows ([history](../../docs/history.md#in-health)): the status, size, streams, oldest chat line. */
  health(): HistoryHealthView;
  /**
   * The chat bot's question about one chatter ([chat variables](../../docs/chat-bot.md#chat-variables-from-the-history));
   * null while the history does not run or is still opening, never a throw.
   */
  recall(userId: number, beforeMs: number): ViewerRecall | null;
}

interface Opened {
  store: HistoryStore;
  db: SqliteDatabase;
  recaps: RecapQueries;
  stories: ViewerStoryQueries;
  viewers: ViewerSearch;
  recalls: ViewerRecallQueries;
}

export function createAppHistory(deps: AppHistoryDeps): AppHistory {
  const { log } = deps;
  const driver = deps.driver === undefined ? loadSqlite() : deps.driver;
  let state: HistoryStatusView['state'] = 'starting';
  let message: string | null = 'The stream history is opening.';
  let detail: string | null = null;
  let opened: Opened | null = null;
  let closed = false;
  let pending: JournalRecord[] = [];
  /**
   * Records journaled in the last few ms, kept together in one transaction: a commit cost about ten times a chat
   * line's rows, most of the app's time in a raid ([history](../../docs/history.md#one-transaction-at-a-time)).
   */
  let queued: JournalRecord[] = [];
  let keepTimer: { cancel(): void } | null = null;
  let overflowed = false;
  /** Kick's first confirmed live status, waiting for the store to open; then `done`. */
  let startStatus: LiveStatus | 'done' | null = null;
  let pushTimer: { cancel(): void } | null = null;
  let pruneTimer: { cancel(): void } | null = null;
  let reported = new Set<string>();
  /** For Health: journal records being read through at open (null before the journal is read). */
  let catchingUp: number | null = null;
  /** For Health: the file a damaged store was moved to this run. */
  let movedAside: string | null = null;
  let unavailableBecause: HistoryHealthView['unavailableBecause'] = null;
  const storePath = join(deps.dataDir, HISTORY_FILE);
  let chatDays = deps.chatDays();

  const status = (): HistoryStatusView => ({
    state,
    message,
    detail,
    chatDays,
    liveStreamId: opened ? liveStreamIdOf(opened.store) : null,
  });
  const pushNow = (what: HistoryChangedView['what'], endedStreamId: number | null = null): void => {
    pushTimer?.cancel();
    pushTimer = null;
    deps.push({ what, status: status(), endedStreamId });
  };
  const pushSoon = (): void => {
    pushTimer ??= deps.setTimer(() => pushNow('streams'), HISTORY_PUSH_MS);
  };
  const setState = (next: HistoryStatusView['state'], words: string | null, why: string | null): void => {
    state = next;
    message = words;
    detail = why;
    deps.statusChanged();
    pushNow('status');
  };
  /** A failure while running, said once per kind so a chat storm does not fill the log. */
  const reportOnce = (what: string, error: unknown): void => {
    const text = error instanceof Error ? error.message : String(error);
    if (!reported.has(what)) {
      reported.add(what);
      log(`history: ${what}: ${text}`);
    }
  };

  const ready = (): Opened => {
    if (opened && state === 'ready') {
      // A question sees every record journaled before it, as when each was kept the moment it came.
      keepQueued();
      return opened;
    }
    throw new AppError(
      'HistoryUnavailable',
      state === 'starting' ? 'The stream history is still opening; try again in a moment.' : (message ?? NO_HISTORY),
    );
  };

  /** One journaled record into the store; the panel hears of it (a stream's end at once, the rest in batches). */
  const applyLive = (record: JournalRecord): void => {
    if (!keptInHistory(record.type)) {
      return;
    }
    if (state !== 'ready' || !opened) {
      if (state === 'starting') {
        if (pending.length < PENDING_MAX) {
          pending.push(record);
        } else {
          overflowed = true;
        }
      }
      return;
    }
    const status = record.type === 'livestream.status.updated';
    if (!status) {
      queued.push(record);
      keepTimer ??= deps.setTimer(keepQueued, HISTORY_KEEP_MS);
      return;
    }
    // A live status may begin or end a stream, which the panel hears of at once: what came before it first.
    keepQueued();
    const { store } = opened;
    const openBefore = liveStreamIdOf(store);
    try {
      if (!store.apply(record)) {
        return;
      }
    } catch (error) {
      reportOnce('an event could not be kept (the next start takes it from the journal)', error);
      return;
    }
    const openAfter = liveStreamIdOf(store);
    if (openBefore !== openAfter) {
      pushNow('streams', openBefore !== null ? openBefore : null);
    } else {
      pushSoon();
    }
  };

  /** The waiting records into the store in one transaction; if one fails, each on its own, so only it is lost. */
  function keepQueued(): void {
    keepTimer?.cancel();
    keepTimer = null;
    if (queued.length === 0 || !opened || state !== 'ready') {
      return;
    }
    const batch = queued;
    queued = [];
    const { store } = opened;
    let kept: JournalRecord[];
    try {
      kept = store.applyMany(batch);
    } catch {
      kept = batch.filter((record) => {
        try {
          return store.apply(record);
        } catch (error) {
          reportOnce('an event could not be kept (the next start takes it from the journal)', error);
          return false;
        }
      });
    }
    for (const record of kept) {
      const impossible = impossibleAmountOf(record);
      if (impossible !== null) {
        reportOnce('an amount no one could give was kept and counts for no one', impossible);
      }
    }
    if (kept.length > 0) {
      pushSoon();
    }
  }

  const unsubscribeJournal = deps.journal?.onAppended(applyLive);
  const unsubscribeSettings = deps.onSettingsChange(() => {
    const days = deps.chatDays();
    if (days !== chatDays && !closed) {
      chatDays = days;
      // The store takes its retention when it opens: open it again, which prunes at the new days.
      if (opened) {
        closeStore();
        state = 'starting';
        void open();
      }
    }
  });

  const closeStore = (): void => {
    keepQueued();
    try {
      opened?.store.close();
    } catch (error) {
      reportOnce('the store did not close cleanly (the next start checks it)', error);
    }
    opened = null;
  };

  const applyStartStatus = (): void => {
    if (!opened || startStatus === null || startStatus === 'done') {
      return;
    }
    try {
      opened.store.observeLiveStatus(startStatus);
    } catch (error) {
      reportOnce("Kick's live status could not be kept", error);
    }
    startStatus = 'done';
  };

  const schedulePrune = (): void => {
    pruneTimer?.cancel();
    pruneTimer = deps.setTimer(() => {
      // In batches with the app answering between them; a store closed meanwhile stops it.
      opened?.store.pruneInBatches(nextTurn).catch((error: unknown) => {
        reportOnce('old chat lines could not be deleted', error);
      });
      schedulePrune();
    }, HISTORY_PRUNE_MS);
  };

  async function open(): Promise<void> {
    if (!driver || !deps.journal) {
      const why = driver ? 'no journal runs in this mode' : `${SQLITE_MISSING}; this is Node ${process.versions.node}`;
      log(`history: the stream history does not run here (${why})${driver ? '' : `; ${SQLITE_HOW_TO}`}`);
      unavailableBecause = driver ? null : 'needs-newer-node';
      setState('unavailable', driver ? NO_HISTORY : HISTORY_NEEDS_NEWER_NODE, why);
      return;
    }
    try {
      const result = await openHistory({
        path: storePath,
        driver,
        clock: deps.clock,
        journal: {
          readAll: async () => {
            const records = await filteredJournal(deps.journal!);
            catchingUp = records.length;
            deps.statusChanged();
            return records;
          },
        },
        chatRetentionDays: chatDays,
        log,
      });
      if (closed) {
        result.store.close();
        return;
      }
      movedAside = result.rebuilt === 'damaged' ? newestMovedAside(storePath) : movedAside;
      catchingUp = null;
      opened = {
        store: result.store,
        db: result.db,
        recaps: createRecapQueries(result.db),
        stories: createViewerStoryQueries(result.db, result.store),
        viewers: createViewerSearch(result.db),
        recalls: createViewerRecall(result.db),
      };
      // What arrived while it opened (a record applied twice changes nothing); too much, and it is read back.
      const waiting = pending;
      pending = [];
      waiting.forEach((record) => opened!.store.apply(record));
      if (overflowed) {
        overflowed = false;
        opened.store.catchUp(await filteredJournal(deps.journal));
      }
      applyStartStatus();
      schedulePrune();
      setState('ready', null, null);
    } catch (error) {
      closeStore();
      const why = error instanceof Error ? error.message : String(error);
      log(`history: the stream history could not be opened, Greenroom runs on without it (${why})`);
      catchingUp = null;
      unavailableBecause = 'could-not-open';
      setState('unavailable', 'Past streams and recaps could not be opened this time. Everything else works.', why);
    }
  }

  const health = (): HistoryHealthView => {
    let facts: HistoryFacts | null = null;
    if (opened && state === 'ready') {
      try {
        facts = readHistoryFacts(opened.db, storePath);
      } catch (error) {
        reportOnce('Health could not read the store', error);
      }
    }
    return {
      state,
      message,
      detail,
      unavailableBecause: state === 'unavailable' ? unavailableBecause : null,
      catchingUp: state === 'starting' && catchingUp !== null ? catchingUp + pending.length : null,
      movedAside,
      sizeBytes: facts ? facts.sizeBytes : null,
      streams: facts ? facts.streams : null,
      oldestChatMs: facts ? facts.oldestChatMs : null,
      chatDays,
    };
  };

  return {
    open,
    health,
    liveStatus(facts) {
      if (!facts.confirmed || startStatus !== null) {
        return;
      }
      startStatus = {
        isLive: facts.live,
        startedAtMs: facts.live ? facts.startedAtMs : null,
        title: facts.title,
        category: facts.category === '' ? null : facts.category,
      };
      if (state === 'ready') {
        applyStartStatus();
        pushNow('streams');
      }
    },
    close() {
      closed = true;
      unsubscribeJournal?.();
      unsubscribeSettings();
      pushTimer?.cancel();
      pruneTimer?.cancel();
      closeStore();
      reported = new Set();
    },
    status,
    streams: () => listStreams(ready().db),
    recap(streamId) {
      const { recaps } = ready();
      const recap = recaps.recap(streamId, { modLog: deps.modLog() });
      if (!recap) {
        throw new AppError('NotFound', `no stream in the history started at ${streamStamp(streamId)}`);
      }
      const view: HistoryRecapView = { ...recap, thankYou: thankYouText(recap) };
      return view;
    },
    viewer: (userId) => ready().stories.story(userId),
    recall(userId, beforeMs) {
      if (!opened || state !== 'ready') {
        return null;
      }
      try {
        keepQueued();
        return opened.recalls.recall(userId, beforeMs);
      } catch (error) {
        reportOnce('a chatter could not be read for the chat bot', error);
        return null;
      }
    },
    search: (query) => ready().viewers.search(query, HISTORY_SEARCH_RESULTS_MAX),
    exportRecap(streamId, format) {
      const recap = ready().recaps.recap(streamId, { modLog: deps.modLog() });
      if (!recap) {
        throw new AppError('NotFound', `no stream in the history started at ${streamStamp(streamId)}`);
      }
      const name = `greenroom-recap-${fileStamp(recap.stream.startedAtMs)}`;
      return format === 'csv'
        ? { fileName: `${name}.csv`, mimeType: 'text/csv;charset=utf-8', text: recapCsv(recap) }
        : { fileName: `${name}.json`, mimeType: 'application/json', text: recapJson(recap) };
    },
    async exportViewer(userId, format) {
      const current = ready();
      const story = current.stories.story(userId);
      if (!story) {
        throw new AppError('NotFound', `no viewer in the history with user id ${userId}`);
      }
      let chat: Awaited<ReturnType<typeof readViewerChat>>;
      try {
        chat = await readViewerChat(current.db, userId, nextTurn);
      } catch (error) {
        if (opened !== current) {
          ready(); // closed while reading (a quit, a change of days): "unavailable" or "still opening", not Internal
        }
        throw error;
      }
      const input = {
        story,
        chat: chat.lines,
        chatTotal: chat.total,
        events: current.store.events({ userId }),
        modLog: deps.modLog(),
        note: deps.note?.(userId) ?? '',
        chatDays,
        exportedAtMs: deps.clock.now(),
      };
      const fileName = viewerExportFileName(story.username, userId, input.exportedAtMs, format);
      // The card says so when the file holds only the newest lines.
      const notice =
        chat.total > chat.lines.length
          ? { notice: `It holds their ${chatInFile(chat.lines.length, chat.total)}.` }
          : {};
      return format === 'csv'
        ? { fileName, mimeType: 'text/csv;charset=utf-8', text: viewerExportCsv(input), ...notice }
        : { fileName, mimeType: 'application/json', text: viewerExportJson(input), ...notice };
    },
  };
}

/** The journal without Greenroom's own records (but its ad breaks) and types this build does not know. */
async function filteredJournal(journal: { readAll(): Promise<JournalRecord[]> }): Promise<JournalRecord[]> {
  return (await journal.readAll()).filter((record) => keptInHistory(record.type));
}

function liveStreamIdOf(store: HistoryStore): number | null {
  return store.streams().find((s) => s.endedAtMs === null)?.startedAtMs ?? null;
}

/** A stream's start for a message: its date, or the raw number when no date can name it (never a RangeError). */
function streamStamp(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? `${ms} ms` : date.toISOString();
}

/** `2026-11-27-1340`: the stream's start in UTC, safe in a file name on every system. */
function fileStamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', '-').replace(':', '');
}
