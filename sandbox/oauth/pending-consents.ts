/**
 * Authorization requests waiting on the consent page. The page's form carries only an opaque id; the
 * validated request stays here on the server, so nothing the browser posts back can change the client,
 * redirect URI, scopes or challenge.
 */
import { createOpaqueToken } from '../../electron/core/ids';
import type { SandboxState } from '../state';
import type { AuthorizeRequest } from './authorize-request';

interface Pending {
  request: AuthorizeRequest;
  expiresAtMs: number;
}

/** The consent requests of one sandbox, keyed by the opaque id the page's form carries. */
export class PendingConsents {
  readonly #items = new Map<string, Pending>();
  readonly #state: SandboxState;

  constructor(state: SandboxState) {
    this.#state = state;
  }

  /**
   * Stores a request and returns its id. It lives as long as an authorization code would
   * (`lifetimes.codeSeconds`): both stand for the same not-yet-finished sign-in.
   */
  add(request: AuthorizeRequest): string {
    this.#prune();
    const id = createOpaqueToken();
    this.#items.set(id, { request, expiresAtMs: this.#state.now() + this.#state.lifetimes.codeSeconds * 1000 });
    return id;
  }

  /** The live request with this id, or undefined when unknown, already decided or expired. */
  get(id: string): AuthorizeRequest | undefined {
    const item = this.#items.get(id);
    if (!item) {
      return undefined;
    }
    if (item.expiresAtMs <= this.#state.now()) {
      this.#items.delete(id);
      return undefined;
    }
    return item.request;
  }

  /** Forgets a request once it has been decided, so its form cannot be submitted twice. */
  delete(id: string): void {
    this.#items.delete(id);
  }

  #prune(): void {
    const now = this.#state.now();
    for (const [id, item] of this.#items) {
      if (item.expiresAtMs <= now) {
        this.#items.delete(id);
      }
    }
  }
}
