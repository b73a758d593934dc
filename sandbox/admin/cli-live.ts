/**
 * `npm run sandbox -- live …`: the admin API's live-socket controls from the command line
 * ([what each plays](../../docs/sandbox.md#live-socket-triggers)). The parser's shared pieces come from
 * cli-args.ts, passed in, so neither module imports the other.
 */
import type { ParseArgsConfig } from 'node:util';
import { CONNECTIONS_MODES, DROP_CODES, LIVE_PROVIDERS } from '../live-socket/live-hub';

/** The CLI's usage error, and the call a command becomes (cli-args.ts's types, restated to avoid a cycle). */
export interface LiveCliTools {
  fail(message: string): never;
  parse(
    argv: string[],
    options: NonNullable<ParseArgsConfig['options']>,
  ): { values: Record<string, unknown>; positionals: string[] };
  number(flag: string, raw: string | undefined, rule: { integer?: boolean; min?: number }): number | undefined;
  target(values: Record<string, unknown>): { adminUrl?: string; adminToken?: string };
}

export interface LiveCall {
  adminUrl?: string;
  adminToken?: string;
  method: 'POST' | 'DELETE';
  path: string;
  body?: Record<string, unknown>;
}

export const LIVE_ACTIONS = [
  'webhooks-behind',
  'providers',
  'lookup',
  'connections',
  'drop',
  'host',
  'unknown-fields',
  'unknown-event',
  'clear',
  'modes',
  'pin',
  'unpin',
] as const;

/** `live modes` words: each names a chat mode and its number field, if it has one (the admin route's names). */
const MODE_WORDS: Record<string, { mode: string; field: string | null }> = {
  slow: { mode: 'slow_mode', field: 'message_interval' },
  followers: { mode: 'followers_mode', field: 'min_duration' },
  subscribers: { mode: 'subscribers_mode', field: null },
  emotes: { mode: 'emotes_mode', field: null },
  'account-age': { mode: 'account_age', field: 'min_duration' },
};

export const LIVE_USAGE = `  npm run sandbox -- live webhooks-behind <minutes>      hold every webhook back; the socket is not held
  npm run sandbox -- live providers <pusher,centrifugo|centrifugo|pusher|none>   what discovery offers
  npm run sandbox -- live lookup <answers|cloudflare>    the channel lookup, or Cloudflare's 403 page
  npm run sandbox -- live connections <accepted|refused>   refused: new sockets get HTTP 503 (a reconnect held)
  npm run sandbox -- live drop <${DROP_CODES.join('|')}> [--provider pusher|centrifugo]
  npm run sandbox -- live host [--from USERNAME] [--viewers N] [--message TEXT]   a raid or host
  npm run sandbox -- live modes slow=10 followers=30 subscribers=on emotes=off account-age=off   chat modes
  npm run sandbox -- live pin <MESSAGE_ID> [--seconds N] | unpin   a pinned message above chat
  npm run sandbox -- live unknown-fields | unknown-event | clear   [--broadcaster ID]`;

function one(tools: LiveCliTools, action: string, rest: string[], what: string): string {
  if (rest.length !== 1) {
    tools.fail(`live ${action}: expected ${what}`);
  }
  return rest[0]!;
}

/** Parses the words after `live`. */
export function parseLive(argv: string[], tools: LiveCliTools): LiveCall {
  const { values, positionals } = tools.parse(argv, {
    provider: { type: 'string' },
    from: { type: 'string' },
    viewers: { type: 'string' },
    message: { type: 'string' },
    seconds: { type: 'string' },
    broadcaster: { type: 'string' },
    'admin-url': { type: 'string' },
    'admin-token': { type: 'string' },
  });
  const target = tools.target(values);
  const [action, ...rest] = positionals;
  const broadcaster = tools.number('--broadcaster', values.broadcaster as string | undefined, {
    integer: true,
    min: 1,
  });
  const where = broadcaster === undefined ? {} : { broadcaster_user_id: broadcaster };
  const post = (path: string, body: Record<string, unknown>): LiveCall => ({ ...target, method: 'POST', path, body });
  switch (action) {
    case 'webhooks-behind': {
      const minutes = tools.number('webhooks-behind', one(tools, action, rest, 'a number of minutes'), { min: 0 })!;
      return post('/live-socket/settings', { webhook_delay_seconds: minutes * 60 });
    }
    case 'providers': {
      const list = one(tools, action, rest, `a list of ${LIVE_PROVIDERS.join(', ')}, or none`);
      return post('/live-socket/settings', { providers: list === 'none' ? [] : list.split(',') });
    }
    case 'lookup':
      return post('/live-socket/settings', { lookup: one(tools, action, rest, 'answers or cloudflare') });
    case 'connections':
      return post('/live-socket/settings', {
        connections: one(tools, action, rest, CONNECTIONS_MODES.join(' or ')),
      });
    case 'drop': {
      const raw = one(tools, action, rest, `a close code: ${DROP_CODES.join(', ')}`);
      const code = /^\d+$/.test(raw) ? Number(raw) : raw;
      return post('/live-socket/drop', {
        code,
        ...(values.provider === undefined ? {} : { provider: values.provider }),
      });
    }
    case 'host': {
      const viewers = tools.number('--viewers', values.viewers as string | undefined, { integer: true, min: 0 });
      const body: Record<string, unknown> = { ...where };
      if (values.from !== undefined) {
        body.host_username = values.from;
      }
      if (viewers !== undefined) {
        body.viewers = viewers;
      }
      if (values.message !== undefined) {
        body.message = values.message;
      }
      return post('/live-socket/host', body);
    }
    case 'modes':
      return post('/live-socket/chatroom', { ...where, ...modes(tools, rest) });
    case 'pin': {
      const seconds = tools.number('--seconds', values.seconds as string | undefined, { integer: true, min: 1 });
      return post('/live-socket/pin', {
        ...where,
        message_id: one(tools, action, rest, 'the chat message id to pin (a chat line’s message_id)'),
        ...(seconds === undefined ? {} : { duration_seconds: seconds }),
      });
    }
    case 'unpin':
      if (rest.length > 0) {
        tools.fail(`live ${action}: takes no words after it`);
      }
      return { ...target, method: 'DELETE', path: '/live-socket/pin', body: where };
    case 'unknown-fields':
    case 'unknown-event':
    case 'clear':
      if (rest.length > 0) {
        tools.fail(`live ${action}: takes no words after it`);
      }
      return post(`/live-socket/${action}`, where);
    default:
      return tools.fail(`live: expected one of ${LIVE_ACTIONS.join(', ')}`);
  }
}

/**
 * `slow=10 followers=off subscribers=on` → the chat modes' body: `on`/`off` for a mode without a number, a number
 * (seconds for slow, minutes for followers and account age) or `off` for one with.
 */
function modes(tools: LiveCliTools, words: string[]): Record<string, unknown> {
  const known = Object.keys(MODE_WORDS).join(', ');
  if (words.length === 0) {
    tools.fail(`live modes: expected one or more of ${known}, as slow=10 or emotes=on`);
  }
  const body: Record<string, unknown> = {};
  for (const word of words) {
    const [name = '', value] = word.split('=', 2);
    const mode = MODE_WORDS[name];
    if (!mode || value === undefined) {
      tools.fail(`live modes: "${word}" is not one of ${known}, as slow=10 or emotes=on`);
    }
    if (value === 'off') {
      body[mode.mode] = { enabled: false };
    } else if (mode.field === null) {
      if (value !== 'on') {
        tools.fail(`live modes: ${name} takes on or off, got "${value}"`);
      }
      body[mode.mode] = { enabled: true };
    } else {
      body[mode.mode] = { enabled: true, [mode.field]: tools.number(name, value, { integer: true, min: 0 }) };
    }
  }
  return body;
}
