/**
 * Reading `application/x-www-form-urlencoded` parameters for id.kick.com, which takes forms rather than
 * JSON ([reference §1](../../docs/kick-wire-reference.md#1-hosts-and-general-conventions) "Request body type"). Repeated parameters are refused as RFC 6749 §3.1 requires.
 */
import type { SandboxRequest } from '../http/types';
import { oauthFail } from './oauth-errors';

const FORM_TYPE = 'application/x-www-form-urlencoded';

/** Whether the request declares a form body (parameters such as `charset` are allowed). */
export function hasFormContentType(req: SandboxRequest): boolean {
  const type = req.headers['content-type'];
  if (typeof type !== 'string') {
    return false;
  }
  return type.split(';')[0]!.trim().toLowerCase() === FORM_TYPE;
}

/** The form body's parameters; answers 400 unless the request is declared form-urlencoded. */
export function readFormBody(req: SandboxRequest): URLSearchParams {
  if (!hasFormContentType(req)) {
    oauthFail(`request body: Content-Type must be ${FORM_TYPE}`);
  }
  return new URLSearchParams(req.rawBody.toString('utf8'));
}

/**
 * One parameter's value: undefined when absent or empty (OAuth treats an empty value as omitted,
 * RFC 6749 §3.1), 400 when it is sent more than once.
 */
export function singleParam(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) {
    oauthFail(`${name}: must not be sent more than once`);
  }
  const value = values[0];
  return value === undefined || value === '' ? undefined : value;
}

/** A parameter that must be present, or 400 naming it. */
export function requiredParam(params: URLSearchParams, name: string): string {
  const value = singleParam(params, name);
  if (value === undefined) {
    oauthFail(`${name}: is required`);
  }
  return value;
}
