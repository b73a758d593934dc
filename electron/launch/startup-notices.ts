/**
 * The start-up notices: each plain line about Greenroom's files (a damaged file moved aside, settings left
 * out, a link not followed, a read-only data folder) is printed once where the streamer started Greenroom,
 * and kept for the panel, which shows them in the app snapshot (`AppSnapshot.notices`), so a streamer who
 * never reads a terminal learns it too ([design notes](../../docs/design-notes.md#files-in-the-data-folder)).
 */
import type { StartupNoticeView } from '../../shared/views';

/** Collects notices: `notice` prints and keeps one, `list` is what the panel is shown. */
export function createStartupNotices(
  print: (line: string) => void,
  log: (line: string) => void,
): { notice: (line: string, details?: string) => void; list: () => StartupNoticeView[] } {
  const kept: StartupNoticeView[] = [];
  return {
    notice(line, details) {
      // The app is built again on a settings change, and a file it opens may say the same again.
      const text = line.replace(/^Greenroom: (\w)/, (_, first: string) => first.toUpperCase());
      if (kept.some((n) => n.text === text)) {
        return;
      }
      kept.push({ text, details: details ?? null });
      print(line);
      if (details) {
        log(`  details: ${details}`);
      }
    },
    list: () => [...kept],
  };
}
