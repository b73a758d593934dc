/**
 * One HTTP POST of one webhook message, bounded by a timeout. Never throws: a refused connection, a
 * timeout or a bad URL is an outcome the engine retries, not an error.
 */
import { type Dispatcher, request } from 'undici';

/** What one attempt produced. */
export interface PostOutcome {
  /** HTTP status, or null when no response arrived. */
  status: number | null;
  /** Why no response arrived (or null when one did). */
  error: string | null;
}

/** One prepared request: headers already signed, body exactly as signed. */
export interface PostWebhookInput {
  dispatcher: Dispatcher;
  url: string;
  headers: Record<string, string>;
  body: Buffer;
  timeoutMs: number;
}

/** Receivers answer with a short acknowledgement; anything beyond this is read and thrown away. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/** Posts the message and reads (and discards) the answer, all within `timeoutMs`. */
export async function postWebhook(input: PostWebhookInput): Promise<PostOutcome> {
  const signal = AbortSignal.timeout(input.timeoutMs);
  try {
    const response = await request(input.url, {
      method: 'POST',
      headers: input.headers,
      body: input.body,
      dispatcher: input.dispatcher,
      signal,
      headersTimeout: input.timeoutMs,
      bodyTimeout: input.timeoutMs,
    });
    // The body is drained so the connection can be reused; its content does not matter ([reference §5.5](../../docs/kick-wire-reference.md#55-expected-response-and-retries)).
    await response.body.dump({ limit: MAX_RESPONSE_BYTES, signal });
    return { status: response.statusCode, error: null };
  } catch (error) {
    return { status: null, error: describeFailure(error, signal, input.timeoutMs) };
  }
}

function describeFailure(error: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) {
    return `timeout after ${timeoutMs} ms`;
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code ?? (error.cause as { code?: unknown } | undefined)?.code;
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      return `timeout after ${timeoutMs} ms`;
    }
    return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
  }
  return String(error);
}
