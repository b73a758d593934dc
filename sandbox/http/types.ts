import type { IncomingHttpHeaders } from 'node:http';

/** A request as sandbox handlers see it: the body already read (with a cap) but not parsed. */
export interface SandboxRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The query string exactly as sent (without `?`), for code that must see the raw bytes. */
  rawQuery: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  /** Path parameters from the route pattern (`/rewards/:id` → `{ id }`). */
  params: Record<string, string>;
}

export interface SandboxResponse {
  status: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string or Buffer as-is. Undefined sends no body. */
  body?: unknown;
  /**
   * A successful answer that changed nothing worth saving (an introspection, revoking an unknown token):
   * the saved world is not rewritten for it (index.ts counts the changes).
   */
  changesNothing?: boolean;
}

export type Handler = (req: SandboxRequest) => SandboxResponse | Promise<SandboxResponse>;

/**
 * Thrown anywhere inside a handler to answer with this response. Lets validation deep in a handler end
 * the request with Kick's exact error shape without threading return values.
 */
export class HttpAnswer extends Error {
  readonly response: SandboxResponse;
  constructor(response: SandboxResponse) {
    super(`HTTP ${response.status}`);
    this.name = 'HttpAnswer';
    this.response = response;
  }
}
