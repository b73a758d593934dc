/**
 * The stream history in the panel ([history](../../../../docs/history.md#in-the-panel)): whether it runs, the
 * past streams, one stream's recap, its export, a search over every viewer, and a viewer's story for the user
 * card. Main keeps the history; this class only reads it and follows `history:changed`.
 *
 * Where the history cannot run (a Node without `node:sqlite`), main says so in `status.message` and every read
 * answers the same: the view shows that one plain line, never an error per list.
 */
import type { ErrorValue, Result } from '../../../../shared/errors';
import type {
  HistoryChangedView,
  HistoryExportFormat,
  HistoryExportView,
  HistoryRecapView,
  HistoryStatusView,
  HistoryStreamItem,
  HistoryViewerHit,
  HistoryViewerStoryView,
} from '../../../../shared/history';
import type { PanelApi } from '../../../../shared/panel-api';
import { systemClock, type Clock } from '../clock';
import { explainError, type ShownError } from '../error-text';
import { LoadState, type LoadFlags } from './load-state.svelte';

/** The words when the history is off and main gave none of its own. */
export const HISTORY_UNAVAILABLE = 'The stream history is not running here.';

/** Main refuses every read while the history cannot run; the view shows the status line instead. */
function unavailableIn(error: ErrorValue): boolean {
  return error.code === 'HistoryUnavailable';
}

interface Read {
  status: HistoryStatusView;
  streams: HistoryStreamItem[];
}

/** A read refused because the history does not run: shown as the status line, its words behind "Details". */
function offRead(error: ErrorValue): Read {
  return {
    status: { state: 'unavailable', message: null, detail: error.message, chatDays: 0, liveStreamId: null },
    streams: [],
  };
}

/** One viewer's story as the user card shows it. */
export interface StoryState {
  userId: number;
  loading: boolean;
  /** Null once read for a viewer the history has never seen. */
  story: HistoryViewerStoryView | null;
  error: ShownError | null;
}

export class HistoryState {
  #api: PanelApi;
  #load: LoadState;
  #recapLoad: LoadState;
  #status = $state.raw<HistoryStatusView | null>(null);
  #streams = $state.raw<HistoryStreamItem[]>([]);
  #openId = $state<number | null>(null);
  #recap = $state.raw<HistoryRecapView | null>(null);
  #endedId = $state<number | null>(null);
  #unavailable = $state.raw<ShownError | null>(null);
  #exportError = $state.raw<ShownError | null>(null);
  #hits = $state.raw<HistoryViewerHit[] | null>(null);
  #searchError = $state<string | null>(null);
  #searching = $state(false);
  #story = $state.raw<StoryState | null>(null);
  #searchSeq = 0;

  constructor(api: PanelApi, clock: Clock = systemClock) {
    this.#api = api;
    this.#load = new LoadState(clock);
    this.#recapLoad = new LoadState(clock);
  }

  get loadState(): LoadFlags {
    return this.#load;
  }
  get recapState(): LoadFlags {
    return this.#recapLoad;
  }
  get status(): HistoryStatusView | null {
    return this.#status;
  }
  /** Past streams, newest first. */
  get streams(): HistoryStreamItem[] {
    return this.#streams;
  }
  /** Why the history is not there, in the streamer's words; null while it runs (or before the status is read). */
  get unavailable(): ShownError | null {
    return this.#unavailable;
  }
  /** The stream whose recap is open, or null for the list. */
  get openId(): number | null {
    return this.#openId;
  }
  get recap(): HistoryRecapView | null {
    return this.#recap;
  }
  /** A stream that just ended while the panel watched: the list offers its recap. */
  get endedId(): number | null {
    return this.#endedId;
  }
  get exportError(): ShownError | null {
    return this.#exportError;
  }
  get hits(): HistoryViewerHit[] | null {
    return this.#hits;
  }
  get searchError(): string | null {
    return this.#searchError;
  }
  get searching(): boolean {
    return this.#searching;
  }
  get story(): StoryState | null {
    return this.#story;
  }

  /** Reads the status, then the streams where the history runs; one load, so the view never shows half. */
  async load(): Promise<void> {
    await this.#load.run(
      () => this.#read(),
      (read) => {
        this.#applyStatus(read.status);
        this.#streams = read.streams;
      },
    );
    // Read again after a drop: the recap open then follows too.
    const open = this.#openId;
    if (open !== null && !this.#unavailable) {
      await this.#readRecap(open);
    }
  }

  async #read(): Promise<Result<Read>> {
    const status = await this.#api.history.status();
    if (!status.ok) {
      return unavailableIn(status.error) ? { ok: true, value: offRead(status.error) } : status;
    }
    if (status.value.state === 'unavailable') {
      return { ok: true, value: { status: status.value, streams: [] } };
    }
    const streams = await this.#api.history.streams();
    if (!streams.ok) {
      return unavailableIn(streams.error) ? { ok: true, value: offRead(streams.error) } : streams;
    }
    return { ok: true, value: { status: status.value, streams: streams.value } };
  }

  async #loadStreams(): Promise<void> {
    const result = await this.#api.history.streams();
    if (result.ok) {
      this.#streams = result.value;
    } else {
      this.#load.fail(result.error);
    }
  }

  #applyStatus(status: HistoryStatusView): void {
    this.#status = status;
    this.#unavailable =
      status.state === 'unavailable' ? { text: status.message ?? HISTORY_UNAVAILABLE, detail: status.detail } : null;
  }

  /** Main's push: a new status, and the lists read again when streams changed and the view has been shown. */
  apply(changed: HistoryChangedView): void {
    const was = this.#unavailable;
    this.#applyStatus(changed.status);
    if (changed.endedStreamId !== null) {
      this.#endedId = changed.endedStreamId;
    }
    if (!this.#load.requested || this.#unavailable) {
      return;
    }
    if (changed.what === 'streams' || was) {
      void this.#loadStreams();
      const open = this.#openId;
      // The open recap of a stream still going on (or just ended) grows with it.
      if (open !== null && (open === changed.status.liveStreamId || open === changed.endedStreamId)) {
        void this.#readRecap(open);
      }
    }
  }

  /** Opens a stream's recap. */
  async open(streamId: number): Promise<void> {
    this.#openId = streamId;
    this.#recap = null;
    this.#exportError = null;
    if (this.#endedId === streamId) {
      this.#endedId = null;
    }
    this.#recapLoad.reset();
    await this.#readRecap(streamId);
  }

  async #readRecap(streamId: number): Promise<void> {
    await this.#recapLoad.run(
      () => this.#api.history.recap({ streamId }),
      (recap) => {
        if (this.#openId === streamId) {
          this.#recap = recap;
        }
      },
    );
  }

  /** Back to the list. */
  close(): void {
    this.#openId = null;
    this.#recap = null;
    this.#exportError = null;
    this.#recapLoad.reset();
  }

  dismissEnded(): void {
    this.#endedId = null;
  }

  /** The open recap's export from main, or null with `exportError` saying why. */
  async exportRecap(format: HistoryExportFormat): Promise<HistoryExportView | null> {
    const streamId = this.#openId;
    if (streamId === null) {
      return null;
    }
    this.#exportError = null;
    const result = await this.#api.history.exportRecap({ streamId, format });
    if (!result.ok) {
      this.#exportError = explainError(result.error);
      return null;
    }
    return result.value;
  }

  /**
   * One viewer's history as a file, for a ban appeal (main writes it; the card saves it). The card keeps the error,
   * so a failed export on one viewer's card never shows on another's.
   */
  async exportViewer(
    userId: number,
    format: HistoryExportFormat,
  ): Promise<{ file: HistoryExportView; error: null } | { file: null; error: ShownError }> {
    const result = await this.#api.history.exportViewer({ userId, format });
    return result.ok ? { file: result.value, error: null } : { file: null, error: explainError(result.error) };
  }

  /** Searches every viewer the history knows by name; a query out of bounds is refused here, naming the limit. */
  async search(query: string, max: number): Promise<void> {
    const q = query.trim();
    const seq = ++this.#searchSeq;
    if (q.length === 0) {
      this.#hits = null;
      this.#searchError = 'Type part of a name to search.';
      return;
    }
    if (q.length > max) {
      this.#searchError = `A search is at most ${max} characters; this one has ${q.length}.`;
      return;
    }
    this.#searchError = null;
    this.#searching = true;
    const result = await this.#api.history.search({ query: q });
    if (seq !== this.#searchSeq) {
      return;
    }
    this.#searching = false;
    if (result.ok) {
      this.#hits = result.value;
    } else {
      this.#searchError = explainError(result.error).text;
    }
  }

  /** Reads a viewer's story for the user card; a newer card's read wins over an older one still under way. */
  async loadStory(userId: number): Promise<void> {
    this.#story = { userId, loading: true, story: null, error: null };
    const result = await this.#api.history.viewer({ userId });
    if (this.#story?.userId !== userId) {
      return;
    }
    if (!result.ok && unavailableIn(result.error)) {
      this.#applyStatus(offRead(result.error).status);
    }
    this.#story = result.ok
      ? { userId, loading: false, story: result.value, error: null }
      : { userId, loading: false, story: null, error: explainError(result.error) };
  }

  /** Signed out or back after a drop: everything is read again when next shown. */
  reset(): void {
    this.#load.reset();
    this.#streams = [];
    this.#hits = null;
    this.#story = null;
    this.close();
  }
}
