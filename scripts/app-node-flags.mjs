// The V8 heap settings Greenroom's main process runs with, however it is started: the panel-only Node
// (scripts/start.mjs starts it with them), the desktop app in development (Electron's `--js-flags`, which
// reaches its main process only on the command line) and the benchmarks, which start the app as the launcher does.
// V8 reads them once, when the process starts: set later they change nothing.
//
// Why a young generation of at most 8 MB a half (16 MB in all): Node 22 and later size its maximum from the
// machine's memory (64 MB a half on a 24 GB machine, against 16 on Node 20), and a chat storm grows it to the
// maximum and keeps it there; the app's memory then rises by over 100 MB it does not use
// (docs/decisions.md#the-young-generations-size-is-the-apps-choice).

/** Node flags for the app's main process. */
export const APP_NODE_FLAGS = Object.freeze(['--max-semi-space-size=8']);

/** The same for Electron's main process: one `--js-flags` switch on its command line. */
export const electronJsFlags = () => `--js-flags=${APP_NODE_FLAGS.join(' ')}`;
