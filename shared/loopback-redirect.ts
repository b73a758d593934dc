/**
 * The sign-in redirect URL, checked in the streamer's words (docs/settings.md, "Redirect URL"): Kick sends
 * the browser back to it after sign-in, so it must be http on this computer, with a path, on a port from 1
 * to 65535 that Greenroom itself does not already listen on. The panel checks as the streamer types; main
 * checks again on Save with the ports it really uses.
 */

/** The hosts that name this computer. */
export const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

/** The longest redirect URL kept. */
export const MAX_REDIRECT_URI_LENGTH = 200;

/** The port suggested when the chosen one is taken; Kick's own examples use it. */
export const SUGGESTED_REDIRECT_PORT = 3000;

const EXAMPLE = `http://127.0.0.1:${SUGGESTED_REDIRECT_PORT}/callback`;

/** A port Greenroom listens on, and what for, in the streamer's words. */
export interface PortInUse {
  port: number;
  use: string;
}

/** What each of Greenroom's own ports is for. */
export const PORT_USES = {
  panel: 'its panel and OBS links',
  webhook: "receiving Kick's events (the webhook port)",
  sandbox: 'its sandbox, the simulated Kick',
} as const;

/** Why `value` cannot be the redirect URL, in plain words with the fix, or null when it can. */
export function redirectUriProblem(value: string, inUse: readonly PortInUse[] = []): string | null {
  const text = value.trim();
  if (text === '') {
    return `Enter the address Kick sends you back to after sign-in, such as ${EXAMPLE}.`;
  }
  if (text.length > MAX_REDIRECT_URI_LENGTH) {
    return `At most ${MAX_REDIRECT_URI_LENGTH} characters.`;
  }
  if (!/^http:\/\//i.test(text)) {
    return `Start it with http:// (sign-in comes back to this computer, so no https is needed), such as ${EXAMPLE}.`;
  }
  const url = URL.canParse(text) ? new URL(text) : null;
  if (url === null) {
    // The URL parser refuses a port above 65535 without saying so; the port is read here to say it.
    const port = /^http:\/\/(?:\[[^\]]*\]|[^/:?#\s]*):([^/?#]*)/i.exec(text)?.[1] ?? '';
    const outOfRange = /^\d+$/.test(port) ? Number(port) > 65_535 : port !== '';
    return outOfRange ? portRangeProblem() : `This is not a web address; write it like ${EXAMPLE}.`;
  }
  if (!LOOPBACK_HOSTS.includes(url.hostname)) {
    return `The address must be this computer: 127.0.0.1, localhost or [::1], such as ${EXAMPLE}.`;
  }
  if (url.port === '0') {
    return `${portRangeProblem()} Kick sends you back to the exact port you registered, so 0 (any free port) cannot work.`;
  }
  if (url.pathname === '/') {
    return `Add a path after the port, such as ${EXAMPLE}.`;
  }
  return portClash(url.port === '' ? 80 : Number(url.port), inUse);
}

/** Why `port` cannot be used because Greenroom already listens there, with another to pick, or null. */
export function portClash(
  port: number,
  inUse: readonly PortInUse[],
  suggestFrom: number = SUGGESTED_REDIRECT_PORT,
): string | null {
  const taken = inUse.find((p) => p.port === port && p.port !== 0);
  if (!taken) {
    return null;
  }
  return `Port ${port} is the one Greenroom uses for ${taken.use}. Pick another port, such as ${freePortBeside(suggestFrom, inUse)}.`;
}

/** The first port from `start` that none of `inUse` has. */
export function freePortBeside(start: number, inUse: readonly PortInUse[]): number {
  let port = start;
  while (inUse.some((p) => p.port === port)) {
    port += 1;
  }
  return port;
}

function portRangeProblem(): string {
  return 'The port must be between 1 and 65535.';
}
