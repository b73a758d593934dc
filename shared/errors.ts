/**
 * One error family for the whole product. `code` is stable and is what code branches on (never message
 * text); it crosses IPC and the panel WebSocket as a plain value.
 */

/** Failures of Kick API calls: one per HTTP outcome class, plus our own pre-send checks. */
export const API_ERROR_CODES = [
  'BadRequest',
  'Unauthorized',
  'Forbidden',
  'MissingScope',
  'NotFound',
  'Conflict',
  'Ratelimited',
  'ServerError',
  'Network',
  'Timeout',
  'Validation',
  'UnexpectedAnswer',
] as const;

/** Sign-in and token lifecycle failures. */
export const AUTH_ERROR_CODES = [
  'AuthCancelled',
  'AuthTimedOut',
  'AuthDenied',
  'AuthStateMismatch',
  'AuthCallbackInvalid',
  'AuthPortInUse',
  'NotSignedIn',
  'RefreshRejected',
  'NotConfigured',
  'SecretStoreUnavailable',
] as const;

/** Webhook receiver rejections (answered 4xx, logged, counted). */
export const WEBHOOK_ERROR_CODES = [
  'WebhookMethod',
  'WebhookContentType',
  'WebhookHeaders',
  'WebhookTooLarge',
  'WebhookSignature',
  'WebhookStale',
  'WebhookBody',
  /** Kick's public key could not be fetched: answered 503 so Kick retries. */
  'WebhookKeyUnavailable',
  /** The journal append failed: answered 500 so Kick retries; nothing was acknowledged. */
  'WebhookJournal',
  /** The receiver is shutting down: answered 503 so Kick retries against the next run. */
  'WebhookShuttingDown',
  /** Headers or body not complete in time, or cut to keep a tunnel socket free: answered 408. */
  'WebhookSlow',
  /** Not yet known whether the delivery's subscription is Greenroom's (start-up): answered 503 so Kick retries. */
  'WebhookNotReady',
] as const;

/**
 * Panel contract failures (bad argument, unknown channel, foreign sender), anything unforeseen, and the
 * panel's own link to Greenroom: `AppUnreachable` (the panel is cut off from the app: it is not running, or
 * the socket dropped) and `AppTimeout` (the app did not answer), so neither is ever worded as Kick's fault.
 * `HistoryUnavailable`: the stream history does not run here (no `node:sqlite`, or its store could not open).
 */
export const CONTRACT_ERROR_CODES = [
  'InvalidArgument',
  'UnknownChannel',
  'ForbiddenSender',
  'Internal',
  'AppUnreachable',
  'AppTimeout',
  'HistoryUnavailable',
] as const;

/**
 * OBS, over its websocket (docs/obs.md#connection-states): not set up or not connected now, refused the
 * password, or refused one request (`details.obsCode` is OBS's own status code). Never worded as Kick's fault.
 */
export const OBS_ERROR_CODES = ['ObsNotConnected', 'ObsWrongPassword', 'ObsRequestFailed'] as const;

export type ApiErrorCode = (typeof API_ERROR_CODES)[number];
export type AuthErrorCode = (typeof AUTH_ERROR_CODES)[number];
export type WebhookErrorCode = (typeof WEBHOOK_ERROR_CODES)[number];
export type ContractErrorCode = (typeof CONTRACT_ERROR_CODES)[number];
export type ObsErrorCode = (typeof OBS_ERROR_CODES)[number];
export type ErrorCode = ApiErrorCode | AuthErrorCode | WebhookErrorCode | ContractErrorCode | ObsErrorCode;

/** What crosses a process boundary: plain data, no stack, no cause chain. */
export interface ErrorValue {
  code: ErrorCode;
  message: string;
  /** Extra facts the UI can use: the field and limit of a Validation error, the missing scope, the HTTP status. */
  details?: Record<string, string | number | boolean | null | string[]>;
}

/**
 * The one result shape, inside main and across the contract: the value, or the error. Inside a module the error
 * may be its own kind (a reason string, a `WebhookError`), never another key than `error`
 * ([code style](../docs/code-style.md#errors)).
 */
export type Result<T, E = ErrorValue> = { ok: true; value: T } | { ok: false; error: E };

export function okResult<T>(value: T): Result<T, never> {
  return { ok: true, value };
}

export function errResult<T = never, E = ErrorValue>(error: E): Result<T, E> {
  return { ok: false, error };
}

/** Base class of every expected failure in main. `name` comes from the subclass. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorValue['details'];

  constructor(code: ErrorCode, message: string, options: { cause?: unknown; details?: ErrorValue['details'] } = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details;
  }

  toValue(): ErrorValue {
    return this.details
      ? { code: this.code, message: this.message, details: this.details }
      : { code: this.code, message: this.message };
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
