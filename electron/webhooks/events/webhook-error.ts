/**
 * The receiver's failures: a stable code from `shared/errors.ts` plus the HTTP status Kick is answered
 * with. 4xx tells Kick the delivery is wrong (it will not get better by retrying); 5xx (key unavailable,
 * journal failed) asks Kick to retry.
 */
import { AppError, type ErrorValue, type Result, type WebhookErrorCode } from '../../../shared/errors';

/**
 * Codes the receiver answers with. `NotFound` is a request outside the webhook path (tunnel scanners);
 * `Internal` is a bug; the expected 5xx (key unavailable, journal failed, shutting down) have their own codes
 * so the health panel can tell them apart.
 */
export type ReceiverErrorCode = WebhookErrorCode | 'NotFound' | 'Internal';

/** One rejected or failed delivery. The message never contains the body or the signature. */
export class WebhookError extends AppError {
  declare readonly code: ReceiverErrorCode;
  /** The HTTP status the receiver answers with. */
  readonly status: number;

  constructor(
    code: ReceiverErrorCode,
    status: number,
    message: string,
    options: { cause?: unknown; details?: ErrorValue['details'] } = {},
  ) {
    super(code, message, { cause: options.cause, details: { status, ...options.details } });
    this.status = status;
  }
}

/** A step's outcome: the value, or the error to answer with. Steps return these instead of throwing. */
export type Checked<T> = Result<T, WebhookError>;

/** Shorthand for a failed step. */
export function rejectWith(code: ReceiverErrorCode, status: number, message: string): Checked<never> {
  return { ok: false, error: new WebhookError(code, status, message) };
}
