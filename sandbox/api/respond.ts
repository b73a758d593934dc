/**
 * api.kick.com response shapes ([reference §1](../../docs/kick-wire-reference.md#1-hosts-and-general-conventions), [§6](../../docs/kick-wire-reference.md#6-errors-and-rate-limits)). Every sandbox API answer is built here, so the
 * sandbox's idea of Kick's wire format lives in one file.
 *
 * Errors are `{ data, message }` like Kick's: `message` is the status phrase Kick uses, `data` the detail
 * (a string, as in KickDevDocs #143 `{"data":"Channel not found","message":"Bad request"}`), or
 * `{ code, detail }` where the seed says an error kind carries a code (ads).
 */
import type { SandboxResponse } from '../http/types';
import { HttpAnswer } from '../http/types';

export function ok(data: unknown, message = 'OK'): SandboxResponse {
  return { status: 200, body: { data, message } };
}

export function paged(data: unknown[], nextCursor: string | null, message = 'OK'): SandboxResponse {
  return { status: 200, body: { data, message, pagination: { next_cursor: nextCursor ?? '' } } };
}

export function noContent(): SandboxResponse {
  return { status: 204 };
}

export type ApiErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 413 | 429 | 500;

const PHRASES: Record<ApiErrorStatus, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Request entity too large',
  429: 'Too many requests',
  500: 'Internal server error',
};

export function apiError(status: ApiErrorStatus, detail?: string, code?: string): SandboxResponse {
  let data: unknown;
  if (code) {
    data = { code, detail: detail ?? PHRASES[status] };
  } else if (detail !== undefined) {
    data = detail;
  } else {
    data = status === 500 ? null : {};
  }
  return { status, body: { data, message: PHRASES[status] } };
}

/** Ends the current request with an API error. */
export function fail(status: ApiErrorStatus, detail?: string, code?: string): never {
  throw new HttpAnswer(apiError(status, detail, code));
}
