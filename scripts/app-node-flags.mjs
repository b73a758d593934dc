// The memory settings (V8's heap; for the panel server glibc's arenas too) Greenroom's main process runs with,
// however it is started: the panel-only Node (scripts/start.mjs starts it with them), the desktop app in
// development (Electron's `--js-flags`, which reaches its main process only on the command line) and the
// benchmarks, which start the app as the launcher does. V8 reads them once, when the process starts: set later
// they change nothing.
//
// Why a young generation of at most 8 MB a half (16 MB in all): Node 22 and later size its maximum from the
// machine's memory (64 MB a half on a 24 GB machine, against 16 on Node 20), and a chat storm grows it to the
// maximum and keeps it there; the app's memory then rises by over 100 MB it does not use
// (docs/decisions.md#the-young-generations-size-is-the-apps-choice).
//
// Why V8's old-generation growing factor is fixed at 1.2: in a storm, lines that live a second or more (the kept
// chat, the dedup's windows) reach the old generation and die there, and V8 leaves room for them before its next
// full collection by its own speed, up to four times what is alive; a storm's heap sat anywhere between 47 and 86 MB
// depending on when it was read. Fixed, V8's minimum step of 8 MB decides at the app's size, the storm's memory
// growth read about 20 MB less, and the extra full collections cost about 5% of the app's CPU in a storm
// (docs/decisions.md#the-old-generations-growing-factor-is-fixed).

/** Node flags for the app's main process. */
export const APP_NODE_FLAGS = Object.freeze(['--max-semi-space-size=8', '--heap-growing-percent=20']);

/**
 * The environment the panel server's Node starts with, beside its flags. `MALLOC_ARENA_MAX=1`: glibc's malloc
 * gives each thread that allocates (V8's compiler and collector threads, libuv's file threads) an arena of its
 * own, and memory freed in one stays resident; in a chat storm those arenas grew the app by about 8 MB that stayed
 * resident after it was freed, and with one arena they did not (docs/decisions.md#threads-share-one-malloc-arena).
 * glibc reads it once, as the process starts; other C libraries ignore it. Not given to Electron: its environment
 * reaches every Chromium process it starts, and this was measured only on the panel server's Node.
 */
export const APP_NODE_ENV = Object.freeze({ MALLOC_ARENA_MAX: '1' });

/**
 * `env` with the app's settings where it has none of its own: what the panel server's Node is started with. A value
 * the caller set wins, so a maintainer can start it with another (`MALLOC_ARENA_MAX=16 npm run panel`) to compare. (glibc's
 * `GLIBC_TUNABLES=glibc.malloc.arena_max=…` wins over both.)
 */
export const appNodeEnv = (env = process.env) => ({ ...APP_NODE_ENV, ...env });

/** Whether `env` (this process's, by default) already names each of the app's settings, to its value or another. */
export const hasAppNodeEnv = (env = process.env) => Object.keys(APP_NODE_ENV).every((name) => env[name] !== undefined);

/** The same for Electron's main process: one `--js-flags` switch on its command line. */
export const electronJsFlags = () => `--js-flags=${APP_NODE_FLAGS.join(' ')}`;
