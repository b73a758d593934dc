/**
 * Node's process warnings go to the one logger ([logging](../../docs/logging.md#nodes-own-warnings)), not to Node's
 * own printer: a warning is a log line like any other, in the log file a streamer can send, and the terminal
 * keeps the app's lines only. A deprecation Greenroom's own code never causes, raised inside a library it runs,
 * is logged at `debug`: the streamer cannot act on it, and it came the first time each run connected to Kick's
 * live chat.
 */
import type { Logger } from './logger';

/**
 * Deprecations only libraries raise here. `DEP0169`: `url.parse()`, which the live chat client's WebSocket library
 * calls on each connection (pusher-js on faye-websocket); Greenroom's own code parses URLs with `URL`.
 */
export const LIBRARY_DEPRECATIONS: ReadonlySet<string> = new Set(['DEP0169']);

/** The slice of `process` this needs: its `warning` event. */
export interface WarningEmitter {
  removeAllListeners(event: 'warning'): unknown;
  on(event: 'warning', listener: (warning: Error) => void): unknown;
}

/** Node's own switches for its warnings, which its printer obeyed and the logger keeps to. */
export interface WarningSwitches {
  /** `--no-warnings` or `NODE_NO_WARNINGS=1`: Node would print none; each is logged at `debug` only. */
  quiet: boolean;
  /** `--trace-warnings`: Node would print where each came from; the stack goes into the line's fields. */
  trace: boolean;
}

/** The switches this process was started with. */
export function warningSwitches(
  proc: { noProcessWarnings?: boolean; traceProcessWarnings?: boolean },
  env: Record<string, string | undefined>,
): WarningSwitches {
  return {
    quiet: proc.noProcessWarnings === true || env.NODE_NO_WARNINGS === '1',
    trace: proc.traceProcessWarnings === true,
  };
}

/** Replaces Node's printer of process warnings with the logger; call once, as the process starts. */
export function logProcessWarnings(
  emitter: WarningEmitter,
  logger: Pick<Logger, 'debug' | 'warn'>,
  switches: WarningSwitches = { quiet: false, trace: false },
): void {
  emitter.removeAllListeners('warning');
  emitter.on('warning', (warning) => {
    const text = (warning as Error & { code?: unknown }).code;
    const code = typeof text === 'string' ? text : undefined;
    // The line names the warning; its fields add only what it does not say.
    const fields = { ...(code === undefined ? {} : { code }), ...(switches.trace ? { stack: warning.stack } : {}) };
    if (code !== undefined && LIBRARY_DEPRECATIONS.has(code)) {
      logger.debug('node: a library uses a feature Node plans to change', {
        name: warning.name,
        ...fields,
        detail: warning.message,
      });
    } else if (switches.quiet) {
      logger.debug(`node: ${warning.name}: ${warning.message}`, fields);
    } else {
      logger.warn(`node: ${warning.name}: ${warning.message}`, fields);
    }
  });
}
