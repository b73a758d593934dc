/**
 * What the desktop app shows when it cannot start: a packaged app has no terminal, so the one line the
 * panel-only entry prints (the reason and its fix, `startFailureText`) goes in a native error box before the
 * app exits ([a start-up failure](../../docs/desktop-runtime.md#a-start-up-failure)).
 */
import { startFailureText } from './launch-greenroom';

export interface StartupDialog {
  title: string;
  content: string;
}

/** The error box for `error`: a known failure is its one line; anything else says it is a bug. */
export function startupFailureDialog(error: unknown): StartupDialog {
  const text = startFailureText(error);
  const [first = ''] = text.split('\n');
  const line = first.length > 0 ? first[0]!.toUpperCase() + first.slice(1) : 'An unknown error.';
  if (text.includes('\n')) {
    // A stack: a bug, not something the streamer set. The first line says what; the stack stays in the log.
    return {
      title: 'Greenroom could not start',
      content: `${line}\n\nThis is a problem in Greenroom itself. Starting it again may help; if not, please report it with this message.`,
    };
  }
  return { title: 'Greenroom could not start', content: line };
}
