/**
 * The streamer's account as the panel sees it ({@link AccountView}): signed in or not and why, the Kick
 * username, granted scopes and token expiry, and whether a browser sign-in is under way. The username and
 * user id are fetched once per sign-in (not per token refresh) and cached; the user id is the broadcaster
 * id moderation and the webhook subscriptions act for. Reading them is also how a saved sign-in is checked
 * with Kick at start: Kick refusing it signs out with the reason, and while Kick cannot be reached it is
 * read again, with backoff, until Kick answers ([chat bot](../../docs/chat-bot.md#live-status-comes-from-kick)).
 */
import { backoffDelay } from '../../shared/backoff';
import { AppError, isAppError } from '../../shared/errors';
import type { AccountView } from '../../shared/views';
import type { Kick } from '../kick/create-kick';
import { Listeners } from '../../shared/listeners';
import type { SetTimer } from '../core/scheduler';

/** The parts of the Kick client the account needs. */
export type AccountKick = Pick<Kick, 'signIn' | 'signOut' | 'session' | 'client'>;

interface Identity {
  userId: number;
  name: string;
}

/** A sign-in waiting for the browser, with its authorize link once built. */
interface PendingLogin {
  controller: AbortController;
  done: Promise<unknown>;
  url: string | null;
}

/** The account view, the cached identity, and sign-in/out (one sign-in at a time). */
export class AccountService {
  readonly #kick: AccountKick;
  readonly #log: (line: string) => void;
  readonly #scopes: (() => readonly string[]) | undefined;
  readonly #listeners = new Listeners<[AccountView]>((error) =>
    this.#log(`account: a listener failed: ${describe(error)}`),
  );
  #identity: Identity | null = null;
  #fetching: Promise<Identity | null> | null = null;
  /** Bumped on every sign-in and sign-out, so an identity fetched for an older session is thrown away. */
  #generation = 0;
  #login: PendingLogin | null = null;
  #unsubscribe: (() => void) | null = null;
  #wasSignedIn = false;
  readonly #setTimer: SetTimer | undefined;
  readonly #random: () => number;
  #retry: { cancel(): void } | null = null;
  #failures = 0;

  /**
   * `scopes`: what a sign-in asks for when the panel names none (the settings); the client's default otherwise.
   * `setTimer`: schedules reading the account again after Kick could not be reached (none: read on demand only).
   */
  constructor(deps: {
    kick: AccountKick;
    log: (line: string) => void;
    scopes?: () => readonly string[];
    setTimer?: SetTimer;
    random?: () => number;
  }) {
    this.#kick = deps.kick;
    this.#log = deps.log;
    this.#scopes = deps.scopes;
    this.#setTimer = deps.setTimer;
    this.#random = deps.random ?? Math.random;
  }

  /** Follows the session (restored tokens, refreshes, a rejected refresh) and fetches the identity. */
  start(): void {
    this.#wasSignedIn = this.#kick.session.state().status === 'signed-in';
    this.#unsubscribe ??= this.#kick.session.onChange((state) => {
      const signedIn = state.status === 'signed-in';
      if (signedIn !== this.#wasSignedIn) {
        this.#wasSignedIn = signedIn;
        this.#forgetIdentity();
        if (signedIn && !this.#login) {
          void this.identity();
        }
      }
      this.#emit();
    });
    if (this.#wasSignedIn) {
      void this.identity();
    }
  }

  stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#login?.controller.abort();
    this.#retry?.cancel();
    this.#retry = null;
  }

  view(): AccountView {
    const state = this.#kick.session.state();
    const signedIn = state.status === 'signed-in';
    return {
      signedIn,
      accountLabel: signedIn ? (this.#identity?.name ?? null) : null,
      userId: signedIn ? (this.#identity?.userId ?? null) : null,
      scopes: signedIn ? [...state.scopes] : [],
      expiresAtMs: signedIn ? state.expiresAtMs : null,
      signedOutReason: signedIn ? null : state.reason,
      confirmed: signedIn && this.#identity !== null,
      signingIn: this.#login !== null,
      signInUrl: this.#login?.url ?? null,
    };
  }

  /** The authorize link of the sign-in waiting for the browser, if any (main may open exactly this one). */
  signInUrl(): string | null {
    return this.#login?.url ?? null;
  }

  /** The broadcaster's user id if already known (never fetches). */
  userId(): number | null {
    return this.#identity?.userId ?? null;
  }

  /** The broadcaster's user id, fetched when not yet known; NotSignedIn when signed out. */
  async requireUserId(): Promise<number> {
    const identity = this.#identity ?? (await this.identity(true));
    if (!identity) {
      throw new AppError('NotSignedIn', 'Sign in with Kick first');
    }
    return identity.userId;
  }

  /** Fetches (once per session) who is signed in: the user, or their channel when `user:read` is missing. */
  identity(rethrow = false): Promise<Identity | null> {
    if (this.#kick.session.state().status !== 'signed-in') {
      return Promise.resolve(null);
    }
    if (this.#identity) {
      return Promise.resolve(this.#identity);
    }
    const generation = this.#generation;
    if (!this.#fetching) {
      const fetching: Promise<Identity | null> = this.#fetchIdentity().finally(() => {
        if (this.#fetching === fetching) {
          this.#fetching = null;
        }
      });
      this.#fetching = fetching;
    }
    return this.#fetching.then(
      (identity) => {
        if (identity && generation === this.#generation && !this.#identity) {
          this.#identity = identity;
          this.#failures = 0;
          this.#emit();
        }
        return generation === this.#generation ? identity : null;
      },
      (error: unknown) => {
        this.#log(`account: could not read the signed-in user: ${describe(error)}`);
        this.#readAgainLater(error);
        if (rethrow) {
          throw error;
        }
        return null;
      },
    );
  }

  /** Runs the browser sign-in; resolves with the new view (or rejects with the AuthError). */
  async startLogin(options: { scopes?: readonly string[] } = {}): Promise<AccountView> {
    // Only one sign-in listens on the redirect port at a time; a second click replaces the first. With none
    // under way the sign-in starts synchronously, so a cancel right after this call reaches it.
    if (this.#login) {
      await this.cancelLogin();
    }
    const login: PendingLogin = { controller: new AbortController(), done: Promise.resolve(), url: null };
    const done = this.#kick.signIn({
      signal: login.controller.signal,
      scopes: options.scopes ?? this.#scopes?.(),
      // The panel shows the link too: a dock or a browser panel cannot count on main opening a browser.
      onAuthorizeUrl: (url) => {
        login.url = url;
        if (this.#login === login) {
          this.#emit();
        }
      },
    });
    login.done = done.catch(() => undefined);
    this.#login = login;
    this.#emit();
    try {
      await done;
      // A new sign-in may be another account, or the same one with more scopes: read it again.
      this.#forgetIdentity();
      this.#wasSignedIn = true;
    } finally {
      if (this.#login === login) {
        this.#login = null;
      }
      this.#emit();
    }
    await this.identity();
    return this.view();
  }

  /** Cancels a sign-in waiting for the browser; its startLogin rejects with AuthCancelled. */
  async cancelLogin(): Promise<void> {
    const login = this.#login;
    if (!login) {
      return;
    }
    login.controller.abort();
    await login.done;
  }

  async signOut(): Promise<{ revoked: boolean }> {
    await this.cancelLogin();
    const result = await this.#kick.signOut();
    this.#forgetIdentity();
    this.#emit();
    return result;
  }

  onChange(listener: (view: AccountView) => void): () => void {
    return this.#listeners.add(listener);
  }

  async #fetchIdentity(): Promise<Identity | null> {
    try {
      const user = await this.#kick.client.fetchCurrentUser();
      return user ? { userId: user.user_id, name: user.name } : null;
    } catch (error) {
      if (!isAppError(error) || error.code !== 'MissingScope') {
        throw error;
      }
      // Without user:read, the channel (channel:read) still names the broadcaster.
      const channel = await this.#kick.client.fetchChannel();
      return channel ? { userId: channel.broadcaster_user_id, name: channel.slug } : null;
    }
  }

  /**
   * Kick could not be reached (or answered oddly) while the sign-in is still held: read the account again
   * later, so the sign-in is checked and the broadcaster known once Kick answers, without a panel asking.
   */
  #readAgainLater(error: unknown): void {
    const ended = isAppError(error) && (error.code === 'NotSignedIn' || error.code === 'RefreshRejected');
    if (!this.#setTimer || ended || this.#retry || this.#kick.session.state().status !== 'signed-in') {
      return;
    }
    this.#failures += 1;
    const wait = backoffDelay(this.#failures, { initialMs: 2_000, maxMs: 60_000, spread: 0.5 }, this.#random);
    this.#retry = this.#setTimer(() => {
      this.#retry = null;
      void this.identity();
    }, wait);
  }

  #forgetIdentity(): void {
    this.#generation++;
    this.#identity = null;
    this.#fetching = null;
  }

  #emit(): void {
    this.#listeners.emit(this.view());
  }
}

function describe(error: unknown): string {
  return isAppError(error) ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error);
}
