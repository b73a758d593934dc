import type { Handler, SandboxRequest, SandboxResponse } from './types';

interface Route {
  method: string;
  segments: string[];
  handler: Handler;
}

export interface RouteMatch {
  handler: Handler;
  params: Record<string, string>;
}

/** What to answer when no route matches; each host shapes its own 404/405 (API envelope vs OAuth error). */
export interface FallbackResponses {
  notFound: (req: SandboxRequest) => SandboxResponse;
  methodNotAllowed: (req: SandboxRequest, allowed: string[]) => SandboxResponse;
}

/** A minimal method + path router with `:param` segments. Exact segment matches win over params. */
export class Router {
  readonly #routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler): this {
    this.#routes.push({ method: method.toUpperCase(), segments: splitPath(pattern), handler });
    // Literal segments sort before params so `/rewards/redemptions` beats `/rewards/:id`.
    this.#routes.sort((a, b) => specificity(b.segments) - specificity(a.segments));
    return this;
  }

  get(pattern: string, handler: Handler): this {
    return this.add('GET', pattern, handler);
  }
  post(pattern: string, handler: Handler): this {
    return this.add('POST', pattern, handler);
  }
  patch(pattern: string, handler: Handler): this {
    return this.add('PATCH', pattern, handler);
  }
  delete(pattern: string, handler: Handler): this {
    return this.add('DELETE', pattern, handler);
  }

  /** The handler for this request, or the methods the path allows (empty when the path is unknown). */
  match(method: string, path: string): RouteMatch | { allowed: string[] } {
    const parts = splitPath(path);
    const allowed: string[] = [];
    for (const route of this.#routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) {
        continue;
      }
      if (route.method === method.toUpperCase()) {
        return { handler: route.handler, params };
      }
      allowed.push(route.method);
    }
    return { allowed: [...new Set(allowed)] };
  }
}

function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

function specificity(segments: string[]): number {
  return segments.reduce((n, s, i) => n + (s.startsWith(':') ? 0 : 2 ** (16 - i)), 0);
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | null {
  if (pattern.length !== parts.length) {
    return null;
  }
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    const v = parts[i]!;
    if (p.startsWith(':')) {
      try {
        params[p.slice(1)] = decodeURIComponent(v);
      } catch {
        return null;
      }
    } else if (p !== v) {
      return null;
    }
  }
  return params;
}
