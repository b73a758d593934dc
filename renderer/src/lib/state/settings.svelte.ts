/**
 * Settings: Kick app credentials (the secret is write-only; the panel only learns that one is saved),
 * redirect URL, tunnel, notifications and chat scrollback. Saved through the contract; main pushes the
 * result back on `settings:changed`.
 */
import type { Result } from '../../../../shared/errors';
import type { PanelApi } from '../../../../shared/panel-api';
import type { SettingsView } from '../../../../shared/views';
import { describeError } from '../error-text';

export type NotificationKey = keyof SettingsView['notifications'];

/** The settings view and the drafts of its forms. */
export class SettingsState {
  #api: PanelApi;
  #settings = $state.raw<SettingsView | null>(null);
  #loading = $state(false);
  #error = $state<string | null>(null);
  #saving = $state<string | null>(null);
  #saveError = $state<string | null>(null);
  #savedMessage = $state<string | null>(null);

  /** Drafts, bound to inputs. */
  clientId = $state('');
  clientSecret = $state('');
  redirectUri = $state('');
  tunnel = $state('');
  scrollback = $state<number | null>(1000);

  readonly credentialsError = $derived.by(() => {
    if (!this.clientId.trim()) {
      return 'Client ID: required.';
    }
    if (this.clientId.trim().length > 100) {
      return 'Client ID: at most 100 characters.';
    }
    if (!this.clientSecret) {
      return 'Client secret: required.';
    }
    return this.clientSecret.length > 200 ? 'Client secret: at most 200 characters.' : null;
  });
  /** The streamer has typed into the credentials form. */
  readonly credentialsDirty = $derived(
    this.clientSecret !== '' || this.clientId.trim() !== (this.#settings?.clientId ?? ''),
  );
  readonly connectionError = $derived.by(() => {
    if (!/^http:\/\/[^\s]+$/.test(this.redirectUri.trim()) || this.redirectUri.trim().length > 200) {
      return 'Redirect URL: an http:// address on this computer, such as http://127.0.0.1:53682/callback.';
    }
    const t = this.tunnel.trim();
    return t.length < 2 || t.length > 300 ? 'Tunnel: "localtunnel", "off" or a public URL.' : null;
  });
  readonly scrollbackError = $derived(
    this.scrollback === null || !Number.isInteger(this.scrollback) || this.scrollback < 100 || this.scrollback > 10_000
      ? 'Scrollback: a whole number from 100 to 10000.'
      : null,
  );
  /** Real Kick needs the streamer's own developer app before anything works. */
  readonly needsCredentials = $derived(
    !!this.#settings && (!this.#settings.clientId || !this.#settings.hasClientSecret),
  );

  constructor(api: PanelApi) {
    this.#api = api;
  }

  get settings(): SettingsView | null {
    return this.#settings;
  }
  get loading(): boolean {
    return this.#loading;
  }
  get error(): string | null {
    return this.#error;
  }
  /** Which form is saving. */
  get saving(): string | null {
    return this.#saving;
  }
  get saveError(): string | null {
    return this.#saveError;
  }
  get savedMessage(): string | null {
    return this.#savedMessage;
  }

  /** A new view from main; drafts follow unless the streamer is typing in them. */
  apply(settings: SettingsView, resetDrafts = true): void {
    this.#settings = settings;
    if (resetDrafts) {
      this.clientId = settings.clientId;
      this.redirectUri = settings.redirectUri;
      this.tunnel = settings.tunnel;
      this.scrollback = settings.chatScrollback;
    }
  }

  async load(): Promise<void> {
    this.#loading = true;
    this.#error = null;
    const result = await this.#api.settings.get();
    this.#loading = false;
    if (!result.ok) {
      this.#error = describeError(result.error);
      return;
    }
    this.apply(result.value);
  }

  async saveCredentials(): Promise<boolean> {
    if (this.credentialsError) {
      return false;
    }
    const ok = await this.#save('credentials', 'Credentials saved.', () =>
      this.#api.settings.setCredentials({ clientId: this.clientId.trim(), clientSecret: this.clientSecret }),
    );
    if (ok) {
      this.clientSecret = '';
    }
    return ok;
  }

  saveConnection(): Promise<boolean> {
    if (this.connectionError) {
      return Promise.resolve(false);
    }
    return this.#save('connection', 'Connection settings saved.', () =>
      this.#api.settings.update({ redirectUri: this.redirectUri.trim(), tunnel: this.tunnel.trim() }),
    );
  }

  saveScrollback(): Promise<boolean> {
    if (this.scrollbackError || this.scrollback === null) {
      return Promise.resolve(false);
    }
    const chatScrollback = this.scrollback;
    return this.#save('chat', 'Chat settings saved.', () => this.#api.settings.update({ chatScrollback }));
  }

  setNotification(key: NotificationKey, on: boolean): Promise<boolean> {
    return this.#save('notifications', 'Notifications saved.', () =>
      this.#api.settings.update({ notifications: { [key]: on } }),
    );
  }

  reset(): void {
    this.#settings = null;
    this.#loading = false;
    this.#error = null;
    this.#saving = null;
    this.#saveError = null;
    this.#savedMessage = null;
    this.clientId = '';
    this.clientSecret = '';
    this.redirectUri = '';
    this.tunnel = '';
    this.scrollback = 1000;
  }

  async #save(form: string, done: string, call: () => Promise<Result<SettingsView>>): Promise<boolean> {
    this.#saving = form;
    this.#saveError = null;
    this.#savedMessage = null;
    const result = await call();
    this.#saving = null;
    if (!result.ok) {
      this.#saveError = describeError(result.error);
      return false;
    }
    this.apply(result.value);
    this.#savedMessage = done;
    return true;
  }
}
