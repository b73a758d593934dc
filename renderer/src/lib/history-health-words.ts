/**
 * The stream history's card in Health, in a streamer's words (docs/history.md#in-health): what it is doing, how
 * big it is, how far back chat goes; the technical reason stays behind Details.
 */
import type { HistoryHealthView } from '../../../shared/views';
import { formatCount } from './format';

export interface HistoryHealthWords {
  title: string;
  tone: 'ok' | 'warn' | 'bad';
  lines: string[];
}

const DAY_MS = 86_400_000;

/** `2026-11-20`: a day, the same on every machine. */
const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export function formatBytes(bytes: number): string {
  if (bytes < 1024) {
    return `${bytes} bytes`;
  }
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

export function historyHealthWords(view: HistoryHealthView, nowMs: number): HistoryHealthWords {
  if (view.state === 'starting') {
    const n = view.catchingUp;
    return {
      title:
        n === null || n === undefined
          ? 'Starting: reading the journal'
          : `Starting: catching up with the journal (${formatCount(n)} ${n === 1 ? 'event' : 'events'})`,
      tone: 'warn',
      lines: ['Past streams and recaps are ready in a moment; nothing that arrives meanwhile is lost.'],
    };
  }
  if (view.state === 'unavailable') {
    const why =
      view.unavailableBecause === 'needs-newer-node'
        ? 'Not available: the panel runs on a Node older than 22.13, without the database the history needs. Greenroom runs it on Node 24 when it can download it; the terminal says why it could not this time and how to try again.'
        : view.unavailableBecause === 'could-not-open'
          ? 'Not available: the history could not be opened this time.'
          : (view.message ?? 'Not available this time.');
    return { title: why, tone: 'bad', lines: ['Everything else in Greenroom works.'] };
  }
  const lines: string[] = [];
  const figures: string[] = [];
  if (typeof view.sizeBytes === 'number') {
    figures.push(`${formatBytes(view.sizeBytes)} on disk`);
  }
  if (typeof view.streams === 'number') {
    figures.push(view.streams === 1 ? '1 stream kept' : `${formatCount(view.streams)} streams kept`);
  }
  if (figures.length > 0) {
    lines.push(`${figures.join(', ')}.`);
  }
  if (view.oldestChatMs === null) {
    lines.push('No chat lines kept yet.');
  } else if (typeof view.oldestChatMs === 'number') {
    const days = Math.max(0, Math.floor((nowMs - view.oldestChatMs) / DAY_MS));
    lines.push(
      `Oldest chat line kept: ${day(view.oldestChatMs)} (${days === 0 ? 'today' : days === 1 ? '1 day ago' : `${formatCount(days)} days ago`}).`,
    );
  }
  if (typeof view.chatDays === 'number') {
    lines.push(
      `Chat lines are kept ${formatCount(view.chatDays)} ${view.chatDays === 1 ? 'day' : 'days'}; follows, subs, gifts, KICKs and each viewer's counts for good.`,
    );
  }
  if (view.movedAside) {
    return {
      title: 'Keeping the history. A damaged store was moved aside',
      tone: 'warn',
      lines: [
        `The damaged file was kept as ${view.movedAside} in Greenroom's data folder, and the history was rebuilt from the journal.`,
        ...lines,
      ],
    };
  }
  return { title: 'Keeping the history', tone: 'ok', lines };
}
