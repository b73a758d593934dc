/**
 * Picks the tunnel from configuration ([design notes](../../../docs/design-notes.md#configuration-the-tests-and-tools-rely-on), "Configuration"):
 * - `GREENROOM_TUNNEL` = `localtunnel` (the default when unset), `off`, or a public https URL the user routes
 *   to the receiver themselves;
 * - `GREENROOM_TUNNEL_HOST` = a self-hosted localtunnel server instead of https://localtunnel.me.
 */
import type { Dispatcher } from 'undici';
import { AppError } from '../../../shared/errors';
import type { Clock } from '../../core/clock';
import type { SetTimer } from '../../core/scheduler';
import { type BackoffOptions, DEFAULT_LOCALTUNNEL_HOST, LocalTunnel } from './localtunnel-tunnel';
import { createSelfCheck, routeThrough, type SelfCheckRoute } from './self-check';
import { OffTunnel, StaticTunnel } from './static-tunnel';
import type { Tunnel, TunnelLog } from './tunnel';

export type TunnelSetting = { kind: 'localtunnel' } | { kind: 'off' } | { kind: 'static'; url: string };

/** Reads `GREENROOM_TUNNEL`; anything but `localtunnel`, `off` or an https URL is an `InvalidArgument`. */
export function parseTunnelSetting(value: string | undefined): TunnelSetting {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '' || trimmed.toLowerCase() === 'localtunnel') {
    return { kind: 'localtunnel' };
  }
  if (trimmed.toLowerCase() === 'off') {
    return { kind: 'off' };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) {
    return { kind: 'static', url: trimmed };
  }
  throw new AppError(
    'InvalidArgument',
    `GREENROOM_TUNNEL must be "localtunnel", "off" or an https URL, got "${trimmed}"`,
    {
      details: { field: 'GREENROOM_TUNNEL' },
    },
  );
}

export interface CreateTunnelConfig {
  /** `GREENROOM_TUNNEL` as given (unset: localtunnel). */
  tunnel?: string;
  /** `GREENROOM_TUNNEL_HOST` as given (unset: https://localtunnel.me). */
  tunnelHost?: string;
  /** The install's stable subdomain (subdomain.ts). */
  subdomain: string;
  /** Where the webhook receiver listens. */
  localPort: number;
  localHost?: string;
  /** The receiver's path (`GREENROOM_WEBHOOK_PATH`, default `/kick/webhook`), for the self-check. */
  receiverPath: string;
  /** Check through the public URL that it reaches the receiver; default true. */
  selfCheck?: boolean;
  backoff?: Partial<BackoffOptions>;
}

export interface CreateTunnelDeps {
  clock: Clock;
  setTimer?: SetTimer;
  random?: () => number;
  log?: TunnelLog;
  /**
   * Where the self-check request goes. Default: straight to the public URL, except with a localtunnel
   * server on loopback, where it goes to that server with the public host in `Host` (its public names
   * usually do not resolve on this machine).
   */
  selfCheckRoute?: SelfCheckRoute;
  dispatcher?: Dispatcher;
}

export function createTunnel(config: CreateTunnelConfig, deps: CreateTunnelDeps): Tunnel {
  const setting = parseTunnelSetting(config.tunnel);
  if (setting.kind === 'off') {
    return new OffTunnel();
  }

  const host = setting.kind === 'localtunnel' ? parseTunnelHost(config.tunnelHost) : undefined;
  const route = deps.selfCheckRoute ?? (host && isLoopbackHost(host) ? routeThrough(host) : undefined);
  const selfCheck =
    config.selfCheck === false
      ? undefined
      : createSelfCheck({ path: config.receiverPath, route, dispatcher: deps.dispatcher, log: deps.log });

  if (setting.kind === 'static') {
    return new StaticTunnel({ url: setting.url, clock: deps.clock, selfCheck, log: deps.log });
  }
  return new LocalTunnel({
    localPort: config.localPort,
    localHost: config.localHost,
    subdomain: config.subdomain,
    host,
    clock: deps.clock,
    setTimer: deps.setTimer,
    random: deps.random,
    log: deps.log,
    selfCheck,
    backoff: config.backoff,
  });
}

/** `GREENROOM_TUNNEL_HOST`: an http(s) origin (a path is not supported by localtunnel servers). */
export function parseTunnelHost(value: string | undefined): string {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '') {
    return DEFAULT_LOCALTUNNEL_HOST;
  }
  let url: URL | null;
  try {
    url = new URL(trimmed);
  } catch {
    url = null;
  }
  if (
    !url ||
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    (url.pathname !== '/' && url.pathname !== '')
  ) {
    throw new AppError('InvalidArgument', `GREENROOM_TUNNEL_HOST must be an http(s) origin, got "${trimmed}"`, {
      details: { field: 'GREENROOM_TUNNEL_HOST' },
    });
  }
  return url.origin;
}

function isLoopbackHost(origin: string): boolean {
  const { hostname } = new URL(origin);
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}
