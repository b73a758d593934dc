/**
 * The production Content-Security-Policy the panel server sends with every response. It matches the
 * renderer's own `<meta>` policy ([code style point 9](../../docs/code-style.md#security-baseline)) plus what only a served page needs: the WebSocket back
 * to this server, the emote image host, and `frame-ancestors` (which a `<meta>` policy cannot carry).
 */
import { isLoopbackHost, plainImageOrigin } from '../../shared/emote-host';

/**
 * Turns configured image hosts into CSP source expressions; anything that is not a plain image origin
 * (shared/emote-host.ts: no wildcard, user, path or odd host; http only on this computer) is dropped.
 * A host on this computer (the embedded sandbox's emotes) is allowed on any port, as the renderer's own
 * `<meta>` policy does: the sandbox takes a new port at every start, while a panel left open across a
 * restart keeps the policy it loaded with, and would refuse every emote from the new port
 * ([panel in a browser](../../docs/panel-in-a-browser.md#emotes-after-a-restart)).
 */
export function imageSources(hosts: readonly string[]): string[] {
  const sources: string[] = [];
  for (const host of hosts) {
    // Only the origin goes into the header, so a path, a quote or a `;` can never inject a directive.
    const origin = URL.canParse(host) ? plainImageOrigin(new URL(host).origin) : null;
    if (origin === null) {
      continue; // Not a plain origin: ignored rather than widening the policy.
    }
    const url = new URL(origin);
    const source = isLoopbackHost(url.hostname) ? `${url.protocol}//${url.hostname}:*` : origin;
    if (!sources.includes(source)) {
      sources.push(source);
    }
  }
  return sources;
}

/** Builds the policy for a panel server listening on `port`. */
export function buildPanelCsp(options: { port: number; imageHosts?: readonly string[] }): string {
  const img = ["'self'", 'data:', ...imageSources(options.imageHosts ?? [])].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${img}`,
    // The Overlays tab previews alerts in their own fonts, bundled with the panel (docs/overlays.md#fonts).
    "font-src 'self'",
    `connect-src 'self' ws://127.0.0.1:${options.port} ws://localhost:${options.port}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
