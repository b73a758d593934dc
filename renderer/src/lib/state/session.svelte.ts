/**
 * The session: the start-up snapshot (mode, sandbox notice, dock URL), the signed-in account and sign-in
 * itself. Signing in never blocks the panel ([design notes](../../../../docs/design-notes.md#what-streamers-and-moderators-ask-for) item 3): the banner offers it, one click.
 */
import type { PanelApi } from '../../../../shared/panel-api';
import { KICK_SCOPES, type KickScope } from '../../../../shared/kick/scopes';
import type { AccountView, AppMode, AppSnapshot, StartupNoticeView } from '../../../../shared/views';
import { explainError, type ShownError } from '../error-text';

const SIGNED_OUT: AccountView = {
  signedIn: false,
  accountLabel: null,
  userId: null,
  scopes: [],
  expiresAtMs: null,
  signedOutReason: null,
  signingIn: false,
  signInUrl: null,
};

/** Snapshot, account and the sign-in flow. */
export class SessionState {
  #api: PanelApi;
  #snapshot = $state.raw<AppSnapshot | null>(null);
  #account = $state.raw<AccountView>(SIGNED_OUT);
  #loading = $state(false);
  #error = $state.raw<ShownError | null>(null);
  #loginError = $state.raw<ShownError | null>(null);

  readonly missingScopes: KickScope[] = $derived(KICK_SCOPES.filter((s) => !this.#account.scopes.includes(s)));

  #onSignedIn: () => void;

  /** `onSignedIn`: called each time the account goes from signed out to signed in. */
  constructor(api: PanelApi, onSignedIn: () => void = () => undefined) {
    this.#api = api;
    this.#onSignedIn = onSignedIn;
  }

  get snapshot(): AppSnapshot | null {
    return this.#snapshot;
  }
  get account(): AccountView {
    return this.#account;
  }
  get mode(): AppMode | null {
    return this.#snapshot?.mode ?? null;
  }
  get sandboxNotice(): string | null {
    return this.#snapshot?.sandboxNotice ?? null;
  }
  /** What went wrong with Greenroom's files at this start (shared/views.ts `StartupNoticeView`). */
  get notices(): StartupNoticeView[] {
    return this.#snapshot?.notices ?? [];
  }
  get dockUrl(): string | null {
    return this.#snapshot?.dockUrl ?? null;
  }
  get broadcasterUserId(): number | null {
    return this.#snapshot?.broadcasterUserId ?? this.#account.userId;
  }
  get loading(): boolean {
    return this.#loading;
  }
  get error(): ShownError | null {
    return this.#error;
  }
  get loginError(): ShownError | null {
    return this.#loginError;
  }
  get signedIn(): boolean {
    return this.#account.signedIn;
  }
  get signingIn(): boolean {
    return this.#account.signingIn;
  }

  hasScope(scope: KickScope): boolean {
    return this.#account.scopes.includes(scope);
  }

  /** Loads the start-up snapshot; returns it so the app can hand health and settings on. */
  async load(): Promise<AppSnapshot | null> {
    this.#loading = true;
    this.#error = null;
    const result = await this.#api.app.snapshot();
    this.#loading = false;
    if (!result.ok) {
      this.#error = explainError(result.error);
      return null;
    }
    this.#snapshot = result.value;
    this.#account = result.value.account;
    return result.value;
  }

  /** Opens Kick's sign-in in the system browser and waits; `scopes` adds permissions not yet granted. */
  async signIn(scopes?: KickScope[]): Promise<void> {
    this.#loginError = null;
    this.#account = { ...this.#account, signingIn: true };
    const result = await this.#api.auth.startLogin(scopes ? { scopes } : {});
    if (result.ok) {
      this.#setAccount(result.value);
      return;
    }
    this.#account = { ...this.#account, signingIn: false };
    this.#loginError = result.error.code === 'AuthCancelled' ? null : explainError(result.error);
  }

  /** Signs in again asking for every scope already granted plus `scope`. */
  async addScope(scope: KickScope): Promise<void> {
    const granted = KICK_SCOPES.filter((s) => this.#account.scopes.includes(s));
    await this.signIn([...granted, scope]);
  }

  async cancelSignIn(): Promise<void> {
    await this.#api.auth.cancelLogin();
    this.#account = { ...this.#account, signingIn: false };
  }

  async signOut(): Promise<void> {
    const result = await this.#api.auth.signOut();
    if (!result.ok) {
      this.#loginError = explainError(result.error);
      return;
    }
    this.#account = { ...SIGNED_OUT, signedOutReason: null };
  }

  /** `session:changed` from main. */
  applyAccount(account: AccountView): void {
    this.#setAccount(account);
    if (account.signedIn) {
      this.#loginError = null;
    }
  }

  /** The link to Greenroom came back: a sign-in error from while it was down no longer holds. */
  clearLoginError(): void {
    this.#loginError = null;
  }

  reset(): void {
    this.#snapshot = null;
    this.#account = SIGNED_OUT;
    this.#loading = false;
    this.#error = null;
    this.#loginError = null;
  }

  #setAccount(account: AccountView): void {
    const signedInNow = account.signedIn && !this.#account.signedIn;
    this.#account = account;
    if (signedInNow) {
      this.#onSignedIn();
    }
  }
}
