/**
 * The one-shot loopback listener for the OAuth redirect (RFC 8252 §7.3): bound to loopback only, it accepts
 * exactly one GET on the callback path that carries this attempt's `state`, answers the browser with a
 * small page, and closes. Anything else, a callback with another state included, gets 404 and does not end
 * the wait: any local web page can send a request here, and must not be able to abort a sign-in.
 */
import type { Result } from '../../../shared/errors';
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthError } from '../kick-errors';

export interface LoopbackListener {
  /** The redirect URI with the real port (differs from the configured one only when it asked for port 0). */
  redirectUri: string;
  /** Resolves with the full callback URL once the browser arrives; rejects on timeout or cancel. */
  callback: Promise<URL>;
  /** The attempt's `state`: only a callback carrying exactly this one is taken; until set, none is. */
  expectState(state: string): void;
  /** Answers the waiting browser tab and closes the listener. */
  /** The page the browser is left on: signed in, or the failure's message. */
  finish(outcome: Result<null, string>): void;
  close(): void;
}

export async function openLoopbackListener(options: {
  redirectUri: string;
  timeoutMs: number;
  signal?: AbortSignal;
}): Promise<LoopbackListener> {
  const configured = new URL(options.redirectUri);
  if (configured.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(configured.hostname)) {
    throw new AuthError(
      'NotConfigured',
      `The redirect URI must be http on 127.0.0.1, localhost or [::1]; got ${options.redirectUri}`,
    );
  }
  const hosts =
    configured.hostname === 'localhost' ? ['127.0.0.1', '::1'] : [configured.hostname.replace(/^\[|\]$/g, '')];
  const requestedPort = configured.port === '' ? 80 : Number(configured.port);

  let pending: ServerResponse | null = null;
  let settle!: { resolve: (url: URL) => void; reject: (error: Error) => void };
  const callback = new Promise<URL>((resolve, reject) => {
    settle = { resolve, reject };
  });
  callback.catch(() => undefined);
  let done = false;
  let expectedState: string | null = null;

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', `${configured.protocol}//${configured.host}`);
    if (done || req.method !== 'GET' || url.pathname !== configured.pathname || !carriesState(url, expectedState)) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end('Not found');
      return;
    }
    done = true;
    pending = res;
    const full = new URL(redirectUri);
    full.search = url.search;
    settle.resolve(full);
  };

  const servers: Server[] = [];
  let port = requestedPort;
  for (const host of hosts) {
    const server = createServer(onRequest);
    try {
      await listen(server, port, host);
    } catch (error) {
      if (host === '::1' && servers.length > 0) {
        continue;
      } // no IPv6 loopback here; 127.0.0.1 suffices
      servers.forEach((s) => s.close());
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') {
        throw new AuthError(
          'AuthPortInUse',
          `Port ${port} is in use; close the program using it or change the redirect port in settings`,
          { cause: error },
        );
      }
      throw new AuthError('AuthCallbackInvalid', `Could not listen for the sign-in callback on ${host}:${port}`, {
        cause: error,
      });
    }
    port = (server.address() as AddressInfo).port;
    servers.push(server);
  }
  const actual = new URL(options.redirectUri);
  actual.port = String(port);
  const redirectUri = actual.toString();

  const close = (): void => {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    for (const server of servers) {
      server.close();
      server.closeAllConnections();
    }
  };
  const fail = (error: AuthError): void => {
    if (!done) {
      done = true;
      settle.reject(error);
    }
    close();
  };
  const timer = setTimeout(
    () => fail(new AuthError('AuthTimedOut', `No sign-in arrived within ${Math.round(options.timeoutMs / 1000)} s`)),
    options.timeoutMs,
  );
  timer.unref();
  const onAbort = (): void => fail(new AuthError('AuthCancelled', 'Sign-in was cancelled'));
  if (options.signal?.aborted) {
    onAbort();
  } else {
    options.signal?.addEventListener('abort', onAbort, { once: true });
  }

  return {
    redirectUri,
    callback,
    expectState(state) {
      expectedState = state;
    },
    finish(outcome) {
      const res = pending;
      if (res) {
        res.writeHead(outcome.ok ? 200 : 400, {
          'content-type': 'text/html; charset=utf-8',
          connection: 'close',
          'cache-control': 'no-store',
        });
        res.end(resultPage(outcome));
      }
      close();
    },
    close: () => fail(new AuthError('AuthCancelled', 'Sign-in was cancelled')),
  };
}

/** True when the query has exactly one `state` and it is `expected` (compared in constant time). */
function carriesState(url: URL, expected: string | null): boolean {
  const states = url.searchParams.getAll('state');
  if (expected === null || states.length !== 1) {
    return false;
  }
  const digest = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(states[0]!), digest(expected));
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function resultPage(outcome: Result<null, string>): string {
  const title = outcome.ok ? 'Signed in to Greenroom' : 'Greenroom sign-in failed';
  const body = outcome.ok
    ? 'You can close this tab and return to Greenroom.'
    : `${escapeHtml(outcome.error)}. You can close this tab and try again from Greenroom.`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"><title>${title}</title><style>body{font:16px system-ui,sans-serif;background:#0b0e0f;color:#e8ece9;display:grid;place-items:center;height:100vh;margin:0}main{max-width:28rem;text-align:center}h1{color:${outcome.ok ? '#53fc18' : '#ff6b6b'}}</style></head><body><main><h1>${title}</h1><p>${body}</p></main></body></html>`;
}
