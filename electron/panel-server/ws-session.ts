/**
 * One panel WebSocket from upgrade to close: the hello handshake (unless the upgrade already carried the
 * token), then invoke/send frames handed to the router, which validates channel and arguments exactly as
 * for Electron IPC. Nothing a client sends can throw out of here; bad frames get an error frame, protocol
 * violations close the socket with a policy code.
 */
import type { Router } from '../ipc/router';
import type { RawData, WebSocket } from 'ws';
import type { ErrorValue, Result } from '../../shared/errors';
import { PANEL_CLOSE, parseClientFrame, type ServerFrame } from '../../shared/panel-protocol';
import { tokensEqual } from './http-guards';

export interface SessionDeps {
  /** The transport-agnostic handlers; it validates every message itself. */
  router: Router;
  token: string;
  /** True when the upgrade URL already carried the right token; otherwise a hello must come first. */
  authorized: boolean;
  /** How long an unauthorized socket may stay open waiting for its hello. */
  helloTimeoutMs: number;
  /** Requests one socket may have in flight; more are answered at once with an error. */
  maxInFlight: number;
  log: (message: string) => void;
  /** Called once the socket is authorized: from then on it receives events. */
  onAuthorized(socket: WebSocket): void;
  /**
   * Called before a result is sent: events are batched (event-batcher.ts), and an event a request caused must still
   * reach the panel before that request's answer, as it did when events went out one by one.
   */
  beforeResult?(): void;
}

const INTERNAL: ErrorValue = { code: 'Internal', message: 'the request failed inside Greenroom' };

function frameText(frame: ServerFrame): string {
  try {
    return JSON.stringify(frame);
  } catch {
    // A value that cannot be serialised is a bug in a handler; the panel still gets its answer.
    return JSON.stringify(frame.type === 'result' ? { ...frame, result: { ok: false, error: INTERNAL } } : frame);
  }
}

/** Sends a frame if the socket is still open. */
export function sendFrame(socket: WebSocket, frame: ServerFrame): void {
  if (socket.readyState === socket.OPEN) {
    socket.send(frameText(frame));
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) {
    return Buffer.concat(data).toString('utf8');
  }
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}

/** Runs the protocol on an accepted socket. */
export function runSession(socket: WebSocket, options: SessionDeps): void {
  let authorized = false;
  let inFlight = 0;
  let helloTimer: ReturnType<typeof setTimeout> | undefined;

  const authorize = (): void => {
    authorized = true;
    clearTimeout(helloTimer);
    sendFrame(socket, { type: 'ready' });
    options.onAuthorized(socket);
  };
  const refuse = (code: number, reason: string): void => {
    clearTimeout(helloTimer);
    socket.close(code, reason);
  };
  const reportError = (message: string): void => {
    sendFrame(socket, { type: 'error', error: { code: 'InvalidArgument', message } });
  };

  const invoke = async (id: number, channel: unknown, args: unknown): Promise<void> => {
    if (inFlight >= options.maxInFlight) {
      const error: ErrorValue = { code: 'Ratelimited', message: 'too many requests in flight on this connection' };
      sendFrame(socket, { type: 'result', id, result: { ok: false, error } });
      return;
    }
    inFlight += 1;
    let result: Result<unknown>;
    try {
      result = await options.router.invoke(channel, args);
    } catch (error) {
      // The router returns expected failures as values; a throw is a bug, logged here, never shown raw.
      options.log(`panel: ${typeof channel === 'string' ? channel : '?'} threw: ${String(error)}`);
      result = { ok: false, error: INTERNAL };
    } finally {
      inFlight -= 1;
    }
    options.beforeResult?.();
    sendFrame(socket, { type: 'result', id, result });
  };

  const onText = (text: string): void => {
    const parsed = parseClientFrame(text);
    if (!authorized) {
      if (!parsed.ok || parsed.value.type !== 'hello') {
        refuse(PANEL_CLOSE.policy, 'hello first');
      } else if (tokensEqual(parsed.value.token, options.token)) {
        authorize();
      } else {
        refuse(PANEL_CLOSE.unauthorized, 'wrong token');
      }
      return;
    }
    if (!parsed.ok) {
      reportError(parsed.error);
      return;
    }
    const frame = parsed.value;
    if (frame.type === 'invoke') {
      void invoke(frame.id, frame.channel, frame.args);
    } else if (frame.type === 'send') {
      try {
        options.router.send(frame.channel, frame.args);
      } catch (error) {
        options.log(`panel: send ${typeof frame.channel === 'string' ? frame.channel : '?'} threw: ${String(error)}`);
      }
    } else {
      reportError('already authorized');
    }
  };

  socket.on('message', (data, isBinary) => {
    if (isBinary) {
      if (authorized) {
        reportError('binary frames are not accepted');
      } else {
        refuse(PANEL_CLOSE.policy, 'hello first');
      }
      return;
    }
    onText(rawText(data));
  });
  // ws reports protocol violations (oversize frames, bad UTF-8) here after closing with the right code.
  socket.on('error', (error) => options.log(`panel: socket error: ${error.message}`));
  socket.on('close', () => clearTimeout(helloTimer));

  if (options.authorized) {
    authorize();
  } else {
    helloTimer = setTimeout(() => refuse(PANEL_CLOSE.unauthorized, 'no hello'), options.helloTimeoutMs);
    helloTimer.unref();
  }
}
