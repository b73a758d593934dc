/**
 * The effective configuration: environment variables ([design notes](../../docs/design-notes.md#configuration-the-tests-and-tools-rely-on), "Configuration the tests and tools rely
 * on") over the settings store over defaults. Pure, so every rule is a unit test; a bad value is a
 * {@link ConfigError} naming the variable or setting, never a silent fallback.
 *
 * With a client id and secret Greenroom talks to Kick; without them it runs on the embedded sandbox and
 * says so ({@link SANDBOX_NOTICE}).
 */
import { AppError } from '../../shared/errors';
import { PORT_USES, portClash } from '../../shared/loopback-redirect';
import type { KickEventType, KickScope } from '../../shared/kick/scopes';
import type { AppMode } from '../../shared/views';
import { WIRE_ASSUMPTIONS } from '../kick/wire-assumptions';
import type { NotificationToggles, SettingsValues } from './settings-schema';

/** Kick's API host ([reference §1](../../docs/kick-wire-reference.md#1-hosts-and-general-conventions)). */
export const KICK_API_URL = 'https://api.kick.com';
/** Kick's OAuth host ([reference §2](../../docs/kick-wire-reference.md#2-oauth)). */
export const KICK_AUTH_URL = 'https://id.kick.com';
/**
 * Kick's live socket ([reference §10.1](../../docs/kick-wire-reference.md#101-connection)): the Pusher host, Kick's web
 * host (provider discovery, the Centrifugo token) and its website (the channel id lookup).
 */
export const KICK_SOCKET_URL = 'wss://ws-us2.pusher.com';
export const KICK_WEB_URL = 'https://web.kick.com';
export const KICK_SITE_URL = 'https://kick.com';
/** Where the receiver listens unless `GREENROOM_WEBHOOK_PATH` says otherwise. */
export const DEFAULT_WEBHOOK_PATH = '/kick/webhook';
/**
 * The receiver's timestamp window: 48 h, so it cannot reject a genuine late delivery or retry (Kick retries
 * for a day, and whether a retry's timestamp is fresh is undocumented: `WIRE_ASSUMPTIONS`). 0 (by
 * environment) turns it off.
 */
export const DEFAULT_REPLAY_WINDOW_S = WIRE_ASSUMPTIONS.webhookRetryHorizonSeconds;
// The fixed ports live beside the other ports the app owns (own-ports.ts); config.ts names them too.
import { DEFAULT_PANEL_PORT, DEFAULT_WEBHOOK_PORT } from './own-ports';
export { DEFAULT_PANEL_PORT, DEFAULT_WEBHOOK_PORT };

/** What the panel says, plainly, while Greenroom runs on its embedded sandbox. */
export const SANDBOX_NOTICE =
  "Running on the Greenroom sandbox: a simulated Kick on this computer. You can already stream from OBS to its channel (OBS tab → Set up OBS for Kick); for real viewers, add your Kick app's client id and secret in Settings.";

/** The environment variables Greenroom reads. */
export const ENV = {
  apiUrl: 'GREENROOM_KICK_API_URL',
  authUrl: 'GREENROOM_KICK_AUTH_URL',
  /** The live socket's Pusher host (a ws:// or wss:// URL), e.g. any Pusher-protocol server. */
  socketUrl: 'GREENROOM_KICK_SOCKET_URL',
  /** Kick's website for the live socket: discovery, the Centrifugo token and the channel lookup. */
  webUrl: 'GREENROOM_KICK_WEB_URL',
  clientId: 'GREENROOM_CLIENT_ID',
  clientSecret: 'GREENROOM_CLIENT_SECRET',
  dataDir: 'GREENROOM_DATA_DIR',
  webhookPort: 'GREENROOM_WEBHOOK_PORT',
  webhookPath: 'GREENROOM_WEBHOOK_PATH',
  replayWindowS: 'GREENROOM_REPLAY_WINDOW_S',
  tunnel: 'GREENROOM_TUNNEL',
  tunnelHost: 'GREENROOM_TUNNEL_HOST',
  panelPort: 'GREENROOM_PANEL_PORT',
  /** Sandbox mode only: approve sign-in at once as this sandbox user id (e2e and tools that cannot click). */
  sandboxAutoApprove: 'GREENROOM_SANDBOX_AUTO_APPROVE',
  /** Sandbox mode only: `off` stops the simulated channel activity (benchmarks, deterministic e2e). */
  sandboxActivity: 'GREENROOM_SANDBOX_ACTIVITY',
  /** The journal's segment size in KiB (tests make it small so the journal rolls over within a test). */
  journalSegmentKb: 'GREENROOM_JOURNAL_SEGMENT_KB',
  /** How many journal segments are kept (tests make it small so old segments are deleted within a test). */
  journalSegments: 'GREENROOM_JOURNAL_SEGMENTS',
} as const;

/** The process environment, or any map of variables a test passes. */
export type Env = Readonly<Record<string, string | undefined>>;

/** A configuration value Greenroom cannot use; `variable` names the environment variable or setting. */
export class ConfigError extends AppError {
  readonly variable: string;

  constructor(variable: string, message: string) {
    super('InvalidArgument', `${variable} ${message}`, { details: { field: variable } });
    this.variable = variable;
  }
}

/** Everything createApp needs to know, resolved once at start. */
export interface AppConfig {
  mode: AppMode;
  sandboxNotice: string | null;
  dataDir: string;
  /** Real Kick's (or a standalone sandbox's) endpoints and app credentials; null in sandbox mode. */
  kick: { apiUrl: string; authUrl: string; clientId: string; clientSecret: string } | null;
  /**
   * Where Kick's live chat connection goes ([Settings](../../docs/settings.md#kicks-live-chat-connection)); null in
   * sandbox mode, where the embedded sandbox's own socket and web host stand in.
   */
  liveSocket: LiveSocketUrls | null;
  /** The configured client id (environment or settings), also when the secret is missing; '' when none. */
  clientId: string;
  /** Where each credential came from, for the settings view. */
  credentialSource: { clientId: 'env' | 'settings' | 'none'; clientSecret: 'env' | 'store' | 'none' };
  redirectUri: string;
  scopes: KickScope[];
  wantedEvents: KickEventType[];
  /**
   * `portSource` names where the port came from, for the line that says it is taken. `journal`: the journal's
   * rollover set by environment ([design notes](../../docs/design-notes.md#configuration-the-tests-and-tools-rely-on)),
   * null for the journal's own defaults.
   */
  webhook: {
    port: number;
    portSource: 'env' | 'settings';
    path: string;
    replayWindowSeconds: number;
    journal: JournalRollover | null;
  };
  tunnel: { setting: string; host: string | null; subdomain: string | null };
  panelPort: number;
  chatScrollback: number;
  /** Null means "the sandbox's own emote server" in sandbox mode. */
  emoteHost: string | null;
  notifications: NotificationToggles;
  /** The embedded sandbox's options; null on real Kick. */
  sandbox: { autoApproveUserId: number | null; simulatedActivity: boolean } | null;
  /** Things worth a log line that are not errors. */
  warnings: string[];
}

/** The journal's rollover: a new segment past `segmentBytes`, the oldest deleted past `segments`. */
export interface JournalRollover {
  segmentBytes?: number;
  segments?: number;
}

export interface LiveSocketUrls {
  /** The Pusher host, `wss://ws-us2.pusher.com` or a stand-in. */
  pusherUrl: string;
  /** Discovery and the Centrifugo token. */
  webUrl: string;
  /** The channel id lookup (`/api/v2/channels/<slug>`). */
  siteUrl: string;
}

/** What the configuration is resolved from. */
export interface ConfigInput {
  env: Env;
  settings: SettingsValues;
  /** The client secret from the SecretStore, if one is saved. */
  storedClientSecret: string | null;
  /** The data dir already resolved with {@link resolveDataDir}. */
  dataDir: string;
}

/** `GREENROOM_DATA_DIR` or the platform's default (Electron's userData, or ~/.config/greenroom). */
export function resolveDataDir(env: Env, fallback: string): string {
  const value = env[ENV.dataDir]?.trim();
  if (value === undefined || value === '') {
    return fallback;
  }
  if (value.includes('\0')) {
    throw new ConfigError(ENV.dataDir, 'must be a directory path');
  }
  return value;
}

/** Resolves the configuration; throws ConfigError naming the first bad variable. */
export function resolveConfig(input: ConfigInput): AppConfig {
  const { env, settings } = input;
  const warnings: string[] = [];
  const envClientId = nonEmpty(env[ENV.clientId]);
  const envSecret = nonEmpty(env[ENV.clientSecret]);
  const clientId = envClientId ?? nonEmpty(settings.clientId);
  const clientSecret = envSecret ?? nonEmpty(input.storedClientSecret ?? undefined);
  const mode: AppMode = clientId !== undefined && clientSecret !== undefined ? 'kick' : 'sandbox';

  const apiUrl = optionalUrl(env, ENV.apiUrl);
  const authUrl = optionalUrl(env, ENV.authUrl);
  const socketUrl = optionalSocketUrl(env, ENV.socketUrl);
  const webUrl = optionalUrl(env, ENV.webUrl);
  if (mode === 'sandbox') {
    const ignored = [
      [apiUrl, ENV.apiUrl],
      [authUrl, ENV.authUrl],
      [socketUrl, ENV.socketUrl],
      [webUrl, ENV.webUrl],
    ].find(([value]) => value !== undefined);
    if (ignored) {
      warnings.push(
        `${ignored[1]} is ignored: no client id and secret are configured, so Greenroom runs its embedded sandbox`,
      );
    }
  }
  if (mode === 'sandbox' && (clientId !== undefined) !== (clientSecret !== undefined)) {
    warnings.push(
      `a client ${clientId === undefined ? 'id' : 'secret'} is missing, so Greenroom runs its embedded sandbox`,
    );
  }

  const envTunnel = nonEmpty(env[ENV.tunnel]);
  // The embedded sandbox delivers on this computer: a public tunnel would only add a stranger's server.
  const tunnelSetting = envTunnel ?? (mode === 'sandbox' ? 'off' : settings.tunnel);
  checkTunnel(envTunnel !== undefined ? ENV.tunnel : 'tunnel', tunnelSetting);

  const webhookPort = port(env, ENV.webhookPort, settings.webhookPort);
  const panelPort = panelPortOf(env);
  checkPortsApart(env, webhookPort, panelPort);
  const redirectClash = redirectPortClash(settings.redirectUri, panelPort, webhookPort);
  if (redirectClash) {
    // Not fatal: the panel still starts, and the redirect is changed there (docs/settings.md#redirect-url).
    warnings.push(
      `the sign-in redirect URL ${settings.redirectUri} cannot work: ${redirectClash} Change it in Settings`,
    );
  }

  return {
    mode,
    sandboxNotice: mode === 'sandbox' ? SANDBOX_NOTICE : null,
    dataDir: input.dataDir,
    kick:
      mode === 'kick'
        ? {
            apiUrl: apiUrl ?? KICK_API_URL,
            authUrl: authUrl ?? KICK_AUTH_URL,
            clientId: clientId!,
            clientSecret: clientSecret!,
          }
        : null,
    liveSocket:
      mode === 'kick'
        ? {
            pusherUrl: socketUrl ?? KICK_SOCKET_URL,
            webUrl: webUrl ?? KICK_WEB_URL,
            siteUrl: webUrl ?? KICK_SITE_URL,
          }
        : null,
    clientId: clientId ?? '',
    credentialSource: {
      clientId: envClientId !== undefined ? 'env' : clientId !== undefined ? 'settings' : 'none',
      clientSecret: envSecret !== undefined ? 'env' : clientSecret !== undefined ? 'store' : 'none',
    },
    redirectUri: settings.redirectUri,
    scopes: [...settings.scopes],
    wantedEvents: [...settings.wantedEvents],
    webhook: {
      port: webhookPort,
      portSource: nonEmpty(env[ENV.webhookPort]) === undefined ? 'settings' : 'env',
      path: webhookPath(env),
      replayWindowSeconds: wholeNumber(env, ENV.replayWindowS, DEFAULT_REPLAY_WINDOW_S, 7 * 86_400),
      journal: journalRollover(env),
    },
    tunnel: {
      setting: tunnelSetting,
      host: optionalUrl(env, ENV.tunnelHost) ?? null,
      subdomain: settings.installSubdomain,
    },
    panelPort,
    chatScrollback: settings.chatScrollback,
    emoteHost: mode === 'sandbox' ? null : settings.emoteHost,
    notifications: { ...settings.notifications },
    sandbox: mode === 'sandbox' ? sandboxOptions(env) : null,
    warnings,
  };
}

// --- Readers ---

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

function optionalUrl(env: Env, name: string): string | undefined {
  const value = nonEmpty(env[name]);
  if (value === undefined) {
    return undefined;
  }
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '') {
    throw new ConfigError(name, `must be an http or https URL such as https://api.kick.com, got "${value}"`);
  }
  return value.replace(/\/+$/, '');
}

/** A websocket URL (`ws:` or `wss:`) with no path, query or fragment: the live socket's Pusher host. */
function optionalSocketUrl(env: Env, name: string): string | undefined {
  const value = nonEmpty(env[name]);
  if (value === undefined) {
    return undefined;
  }
  const url = URL.canParse(value) ? new URL(value) : null;
  if (
    !url ||
    (url.protocol !== 'ws:' && url.protocol !== 'wss:') ||
    url.pathname.replace(/\/+$/, '') !== '' ||
    url.search !== '' ||
    url.hash !== ''
  ) {
    throw new ConfigError(name, `must be a ws or wss URL with no path such as ${KICK_SOCKET_URL}, got "${value}"`);
  }
  return value.replace(/\/+$/, '');
}

function wholeNumber(env: Env, name: string, fallback: number, max: number): number {
  const value = nonEmpty(env[name]);
  if (value === undefined) {
    return fallback;
  }
  if (!/^\d+$/.test(value) || Number(value) > max) {
    throw new ConfigError(name, `must be a whole number from 0 to ${max}, got "${value}"`);
  }
  return Number(value);
}

/** A whole number from 1 to `max`, or undefined when the variable is not set. */
function countFrom(env: Env, name: string, max: number): number | undefined {
  const value = nonEmpty(env[name]);
  if (value === undefined) {
    return undefined;
  }
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) {
    throw new ConfigError(name, `must be a whole number from 1 to ${max}, got "${value}"`);
  }
  return Number(value);
}

/** Up to 1 GiB per segment and 1,000 segments: far past the defaults (8 MiB, 8), never an accident of typing. */
function journalRollover(env: Env): JournalRollover | null {
  const kb = countFrom(env, ENV.journalSegmentKb, 1_048_576);
  const segments = countFrom(env, ENV.journalSegments, 1_000);
  if (kb === undefined && segments === undefined) {
    return null;
  }
  return { ...(kb === undefined ? {} : { segmentBytes: kb * 1024 }), ...(segments === undefined ? {} : { segments }) };
}

/** The panel server's port, from the environment alone: a start can ask before it opens anything in the data dir. */
export function panelPortOf(env: Env): number {
  return port(env, ENV.panelPort, DEFAULT_PANEL_PORT);
}

function port(env: Env, name: string, fallback: number): number {
  const value = nonEmpty(env[name]);
  if (value === undefined) {
    return fallback;
  }
  if (!/^\d+$/.test(value) || Number(value) > 65_535) {
    throw new ConfigError(name, `must be a port from 0 to 65535 (0 picks a free one), got "${value}"`);
  }
  return Number(value);
}

/**
 * The receiver and the panel on one port: whichever starts second could not listen, and the line would blame
 * another program. Named here instead, with the variable that set it ([Webhook port](../../docs/settings.md#webhook-port)).
 */
function checkPortsApart(env: Env, webhookPort: number, panelPort: number): void {
  if (webhookPort === 0 || webhookPort !== panelPort) {
    return;
  }
  const fromEnv = nonEmpty(env[ENV.webhookPort]) !== undefined;
  const name = fromEnv ? ENV.webhookPort : ENV.panelPort;
  const other = fromEnv ? "Greenroom's panel port" : "Greenroom's webhook port (in the settings)";
  throw new ConfigError(
    name,
    `is ${webhookPort}, the same as ${other}; the two need their own ports, so pick another, such as ${webhookPort + 1}`,
  );
}

/** Why a redirect URL kept in the settings file lands on the panel's or the receiver's port, or null. */
function redirectPortClash(redirectUri: string, panelPort: number, webhookPort: number): string | null {
  const url = URL.canParse(redirectUri) ? new URL(redirectUri) : null;
  const port = url === null ? 0 : url.port === '' ? 80 : Number(url.port);
  return portClash(port, [
    { port: panelPort, use: PORT_USES.panel },
    { port: webhookPort, use: PORT_USES.webhook },
  ]);
}

function webhookPath(env: Env): string {
  const value = nonEmpty(env[ENV.webhookPath]) ?? DEFAULT_WEBHOOK_PATH;
  if (!/^\/[A-Za-z0-9._~\-/]*$/.test(value) || value.includes('//')) {
    throw new ConfigError(ENV.webhookPath, `must be a URL path such as ${DEFAULT_WEBHOOK_PATH}, got "${value}"`);
  }
  return value;
}

function checkTunnel(name: string, value: string): void {
  const lower = value.toLowerCase();
  if (lower === 'localtunnel' || lower === 'off') {
    return;
  }
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || url.protocol !== 'https:') {
    throw new ConfigError(name, `must be "localtunnel", "off" or an https URL, got "${value}"`);
  }
}

function sandboxOptions(env: Env): { autoApproveUserId: number | null; simulatedActivity: boolean } {
  const approve = nonEmpty(env[ENV.sandboxAutoApprove]);
  if (approve !== undefined && (!/^\d{1,12}$/.test(approve) || Number(approve) < 1)) {
    throw new ConfigError(ENV.sandboxAutoApprove, `must be a sandbox user id such as 100001, got "${approve}"`);
  }
  const activity = nonEmpty(env[ENV.sandboxActivity])?.toLowerCase() ?? 'on';
  if (activity !== 'on' && activity !== 'off') {
    throw new ConfigError(ENV.sandboxActivity, `must be "on" or "off", got "${activity}"`);
  }
  return { autoApproveUserId: approve === undefined ? null : Number(approve), simulatedActivity: activity === 'on' };
}
