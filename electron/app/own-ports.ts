/**
 * The ports Greenroom itself listens on, with what each is for, so a redirect URL or webhook port that
 * would land on one is refused with the fix ([Redirect URL](../../docs/settings.md#redirect-url)) instead
 * of failing at sign-in with "port in use" or, worse, sending Kick's answer into the panel server.
 */
import { PORT_USES, type PortInUse } from '../../shared/loopback-redirect';
import { DEFAULT_SANDBOX_PORT } from './embedded-sandbox';
import type { AppConfig } from './config';

/** `npm run sandbox`'s API, sign-in and admin ports (a streamer may run it beside the app). */
export const SANDBOX_PORTS: readonly PortInUse[] = [0, 1, 2].map((offset) => ({
  port: DEFAULT_SANDBOX_PORT + offset,
  use: PORT_USES.sandbox,
}));

/** The panel and webhook ports this run uses (0, a free port each start, clashes with nothing). */
export function ownPorts(config: Pick<AppConfig, 'panelPort' | 'webhook'>): PortInUse[] {
  return [
    { port: config.panelPort, use: PORT_USES.panel },
    { port: config.webhook.port, use: PORT_USES.webhook },
    ...SANDBOX_PORTS,
  ].filter((p) => p.port !== 0);
}
