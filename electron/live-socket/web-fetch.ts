/**
 * The HTTP the live connection needs from Kick's website (discovery, the Centrifugo token, the id lookup): a
 * subset of `fetch`, injected so tests script every answer. Each call carries a time limit.
 */
import type { Result } from '../../shared/errors';

export interface WebResponse {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export type WebFetch = (
  url: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string; signal?: AbortSignal },
) => Promise<WebResponse>;

/** How long one web call may take before it counts as no answer. */
export const WEB_TIMEOUT_MS = 10_000;
/**
 * The longest answer read, in characters: Kick's answers here are a few kilobytes. A larger one (said by its
 * length, or found on reading) is no answer, so a broken or hostile host cannot make main hold and parse megabytes.
 */
export const WEB_ANSWER_MAX_CHARS = 1_000_000;

/** Calls `url` and reads a JSON body; the reason as the error on any failure (never throws). */
export async function fetchJson(
  fetch: WebFetch,
  url: string,
  init: { method: 'GET' | 'POST'; body?: unknown },
): Promise<Result<{ status: number; body: unknown }, string>> {
  try {
    const response = await fetch(url, {
      method: init.method,
      headers: {
        accept: 'application/json',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(WEB_TIMEOUT_MS),
    });
    const tooLarge = {
      ok: false,
      error: `the answer is over ${WEB_ANSWER_MAX_CHARS.toLocaleString('en-US')} characters`,
    } as const;
    if (Number(response.headers.get('content-length') ?? 0) > WEB_ANSWER_MAX_CHARS * 4) {
      return tooLarge;
    }
    const text = await response.text();
    if (text.length > WEB_ANSWER_MAX_CHARS) {
      return tooLarge;
    }
    if (response.status < 200 || response.status > 299) {
      const challenge = response.headers.get('cf-mitigated') !== null || /<html/i.test(text.slice(0, 200));
      return { ok: false, error: `HTTP ${response.status}${challenge ? ' (a browser check, not Kick)' : ''}` };
    }
    try {
      return { ok: true, value: { status: response.status, body: JSON.parse(text) } };
    } catch {
      return { ok: false, error: 'the answer is not JSON' };
    }
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
