/**
 * A loopback port for an app a test or benchmark starts later on a fixed port (its webhook receiver, its panel, a
 * sign-in redirect). Port 0 cannot serve there: the port is chosen before the app runs and must stay the same
 * across a restart, as a streamer's proxy or tunnel points at it.
 *
 * Picked below the system's ephemeral range: a port the kernel handed out for `listen(0)` and then freed can
 * be handed out again at once as the local end of any outgoing connection (Chromium's, the sandbox's), and on
 * a busy CI machine one was taken in the moment between the pick and the app binding it. Ports below the range
 * are only ever taken by something that asks for them by number, so a pick that was free stays free.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The first port of the kernel's ephemeral range (Linux), or IANA's 49152 elsewhere. */
export function ephemeralStart(): number {
  try {
    const first = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(first) && first > 2048 ? first : 49152;
  } catch {
    return 49152;
  }
}

const LOWEST = 20_000;

/**
 * Ports already handed out by this process: a probed port is free again at once, so without this two picks
 * for one app (its webhook port and its sign-in redirect) could be the same port.
 */
const handedOut = new Set<number>();

function tryListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** A loopback port that is free now, outside the ephemeral range, and not handed out before by this process. */
export async function freePort(): Promise<number> {
  const highest = Math.max(LOWEST + 1000, ephemeralStart());
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (highest - LOWEST));
    if (!handedOut.has(port) && (await tryListen(port))) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free loopback port between ${LOWEST} and ${highest} after 100 tries`);
}
