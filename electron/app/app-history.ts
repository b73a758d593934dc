/**
 * The stream history inside the app ([history](../../docs/history.md)): what the panel asks of it through the
 * contract (`history:*`), and the answer where the history does not run.
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
}

/** The history where it does not run: the status says why, every question is answered "unavailable". */
export function unavailableHistory(
  message = 'The stream history is not available in this copy of Greenroom.',
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
  };
}
