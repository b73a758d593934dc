/**
 * The ports Greenroom itself listens on, with what each is for, so a redirect URL or webhook port that
 * would land on one is refused with the fix ([Redirect URL](../../docs/settings.md#redirect-url)) instead
 * of failing at sign-in with "port in use" or, worse, sending Kick's answer into the panel server.
 *
 * Both what the configuration asks for and what this run actually bound count: with port 0 (a free port
 * each start) for the panel, the webhook receiver or the embedded sandbox, only the bound port says where
 * Greenroom listens.
 */
import { PORT_USES, type PortInUse } from '../../shared/loopback-redirect';
import { DEFAULT_SANDBOX_PORT } from './embedded-sandbox';

/** `npm run sandbox`'s API, sign-in and admin ports (a streamer may run it beside the app). */
/**
 * The receiver port, next to the panel's: fixed, so a streamer's own tunnel or reverse proxy keeps routing
 * to it across restarts. Kept in the settings (`webhookPort`), where a settings migration wrote it.
 */
export const DEFAULT_WEBHOOK_PORT = 7532;
/** A fixed panel port, so the OBS dock URL a streamer pasted keeps working after a restart. */
export const DEFAULT_PANEL_PORT = 7531;

export const SANDBOX_PORTS: readonly PortInUse[] = [0, 1, 2].map((offset) => ({
  port: DEFAULT_SANDBOX_PORT + offset,
  use: PORT_USES.sandbox,
}));

/** Where this run listens right now: null (or an unreadable URL) for what is not listening (yet). */
export interface BoundPorts {
  /** The panel server's dock URL. */
  panelUrl: string | null;
  webhookPort: number | null;
  /** The embedded sandbox's API, sign-in and admin URLs. */
  sandboxUrls: readonly string[];
}

/** The panel and webhook ports this run uses, configured and bound (0 alone clashes with nothing). */
export function ownPorts(config: { panelPort: number; webhook: { port: number } }, bound?: BoundPorts): PortInUse[] {
  const listening: PortInUse[] = bound
    ? [
        { port: portOf(bound.panelUrl), use: PORT_USES.panel },
        { port: bound.webhookPort ?? 0, use: PORT_USES.webhook },
        ...bound.sandboxUrls.map((url) => ({ port: portOf(url), use: PORT_USES.sandbox })),
      ]
    : [];
  return [
    { port: config.panelPort, use: PORT_USES.panel },
    { port: config.webhook.port, use: PORT_USES.webhook },
    ...listening,
    ...SANDBOX_PORTS,
  ].filter((p) => p.port !== 0);
}

/** The explicit port of an http URL; 0 when there is none to read. */
function portOf(url: string | null): number {
  const port = url !== null && URL.canParse(url) ? new URL(url).port : '';
  return port === '' ? 0 : Number(port);
}
