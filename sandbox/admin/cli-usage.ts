/**
 * The command line's defaults and its `--help` text, apart from the parser so both stay short.
 */
import { KICK_EVENT_TYPES } from '../../shared/kick/scopes';
import { SCENARIO_NAMES } from '../scenarios';
import { LIVE_USAGE } from './cli-live';
import { STREAMER_USER_ID } from '../world';
import { TRIGGER_RATE_MAX } from './control-routes';

/** Ports `npm run sandbox` listens on by default (auth and admin follow the API port). */
export const DEFAULT_SANDBOX_PORT = 7410;
/** Environment variable naming a running sandbox's admin URL for the subcommands. */
export const ADMIN_URL_ENV = 'GREENROOM_SANDBOX_ADMIN_URL';
/** Environment variable carrying that sandbox's admin token. */
export const ADMIN_TOKEN_ENV = 'GREENROOM_SANDBOX_ADMIN_TOKEN';

/** `--help` text. */
export const USAGE = `Usage:
  npm run sandbox -- [options]                 start a Kick sandbox (prints its description as JSON first;
                                               npm run -s keeps npm's own banner off stdout)
    --port N                API port (default ${DEFAULT_SANDBOX_PORT}; 0 picks free ports); auth is N+1, admin N+2, RTMP ingest N+3,
                            web host N+4, live socket N+5
    --auth-port N, --admin-port N
    --client-id X, --client-secret Y
    --redirect-uri URI      repeatable
    --webhook-url URL       where webhooks for the app go
    --auto-approve [USER_ID]  approve OAuth at once (default user ${STREAMER_USER_ID})
    --token-lifetime SECONDS  access token lifetime
    --activity              run gentle simulated activity
    --state FILE            keep the world (channel, rewards, sign-in as token digests) in FILE across runs;
                            without it the world lives in memory only
  npm run sandbox -- trigger <event> [--count N] [--rate R] [--duplicate [N]] [--resend-new-id]
                         [--late SECONDS] [--out-of-order] [--broadcaster ID] [field.path=value ...]
                         [--chatters N]  (chat: the lines come from N distinct viewers in turn)
                         (--rate: events a second, up to ${TRIGGER_RATE_MAX}; without it, all at once)
  npm run sandbox -- scenario <name> [--broadcaster ID] [--immediate]
  npm run sandbox -- advance <seconds>
  npm run sandbox -- stop <job_id>
${LIVE_USAGE}
  Subcommands find a running Greenroom app's sandbox, else a running npm run sandbox, through a file in
  Greenroom's data dir ($GREENROOM_DATA_DIR or the default). Or name one: --admin-url URL --admin-token T
  (or $${ADMIN_URL_ENV}, $${ADMIN_TOKEN_ENV}); both are in npm run sandbox's JSON line.
Events: ${KICK_EVENT_TYPES.join(', ')}
Scenarios: ${SCENARIO_NAMES.join(', ')}
Values in field.path=value are JSON when they parse as JSON, else strings.`;
