/**
 * Argument parsing for `npm run sandbox`: start a sandbox, or talk to a running one's admin API (trigger,
 * scenario, advance, stop). Pure (argv and env in, a command out), so every flag is unit-tested; bad
 * arguments throw CliUsageError, which the CLI prints as one line before exiting with status 2.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { KICK_EVENT_TYPES } from '../../shared/kick/scopes';
import { SCENARIO_NAMES } from '../scenarios';
import { STREAMER_USER_ID } from '../world';
import { parseLive } from './cli-live';
import { TRIGGER_RATE_MAX } from './control-routes';
import { ADMIN_TOKEN_ENV, ADMIN_URL_ENV, DEFAULT_SANDBOX_PORT } from './cli-usage';
import { OverrideError, parseFieldAssignment } from './overrides';

export { ADMIN_TOKEN_ENV, ADMIN_URL_ENV, DEFAULT_SANDBOX_PORT, USAGE } from './cli-usage';

type Env = Readonly<Record<string, string | undefined>>;

/** Bad command-line arguments; the CLI prints the message on one line and exits 2. */
export class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
  }
}

/** What starting a sandbox from the command line asks for. */
export interface ServeArgs {
  port: number;
  authPort?: number;
  adminPort?: number;
  clientId?: string;
  clientSecret?: string;
  redirectUris?: string[];
  webhookUrl?: string;
  autoApproveUserId?: number;
  tokenLifetimeSeconds?: number;
  activity: boolean;
  /** `--state FILE`: keep the world in this file across runs (persist-file.ts); in memory when absent. */
  stateFile?: string;
}

/**
 * A request to a running sandbox's admin API. Without a URL (neither flag nor environment) the CLI looks
 * for a running sandbox in the data dir (discovery.ts); without a token it takes that sandbox's.
 */
export interface AdminCall {
  adminUrl?: string;
  adminToken?: string;
  method: 'POST' | 'DELETE';
  path: string;
  body?: Record<string, unknown>;
}

/** What the command line asks for: usage, a sandbox, or one admin API call. */
export type CliCommand = { kind: 'help' } | { kind: 'serve'; args: ServeArgs } | ({ kind: 'admin' } & AdminCall);

/** Flags whose value is optional: a bare flag gets the default, a following number is taken as the value. */
const OPTIONAL_VALUE_FLAGS: Record<string, string> = { '--duplicate': '1', '--auto-approve': String(STREAMER_USER_ID) };

function normaliseOptionalValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    const fallback = OPTIONAL_VALUE_FLAGS[token];
    if (fallback === undefined) {
      out.push(token);
      continue;
    }
    const next = argv[i + 1];
    if (next !== undefined && /^\d+$/.test(next)) {
      out.push(`${token}=${next}`);
      i++;
    } else {
      out.push(`${token}=${fallback}`);
    }
  }
  return out;
}

function parseNumber(
  flag: string,
  raw: string | undefined,
  rule: { integer?: boolean; min?: number; max?: number; exclusiveMin?: boolean },
): number | undefined {
  if (raw === undefined) {
    return undefined;
  }
  const value = Number(raw);
  const bad =
    raw.trim() === '' ||
    !Number.isFinite(value) ||
    (rule.integer === true && !Number.isInteger(value)) ||
    (rule.min !== undefined && (rule.exclusiveMin ? value <= rule.min : value < rule.min)) ||
    (rule.max !== undefined && value > rule.max);
  if (bad) {
    const kind = rule.integer ? 'an integer' : 'a number';
    const low = rule.min === undefined ? '' : ` ${rule.exclusiveMin ? 'above' : 'from'} ${rule.min}`;
    const high = rule.max === undefined ? '' : ` up to ${rule.max}`;
    throw new CliUsageError(`${flag}: expected ${kind}${low}${high}, got "${raw}"`);
  }
  return value;
}

interface ParsedArgs {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

function parse(argv: string[], options: NonNullable<ParseArgsConfig['options']>): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    return { values, positionals };
  } catch (error) {
    throw new CliUsageError(error instanceof Error ? error.message.split('\n')[0]! : String(error));
  }
}

/** The admin API's URL and token from the flags, else the environment; each absent when neither says. */
function adminTarget(values: Record<string, unknown>, env: Env): { adminUrl?: string; adminToken?: string } {
  const url = str(values, 'admin-url') ?? (env[ADMIN_URL_ENV]?.trim() || undefined);
  const token = str(values, 'admin-token') ?? (env[ADMIN_TOKEN_ENV]?.trim() || undefined);
  if (token !== undefined && !/^[\x21-\x7e]{1,512}$/.test(token)) {
    throw new CliUsageError('--admin-token: expected the adminToken printed by npm run sandbox');
  }
  return definedOnly({ adminUrl: url === undefined ? undefined : checkedAdminUrl(url), adminToken: token });
}

function checkedAdminUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new Error('protocol');
    }
  } catch {
    throw new CliUsageError(`--admin-url: not an http(s) URL: "${url}"`);
  }
  return url.replace(/\/+$/, '');
}

function str(values: Record<string, unknown>, key: string): string | undefined {
  const value = values[key];
  return typeof value === 'string' ? value : undefined;
}

function parseServe(argv: string[]): CliCommand {
  const { values, positionals } = parse(argv, {
    port: { type: 'string' },
    'auth-port': { type: 'string' },
    'admin-port': { type: 'string' },
    'client-id': { type: 'string' },
    'client-secret': { type: 'string' },
    'redirect-uri': { type: 'string', multiple: true },
    'webhook-url': { type: 'string' },
    'auto-approve': { type: 'string' },
    'token-lifetime': { type: 'string' },
    activity: { type: 'boolean' },
    state: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help === true) {
    return { kind: 'help' };
  }
  if (positionals.length > 0) {
    throw new CliUsageError(`unknown command "${positionals[0]}" (see --help)`);
  }
  const port = { integer: true, min: 0, max: 65_535 };
  const webhookUrl = str(values, 'webhook-url');
  const stateFile = str(values, 'state');
  if (stateFile !== undefined && stateFile.trim() === '') {
    throw new CliUsageError('--state: name a file, such as --state sandbox-world.json');
  }
  for (const url of [webhookUrl, ...((values['redirect-uri'] as string[] | undefined) ?? [])]) {
    if (url !== undefined && !URL.canParse(url)) {
      throw new CliUsageError(`not an absolute URL: "${url}"`);
    }
  }
  return {
    kind: 'serve',
    args: {
      port: parseNumber('--port', str(values, 'port'), port) ?? DEFAULT_SANDBOX_PORT,
      authPort: parseNumber('--auth-port', str(values, 'auth-port'), port),
      adminPort: parseNumber('--admin-port', str(values, 'admin-port'), port),
      clientId: str(values, 'client-id'),
      clientSecret: str(values, 'client-secret'),
      redirectUris: values['redirect-uri'] as string[] | undefined,
      webhookUrl,
      autoApproveUserId: parseNumber('--auto-approve', str(values, 'auto-approve'), { integer: true, min: 1 }),
      tokenLifetimeSeconds: parseNumber('--token-lifetime', str(values, 'token-lifetime'), { integer: true, min: 1 }),
      activity: values.activity === true,
      ...(stateFile === undefined ? {} : { stateFile }),
    },
  };
}

function parseTrigger(argv: string[], env: Env): CliCommand {
  const { values, positionals } = parse(argv, {
    count: { type: 'string' },
    chatters: { type: 'string' },
    rate: { type: 'string' },
    duplicate: { type: 'string' },
    'resend-new-id': { type: 'boolean' },
    late: { type: 'string' },
    'out-of-order': { type: 'boolean' },
    broadcaster: { type: 'string' },
    'admin-url': { type: 'string' },
    'admin-token': { type: 'string' },
  });
  const [eventType, ...assignments] = positionals;
  if (eventType === undefined) {
    throw new CliUsageError(`trigger: name an event (${KICK_EVENT_TYPES.join(', ')})`);
  }
  if (!(KICK_EVENT_TYPES as readonly string[]).includes(eventType)) {
    throw new CliUsageError(`trigger: unknown event "${eventType}"; expected one of ${KICK_EVENT_TYPES.join(', ')}`);
  }
  const overrides: Record<string, unknown> = {};
  for (const assignment of assignments) {
    try {
      const [path, value] = parseFieldAssignment(assignment);
      overrides[path] = value;
    } catch (error) {
      if (error instanceof OverrideError) {
        throw new CliUsageError(`trigger: ${error.message}`);
      }
      throw error;
    }
  }
  const body: Record<string, unknown> = {
    count: parseNumber('--count', str(values, 'count'), { integer: true, min: 1 }),
    chatters: parseNumber('--chatters', str(values, 'chatters'), { integer: true, min: 1 }),
    rate: parseNumber('--rate', str(values, 'rate'), { min: 0, exclusiveMin: true, max: TRIGGER_RATE_MAX }),
    duplicates: parseNumber('--duplicate', str(values, 'duplicate'), { integer: true, min: 0 }),
    resend_with_new_id: values['resend-new-id'] === true ? true : undefined,
    delay_seconds: parseNumber('--late', str(values, 'late'), { min: 0 }),
    out_of_order: values['out-of-order'] === true ? true : undefined,
    broadcaster_user_id: parseNumber('--broadcaster', str(values, 'broadcaster'), { integer: true, min: 1 }),
    overrides: assignments.length > 0 ? overrides : undefined,
  };
  return {
    kind: 'admin',
    ...adminTarget(values, env),
    method: 'POST',
    path: `/trigger/${eventType}`,
    body: definedOnly(body),
  };
}

function parseScenario(argv: string[], env: Env): CliCommand {
  const { values, positionals } = parse(argv, {
    broadcaster: { type: 'string' },
    immediate: { type: 'boolean' },
    'admin-url': { type: 'string' },
    'admin-token': { type: 'string' },
  });
  const [name, extra] = positionals;
  if (name === undefined || !(SCENARIO_NAMES as readonly string[]).includes(name) || extra !== undefined) {
    throw new CliUsageError(`scenario: expected one name of ${SCENARIO_NAMES.join(', ')}`);
  }
  const body = definedOnly({
    broadcaster_user_id: parseNumber('--broadcaster', str(values, 'broadcaster'), { integer: true, min: 1 }),
    immediate: values.immediate === true ? true : undefined,
  });
  return {
    kind: 'admin',
    ...adminTarget(values, env),
    method: 'POST',
    path: `/scenarios/${name}`,
    body,
  };
}

function parseSingle(command: 'advance' | 'stop', argv: string[], env: Env): CliCommand {
  const { values, positionals } = parse(argv, {
    'admin-url': { type: 'string' },
    'admin-token': { type: 'string' },
  });
  const target = adminTarget(values, env);
  if (positionals.length !== 1) {
    throw new CliUsageError(
      `${command}: expected exactly one ${command === 'advance' ? 'number of seconds' : 'job id'}`,
    );
  }
  if (command === 'stop') {
    return { kind: 'admin', ...target, method: 'DELETE', path: `/scenarios/${encodeURIComponent(positionals[0]!)}` };
  }
  const seconds = parseNumber('advance', positionals[0], { min: 0 });
  return { kind: 'admin', ...target, method: 'POST', path: '/clock/advance', body: { seconds } };
}

function definedOnly(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined));
}

/** Parses `npm run sandbox -- …` arguments (without node and the script path). */
export function parseCliArgs(argv: readonly string[], env: Env = {}): CliCommand {
  const args = normaliseOptionalValues(argv);
  const [first, ...rest] = args;
  if (first === 'help' || first === '--help' || first === '-h' || rest.includes('--help') || rest.includes('-h')) {
    return { kind: 'help' };
  }
  switch (first) {
    case 'trigger':
      return parseTrigger(rest, env);
    case 'scenario':
      return parseScenario(rest, env);
    case 'advance':
    case 'stop':
      return parseSingle(first, rest, env);
    case 'live':
      return {
        kind: 'admin',
        ...parseLive(rest, {
          fail: (message) => {
            throw new CliUsageError(message);
          },
          parse,
          number: parseNumber,
          target: (values) => adminTarget(values, env),
        }),
      };
    default:
      return parseServe(args);
  }
}
