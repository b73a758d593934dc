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
/**
 * The longest message or field value a record keeps, in characters: one huge line (a body echoed whole) must
 * not take the log file far past its cap ([logging](../../docs/logging.md#the-log-file)).
 */
export const MAX_VALUE_CHARS = 16_384;
export const TRUNCATED = '…(truncated)';
/** The longest record written whole; a longer one (many long fields) is written as its first part. */
const MAX_RECORD_CHARS = 4 * MAX_VALUE_CHARS;

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
  /**
   * From now on lines go to `file` too; the lines logged before it are written first, redacted with the
   * secrets known now.
   */
  attachFile(file: LogFile): void;
  /** The newest `count` log lines (the file's, across rotations; those in memory without one), redacted. */
  recentLines(count?: number): string[];
  /** The newest warnings and errors of this run, redacted. */
  recentErrors(): string[];
}

export interface LoggerDeps {
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

/**
 * `area: level: ` opening the form `area: level: message {fields}` the webhook receiver's structured lines
 * reach us in. The fields are found with `lastIndexOf`, not by the pattern: a pattern that searched for them
 * takes time growing with the square of a line full of ` {`.
 */
const LEVELLED = /^([\w-]+): (debug|info|warn|error): /;
const FAILED = /\b(failed|fails|could not|cannot|refused|error)\b/i;

/** The JSON object `text` ends with, after the last (or else the first) ` {`, and the message before it. */
function trailingFields(text: string): { message: string; fields: LogFields } | null {
  if (!text.endsWith('}')) {
    return null;
  }
  for (const at of new Set([text.lastIndexOf(' {'), text.indexOf(' {')])) {
    if (at < 0) {
      continue;
    }
    try {
      const fields: unknown = JSON.parse(text.slice(at + 1));
      if (fields && typeof fields === 'object' && !Array.isArray(fields)) {
        return { message: text.slice(0, at), fields: fields as LogFields };
      }
    } catch {
      // Not fields from here: try the other place, else the whole rest is the message.
    }
  }
  return null;
}

/** A one-line log as level, message and fields. */
export function parseLine(line: string): { level: LogLevel; message: string; fields?: LogFields } {
  const levelled = LEVELLED.exec(line);
  if (levelled) {
    const [head, area, level] = levelled;
    const rest = line.slice(head.length);
    const found = trailingFields(rest);
    return found
      ? { level: level as LogLevel, message: `${area}: ${found.message}`, fields: found.fields }
      : { level: level as LogLevel, message: `${area}: ${rest}` };
  }
  return { level: FAILED.test(line) ? 'warn' : 'info', message: line };
}

/** `text` cut to {@link MAX_VALUE_CHARS}, with a marker saying so. */
export function clip(text: string, limit = MAX_VALUE_CHARS): string {
  return text.length > limit ? `${text.slice(0, limit)}${TRUNCATED}` : text;
}

/**
 * Each field value cut to {@link MAX_VALUE_CHARS}: a long string clipped, a large object as clipped JSON.
 * `cut` redacts before it clips, so a cut never leaves the first half of a secret behind.
 */
function clipFields(fields: LogFields, cut: (text: string) => string): LogFields {
  const out: LogFields = {};
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') {
      out[name] = cut(value);
    } else if (value && typeof value === 'object') {
      let json: string | undefined;
      try {
        json = JSON.stringify(value);
      } catch {
        json = undefined;
      }
      out[name] = json !== undefined && json.length > MAX_VALUE_CHARS ? cut(json) : value;
    } else {
      out[name] = value;
    }
  }
  return out;
}

function fieldsText(fields: LogFields): string {
  try {
    return JSON.stringify(fields);
  } catch {
    return '{"fields":"not serialisable"}';
  }
}

export function createLogger(options: LoggerDeps): Logger {
  const secrets = options.redactor ?? createRedactor();
  const clock = options.clock;
  // Redacted before it is cut, so a cut never leaves the first half of a secret behind.
  const cut = (text: string, limit = MAX_VALUE_CHARS): string =>
    text.length > limit ? clip(secrets.redact(text), limit) : text;
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
    write(serialised: string): void {
      const record =
        serialised.length > MAX_RECORD_CHARS
          ? `${JSON.stringify({
              level: /^\{"level":"(\w+)"/.exec(serialised)?.[1] ?? 'info',
              time: new Date(clock.now()).toISOString(),
              msg: clip(serialised, MAX_RECORD_CHARS),
            })}\n`
          : serialised;
      keep(memory, record, RECENT_LINES);
      file?.write(record);
    },
  };
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
  const write = (level: LogLevel, whole: string, all: LogFields | undefined, line?: string): void => {
    if (!base.isLevelEnabled(level)) {
      return;
    }
    const message = cut(whole);
    const fields = all && clipFields(all, cut);
    const text = line === undefined ? undefined : cut(line, MAX_RECORD_CHARS);
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
      // Redacted again as they reach the file: a secret learned since (the panel token, the overlay key, the
      // client secret are known only after launch) leaves no trace of itself in the file.
      memory.forEach((record) => next.write(secrets.redact(record)));
    },
    recentLines(count = RECENT_LINES) {
      // Redacted again on the way out: a line written by an older build, or before a secret was known.
      const lines = file ? file.tail(count) : memory.slice(-count).map((record) => record.trimEnd());
      return lines.map((line) => secrets.redact(line));
    },
    recentErrors: () => errors.map((line) => secrets.redact(line)),
  };
}

/**
 * The logger both entries start with (docs/logging.md): the level from `GREENROOM_LOG_LEVEL`, the terminal's plain
 * lines on stderr, and the log file attached once the data folder is known. A level it cannot read is said once.
 */
export function createEntryLogger(env: Record<string, string | undefined>, clock: Clock): Logger {
  const level = logLevelFrom(env);
  const logger = createLogger({ level: level.level, clock, echo: (line) => process.stderr.write(`${line}\n`) });
  if (level.warning) {
    logger.warn(level.warning);
  }
  return logger;
}
