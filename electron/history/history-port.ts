/**
 * What the panel may ask of the stream history ([history](../../docs/history.md)), and the history that answers
 * every question "unavailable" where it cannot run. It sits in history/ so the IPC handlers can take it without
 * importing the app that builds it.
 */
import { AppError } from '../../shared/errors';
import {
  HISTORY_CHAT_DAYS_DEFAULT,
  type HistoryExportFormat,
  type HistoryExportView,
  type HistoryRecapView,
  type HistoryStatusView,
  type HistoryStreamItem,
  type HistoryViewerHit,
  type HistoryViewerStoryView,
} from '../../shared/history';

/** What the contract's handlers call. A failure is an AppError: `HistoryUnavailable`, `NotFound`. */
export interface HistoryPort {
  status(): HistoryStatusView;
  streams(): HistoryStreamItem[];
  recap(streamId: number): HistoryRecapView;
  viewer(userId: number): HistoryViewerStoryView | null;
  search(query: string): HistoryViewerHit[];
  exportRecap(streamId: number, format: HistoryExportFormat): HistoryExportView;
  /** One viewer's history for a ban appeal (../../docs/history.md#one-viewers-export). */
  /** The viewer's file, their newest chat lines up to a bound, read in pages that let the app answer between them. */
  exportViewer(userId: number, format: HistoryExportFormat): Promise<HistoryExportView>;
}

export const NO_HISTORY =
  'Past streams and recaps are not kept this time: the stream history could not start. Everything else works.';

/** The history where it does not run: the status says why, every question is answered "unavailable". */
export function unavailableHistory(
  message = NO_HISTORY,
  detail: string | null = null,
  chatDays = HISTORY_CHAT_DAYS_DEFAULT,
): HistoryPort {
  const refuse = (): never => {
    throw new AppError('HistoryUnavailable', detail ? `${message} (${detail})` : message);
  };
  return {
    status: () => ({ state: 'unavailable', message, detail, chatDays, liveStreamId: null }),
    streams: refuse,
    recap: refuse,
    viewer: refuse,
    search: refuse,
    exportRecap: refuse,
    exportViewer: refuse,
  };
}
