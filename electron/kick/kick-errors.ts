/**
 * The API client's errors: each carries the operation, the HTTP status and Kick's own message and code
 * when Kick sent them, so the panel can explain a failure without guessing.
 */
import { type ApiErrorCode, AppError, type AuthErrorCode } from '../../shared/errors';

export interface KickApiErrorInit {
  operation: string;
  status?: number;
  kickMessage?: string;
  kickCode?: string;
  cause?: unknown;
  details?: Record<string, string | number | boolean | null | string[]>;
}

export class KickApiError extends AppError {
  readonly operation: string;
  readonly status: number | undefined;
  readonly kickMessage: string | undefined;
  readonly kickCode: string | undefined;

  constructor(code: ApiErrorCode, message: string, init: KickApiErrorInit) {
    const details: Record<string, string | number | boolean | null | string[]> = {
      operation: init.operation,
      ...init.details,
    };
    if (init.status !== undefined) {
      details.status = init.status;
    }
    if (init.kickMessage !== undefined) {
      details.kickMessage = init.kickMessage;
    }
    if (init.kickCode !== undefined) {
      details.kickCode = init.kickCode;
    }
    super(code, message, { cause: init.cause, details });
    this.operation = init.operation;
    this.status = init.status;
    this.kickMessage = init.kickMessage;
    this.kickCode = init.kickCode;
  }
}

/** A request that breaks one of Kick's documented limits; raised before anything is sent. */
export class ValidationError extends KickApiError {
  readonly field: string;
  readonly limit: string;

  constructor(operation: string, field: string, limit: string) {
    super('Validation', `${field}: ${limit}`, { operation, details: { field, limit } });
    this.field = field;
    this.limit = limit;
  }
}

/** Sign-in and token lifecycle failures (cancelled, timed out, denied, refresh rejected, ...). */
export class AuthError extends AppError {
  constructor(
    code: AuthErrorCode,
    message: string,
    options: { cause?: unknown; details?: Record<string, string | number | boolean | null | string[]> } = {},
  ) {
    super(code, message, options);
  }
}

/** Maps an HTTP status to the error family's code ([reference §6](../../docs/kick-wire-reference.md#6-errors-and-rate-limits)). */
export function codeForStatus(status: number): ApiErrorCode {
  if (status === 400 || status === 422) {
    return 'BadRequest';
  }
  if (status === 401) {
    return 'Unauthorized';
  }
  if (status === 403) {
    return 'Forbidden';
  }
  if (status === 404) {
    return 'NotFound';
  }
  if (status === 409) {
    return 'Conflict';
  }
  if (status === 429) {
    return 'Ratelimited';
  }
  if (status >= 500) {
    return 'ServerError';
  }
  return 'BadRequest';
}

/**
 * Reads Kick's error body: `{data, message}` from the API (data a detail string, `{}`, null, or
 * `{code, detail}`), `{error, error_description}` from id.kick.com, or anything else (Cloudflare HTML).
 */
export function parseKickErrorBody(body: unknown): { message?: string; code?: string; detail?: string } {
  if (typeof body !== 'object' || body === null) {
    return {};
  }
  const record = body as Record<string, unknown>;
  const out: { message?: string; code?: string; detail?: string } = {};
  if (typeof record.message === 'string') {
    out.message = record.message;
  }
  if (typeof record.error === 'string') {
    out.message = record.error;
  }
  if (typeof record.error_description === 'string') {
    out.detail = record.error_description;
  }
  const data = record.data;
  if (typeof data === 'string' && data.length > 0) {
    out.detail = data;
  }
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
    const d = data as Record<string, unknown>;
    if (typeof d.code === 'string') {
      out.code = d.code;
    }
    if (typeof d.detail === 'string') {
      out.detail = d.detail;
    }
    if (typeof d.message === 'string' && !out.detail) {
      out.detail = d.message;
    }
  }
  if (typeof record.code === 'string') {
    out.code = record.code;
  }
  return out;
}
