/**
 * The app's one logger ([logging](../../docs/logging.md)): levels and fields on pino, written as JSON lines
 * to the log file in the data dir (log-file.ts) and, as the plain line they always were, to the terminal.
 * `debug` is off unless `GREENROOM_LOG_LEVEL=debug`; a line below the level costs one comparison.
 *
 * Every line passes the redactor on its way out (logger-redact.ts), the file's JSON and the terminal's
 * text alike, so no secret the app was told about reaches either.
 *
 * Most of the app still logs one line of text (`(line: string) => void`); {@link Logger.line} is the bridge:
 * a line in the form `area: level: message {"field":…}` (the webhook receiver's) keeps its level and
 * fields, and any other line is `warn` when it says something failed, else `info`.
 */
import { pino, type Logger as Pino } from 'pino';
import type { Clock } from './clock';
import type { LogFile } from './log-file';
import { createRedactor, type Redactor } from './logger-redact';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFields = Record<string, unknown>;

/** The environment variable that sets the level. */
export const LOG_LEVEL_ENV = 'GREENROOM_LOG_LEVEL';
/** What "Save diagnostics" holds of the log, and what is kept in memory before the file is open. */
export const RECENT_LINES = 2000;
const RECENT_ERRORS = 50;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** Whether a line at `level` is written: build an expensive line only when it is. */
  enabled(level: LogLevel): boolean;
  /** The bridge for the one-line loggers the app's modules take. */
  readonly line: (line: string) => void;
  /** Told each secret as it is loaded or changed. */
  readonly secrets: Redactor;
  /** From now on lines go to `file` too; the lines logged before it are written first. */
  attachFile(file: LogFile): void;
  /** The newest `count` log lines (the file's, across rotations; those in memory without one), redacted. */
  recentLines(count?: number): string[];
  /** The newest warnings and errors of this run, redacted. */
  recentErrors(): string[];
}

export interface LoggerOptions {
  level: LogLevel;
  clock: Clock;
  /** The terminal: each line as plain text (stderr). */
  echo?: (line: string) => void;
  redactor?: Redactor;
}

/** The level asked for in the environment; an unknown value is `info`, with a line saying so. */
export function logLevelFrom(env: Record<string, string | undefined>): { level: LogLevel; warning?: string } {
  const asked = env[LOG_LEVEL_ENV]?.trim().toLowerCase();
  if (!asked) {
    return { level: 'info' };
  }
  if ((LOG_LEVELS as readonly string[]).includes(asked)) {
    return { level: asked as LogLevel };
  }
  return {
    level: 'info',
    warning: `log: ${LOG_LEVEL_ENV} is "${asked.slice(0, 20)}", not one of ${LOG_LEVELS.join(', ')}; logging at info`,
  };
}

/** `area: level: message {fields}`, the form the webhook receiver's structured lines reach us in. */
const LEVELLED = /^([\w-]+): (debug|info|warn|error): ([\s\S]*?)(?: (\{[\s\S]*\}))?$/;
const FAILED = /\b(failed|fails|could not|cannot|refused|error)\b/i;

/** A one-line log as level, message and fields. */
export function parseLine(line: string): { level: LogLevel; message: string; fields?: LogFields } {
  const levelled = LEVELLED.exec(line);
  if (levelled) {
    const [, area, level, message, json] = levelled;
    if (json) {
      try {
        const fields: unknown = JSON.parse(json);
        if (fields && typeof fields === 'object' && !Array.isArray(fields)) {
          return { level: level as LogLevel, message: `${area}: ${message}`, fields: fields as LogFields };
        }
      } catch {
        // Not fields after all: the whole rest is the message.
      }
      return { level: level as LogLevel, message: `${area}: ${message} ${json}` };
    }
    return { level: level as LogLevel, message: `${area}: ${message}` };
  }
  return { level: FAILED.test(line) ? 'warn' : 'info', message: line };
}

function fieldsText(fields: LogFields): string {
  try {
    return JSON.stringify(fields);
  } catch {
    return '{"fields":"not serialisable"}';
  }
}

export function createLogger(options: LoggerOptions): Logger {
  const secrets = options.redactor ?? createRedactor();
  const echo = options.echo;
  const memory: string[] = [];
  const errors: string[] = [];
  let file: LogFile | null = null;
  const keep = (list: string[], line: string, limit: number): void => {
    list.push(line);
    if (list.length > limit) {
      list.splice(0, list.length - limit);
    }
  };
  const sink = {
    write(record: string): void {
      keep(memory, record, RECENT_LINES);
      file?.write(record);
    },
  };
  const clock = options.clock;
  const base: Pino<never, false> = pino(
    {
      level: options.level,
      base: undefined,
      timestamp: () => `,"time":"${new Date(clock.now()).toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
      // The one place every record passes, already serialised: message and fields alike.
      hooks: { streamWrite: (record) => secrets.redact(record) },
    },
    sink,
  );
  const write = (level: LogLevel, message: string, fields: LogFields | undefined, text?: string): void => {
    if (!base.isLevelEnabled(level)) {
      return;
    }
    if (fields) {
      base[level](fields, message);
    } else {
      base[level](message);
    }
    const plain = secrets.redact(text ?? (fields ? `${message} ${fieldsText(fields)}` : message));
    if (level === 'warn' || level === 'error') {
      keep(errors, `${new Date(clock.now()).toISOString()} ${level}: ${plain}`, RECENT_ERRORS);
    }
    echo?.(plain);
  };
  return {
    debug: (message, fields) => write('debug', message, fields),
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
    enabled: (level) => base.isLevelEnabled(level),
    line: (line) => {
      const parsed = parseLine(line);
      write(parsed.level, parsed.message, parsed.fields, line);
    },
    secrets,
    attachFile(next) {
      file = next;
      memory.forEach((record) => next.write(record));
    },
    recentLines(count = RECENT_LINES) {
      // Redacted again on the way out: a line written by an older build, or before a secret was known.
      const lines = file ? file.tail(count) : memory.slice(-count).map((record) => record.trimEnd());
      return lines.map((line) => secrets.redact(line));
    },
    recentErrors: () => errors.map((line) => secrets.redact(line)),
  };
}
