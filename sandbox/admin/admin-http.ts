/**
 * HTTP plumbing of the sandbox's admin API: JSON in, JSON out, `{error}` with a status on failure. It reuses
 * the API's body parsers (their messages already name the field and the limit) and re-shapes their Kick
 * envelope into the admin's own `{error}`.
 */
import { bodyInt, readJsonObject } from '../api/params';
import type { Handler, SandboxRequest, SandboxResponse } from '../http/types';
import { HttpAnswer } from '../http/types';
import { TriggerInputError } from './generate-context';
import { OverrideError } from './overrides';

/** A JSON answer (200 unless told). */
export function adminOk(body: unknown, status = 200): SandboxResponse {
  return { status, body };
}

/** The admin API's error shape: `{error}` naming the field. */
export function adminError(status: number, message: string): SandboxResponse {
  return { status, body: { error: message } };
}

/** Ends the current admin request with `{error}`. */
export function adminFail(status: number, message: string): never {
  throw new HttpAnswer(adminError(status, message));
}

function errorDetail(body: unknown): string {
  if (typeof body === 'object' && body !== null) {
    const { data, message, error } = body as { data?: unknown; message?: unknown; error?: unknown };
    if (typeof error === 'string') {
      return error;
    }
    if (typeof data === 'string') {
      return data;
    }
    if (typeof message === 'string') {
      return message;
    }
  }
  return 'request failed';
}

/** Wraps an admin handler so every failure leaves as `{error}` with the right status. */
export function adminRoute(handler: Handler): Handler {
  return async (req) => {
    try {
      return await handler(req);
    } catch (error) {
      if (error instanceof HttpAnswer) {
        return adminError(error.response.status, errorDetail(error.response.body));
      }
      if (error instanceof TriggerInputError) {
        return adminError(error.status, error.message);
      }
      if (error instanceof OverrideError) {
        return adminError(400, error.message);
      }
      throw error;
    }
  };
}

/** The JSON object body; an empty body is `{}` (every admin body field is optional or checked after). */
export function readAdminBody(req: SandboxRequest): Record<string, unknown> {
  return readJsonObject(req, true);
}

/** A numeric body field (integers and fractions) within [min, max]. */
export function bodyNumber(
  body: Record<string, unknown>,
  field: string,
  rule: { min?: number; max?: number; exclusiveMin?: boolean; required?: boolean } = {},
): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) {
    if (rule.required) {
      adminFail(400, `${field}: is required`);
    }
    return undefined;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    adminFail(400, `${field}: must be a number`);
  }
  if (rule.min !== undefined) {
    if (rule.exclusiveMin ? value <= rule.min : value < rule.min) {
      adminFail(400, `${field}: must be ${rule.exclusiveMin ? 'greater than' : 'at least'} ${rule.min}`);
    }
  }
  if (rule.max !== undefined && value > rule.max) {
    adminFail(400, `${field}: must be at most ${rule.max}`);
  }
  return value;
}

/** An integer path parameter (`/channels/:id`). */
export function pathInt(req: SandboxRequest, name: string, field = name): number {
  const raw = req.params[name] ?? '';
  if (!/^\d{1,15}$/.test(raw)) {
    adminFail(400, `${field}: must be an integer`);
  }
  return Number(raw);
}

/** An integer query parameter with a default and bounds. */
export function queryLimit(req: SandboxRequest, fallback: number, max: number): number {
  const raw = req.query.get('limit');
  if (raw === null || raw === '') {
    return fallback;
  }
  if (!/^\d{1,15}$/.test(raw)) {
    adminFail(400, 'limit: must be an integer');
  }
  const value = Number(raw);
  if (value < 1 || value > max) {
    adminFail(400, `limit: must be from 1 to ${max}`);
  }
  return value;
}

/** `bodyInt` re-exported so admin modules import their parsers from one place. */
export { bodyInt };

/** Keys already converted: the records' field names are a small fixed set, asked for thousands of times. */
const SNAKE_KEYS = new Map<string, string>();
const SNAKE_KEYS_MAX = 512;

/**
 * camelCase → snake_case, for showing internal records (delivery attempts) in the admin's JSON style.
 * Cached: listing 10,000 attempts ran the regex for every field of every one, on the event loop the
 * embedded sandbox shares with the app (a 100 ms stall in the chat storm).
 */
export function snakeKey(key: string): string {
  let snake = SNAKE_KEYS.get(key);
  if (snake === undefined) {
    snake = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (SNAKE_KEYS.size < SNAKE_KEYS_MAX) {
      SNAKE_KEYS.set(key, snake);
    }
  }
  return snake;
}
