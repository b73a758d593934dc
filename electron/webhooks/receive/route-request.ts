/**
 * The first step of the receiver (pure): from the request line and content type alone, decide whether
 * this is a delivery to read, the tunnel's self-check, or a rejection (404 other path, 405 other method,
 * 415 other content type), before a byte of the body is read.
 */
import { WebhookError } from '../events/webhook-error';

/** What to do with a request. */
export type RouteDecision =
  { kind: 'delivery' } | { kind: 'check'; nonce: string } | { kind: 'reject'; error: WebhookError };

/** The request facts the decision needs. */
export interface RouteInput {
  method: string | undefined;
  /** Path and query as requested. */
  url: string | undefined;
  contentType: string | undefined;
  /** The receiver's path, e.g. `/kick/webhook`. */
  path: string;
}

const DELIVERY: RouteDecision = { kind: 'delivery' };

// The self-check's nonce: URL-safe, short (it is echoed back).
const CHECK_NONCE = /^[A-Za-z0-9._~-]{1,128}$/;

/**
 * POST on the exact path with `application/json` (parameters such as charset allowed) is a delivery;
 * `GET <path>?check=<nonce>` is the self-check; the query string never changes the path match.
 */
export function routeRequest(input: RouteInput): RouteDecision {
  const url = input.url ?? '';
  const query = url.indexOf('?');
  if ((query === -1 ? url : url.slice(0, query)) !== input.path) {
    return { kind: 'reject', error: new WebhookError('NotFound', 404, 'no such path') };
  }
  if (input.method !== 'POST') {
    if (input.method === 'GET' && query !== -1) {
      const nonce = new URLSearchParams(url.slice(query + 1)).get('check');
      if (nonce !== null && CHECK_NONCE.test(nonce)) {
        return { kind: 'check', nonce };
      }
    }
    const error = new WebhookError('WebhookMethod', 405, `method ${input.method ?? '?'} not allowed`);
    return { kind: 'reject', error };
  }
  const mediaType = (input.contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    const error = new WebhookError('WebhookContentType', 415, 'content type must be application/json');
    return { kind: 'reject', error };
  }
  return DELIVERY;
}
