/**
 * The panel WebSocket's framing: how the contract (`ipc-contract.ts`) travels between the panel server in
 * main and the browser-side transport. Only the envelope is checked here; channels and arguments are
 * validated by the router on the receiving side, exactly as on Electron IPC.
 *
 * Client → server: `hello` (the access token, first), `invoke` (a request with an id), `send`.
 * Server → client: `ready` (after a good hello), `result` (per invoke id), `event`, `events` (every event
 * of one event-loop turn in one frame, in order: a raid's chat is one frame per turn, not one per line),
 * `error`.
 */
import type { ErrorValue, Result } from './errors';

/** Where the panel server accepts WebSocket upgrades. */
export const PANEL_WS_PATH = '/ws';

/**
 * Largest frame the server accepts. The biggest legal message is `overlays:add-media`: an alert image or
 * sound of up to 3 MiB as base64 (4 MiB), so the cap sits just above that. A loopback peer gains nothing
 * from a bigger frame: ws refuses it before it is buffered whole.
 */
export const PANEL_MAX_FRAME_BYTES = 4 * 1024 * 1024 + 64 * 1024;

/** Close codes the server uses; the client stops reconnecting only on `unauthorized`. */
export const PANEL_CLOSE = {
  /** The server is stopping. */
  goingAway: 1001,
  /** A frame broke the protocol (not JSON, wrong shape, message before hello). */
  policy: 1008,
  /** A frame over PANEL_MAX_FRAME_BYTES (sent by the `ws` library itself). */
  tooBig: 1009,
  /** The client fell too far behind on events; it reconnects and reloads its snapshot. */
  overloaded: 1013,
  /** The hello carried a wrong token, or none came in time: reconnecting will not help. */
  unauthorized: 4401,
} as const;

/** Request ids are small non-negative integers chosen by the client. */
export type RequestId = number;

export type ClientFrame =
  | { type: 'hello'; token: string }
  | { type: 'invoke'; id: RequestId; channel: unknown; args: unknown }
  | { type: 'send'; channel: unknown; args: unknown };

export type ServerFrame =
  | { type: 'ready' }
  | { type: 'result'; id: RequestId; result: Result<unknown> }
  | { type: 'event'; event: string; payload: unknown }
  | { type: 'events'; events: { event: string; payload: unknown }[] }
  | { type: 'error'; error: ErrorValue };

type Parsed<T> = Result<T, string>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function parseJson(text: string): Parsed<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, error: 'frame is not JSON' };
  }
}

/** Checks a frame from the panel: the envelope only (the router validates channel and arguments). */
export function parseClientFrame(text: string): Parsed<ClientFrame> {
  const json = parseJson(text);
  if (!json.ok) {
    return json;
  }
  const frame = json.value;
  if (!isRecord(frame)) {
    return { ok: false, error: 'frame must be a JSON object' };
  }
  switch (frame.type) {
    case 'hello':
      return typeof frame.token === 'string' && frame.token.length <= 512
        ? { ok: true, value: { type: 'hello', token: frame.token } }
        : { ok: false, error: 'hello: token must be a string' };
    case 'invoke':
      return isRequestId(frame.id)
        ? { ok: true, value: { type: 'invoke', id: frame.id, channel: frame.channel, args: frame.args } }
        : { ok: false, error: 'invoke: id must be a non-negative integer' };
    case 'send':
      return { ok: true, value: { type: 'send', channel: frame.channel, args: frame.args } };
    default:
      return { ok: false, error: 'frame type must be hello, invoke or send' };
  }
}

function isResult(value: unknown): value is Result<unknown> {
  if (!isRecord(value)) {
    return false;
  }
  if (value.ok === true) {
    return 'value' in value;
  }
  return value.ok === false && isRecord(value.error) && typeof value.error.code === 'string';
}

/** Checks a frame from the server; anything unexpected is null (and ignored by the client). */
export function parseServerFrame(text: string): ServerFrame | null {
  const json = parseJson(text);
  if (!json.ok || !isRecord(json.value)) {
    return null;
  }
  const frame = json.value;
  switch (frame.type) {
    case 'ready':
      return { type: 'ready' };
    case 'result':
      return isRequestId(frame.id) && isResult(frame.result)
        ? { type: 'result', id: frame.id, result: frame.result }
        : null;
    case 'event':
      return typeof frame.event === 'string' ? { type: 'event', event: frame.event, payload: frame.payload } : null;
    case 'events':
      return Array.isArray(frame.events) && frame.events.every((e) => isRecord(e) && typeof e.event === 'string')
        ? {
            type: 'events',
            events: (frame.events as Record<string, unknown>[]).map((e) => ({
              event: e.event as string,
              payload: e.payload,
            })),
          }
        : null;
    case 'error':
      return isRecord(frame.error) && typeof frame.error.code === 'string' && typeof frame.error.message === 'string'
        ? { type: 'error', error: frame.error as unknown as ErrorValue }
        : null;
    default:
      return null;
  }
}
