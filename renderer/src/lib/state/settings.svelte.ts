/**
 * Settings: Kick app credentials (the secret is write-only; the panel only learns that one is saved),
 * redirect URL, tunnel, the events to receive, notifications and chat scrollback. Saved through the
 * contract; main pushes the result back on `settings:changed`. Settings the app is built from apply at once:
 * main rebuilds it in place and says so on `app:restarted` ({@link SettingsState.noteRestarted}); when it
 * cannot, the view's `notApplied` says why and {@link SettingsState.restart} ("Restart now") tries again.
 *
 * A failure keeps its error code, so it goes when its cause is gone, as every held error does
 * (held-error.svelte.ts): one from the link to the app on the reconnect, one for want of a sign-in on the
 * sign-in. A refusal at a field is still true after either; it stays until that field is edited.
 */
import type { ChatToolsSettings } from '../../../../shared/chat-tools';
import type { Result } from '../../../../shared/errors';
import { KICK_EVENT_TYPES, type KickEventType } from '../../../../shared/kick/scopes';
import { HISTORY_CHAT_DAYS_DEFAULT, HISTORY_CHAT_DAYS_MAX, HISTORY_CHAT_DAYS_MIN } from '../../../../shared/history';
import { DEFAULT_LATE_AFTER_SEC, LATE_AFTER_MAX_SEC, LATE_AFTER_MIN_SEC } from '../../../../shared/late-events';
import { redirectUriProblem } from '../../../../shared/loopback-redirect';
import type { PanelApi } from '../../../../shared/panel-api';
import type { NotAppliedView, SettingsView } from '../../../../shared/views';
import { describeError, type ShownError } from '../error-text';
import { formatCount } from '../format';
import { FieldErrors, saveFailure, saveRefusal } from '../field-errors';
import { HeldError, type GoneCause } from './held-error.svelte';

export type NotificationKey = keyof SettingsView['notifications'];

/** Every event type Kick can deliver, named as the streamer knows it, in the order the form lists them. */
export const EVENT_LABELS: Record<KickEventType, string> = {
  'chat.message.sent': 'Chat messages',
  'channel.followed': 'New followers',
  'channel.subscription.new': 'New subscriptions',
  'channel.subscription.renewal': 'Subscription renewals',
  'channel.subscription.gifts': 'Gifted subscriptions',
  'kicks.gifted': 'KICKs gifted',
  'channel.reward.redemption.updated': 'Channel point redemptions',
  'livestream.status.updated': 'Going live and offline',
  'livestream.metadata.updated': 'Title and category changes',
  'moderation.banned': 'Bans and timeouts',
};

/** Each form as the top line names it when its save fails. */
const FORM_NAMES: Record<string, string> = {
  credentials: 'the Kick app credentials',
  connection: 'the redirect URL and tunnel',
  events: 'the events to receive',
  chat: 'the chat length',
  history: 'how long chat lines are kept',
  'chat-tools': 'the chat tools',
  notifications: 'the notification choice',
  'live-socket': "Kick's live chat connection",
};

const NO_FIELDS = new FieldErrors([]);

const known = (types: readonly string[]): KickEventType[] => KICK_EVENT_TYPES.filter((type) => types.includes(type));

/** The settings view and the drafts of its forms. */
export class SettingsState {
  #api: PanelApi;
  #settings = $state.raw<SettingsView | null>(null);
  #loading = $state(false);
  #error = new HeldError();
  #saving = $state<string | null>(null);
  #saveError = new HeldError();
  /** The fields main refused on the last save, and which form it was; marked beside each field. */
  #refused = $state.raw<{ form: string; fields: FieldErrors } | null>(null);
  /** The redirect URL the last connection save sent: main's refusal of it shows until the streamer edits it. */
  #sentRedirect = $state<string | null>(null);
  #savedMessage = $state<string | null>(null);
  #restartMessage = $state<string | null>(null);
  #restarting = $state(false);
  /** The view the drafts were last filled from: a draft still equal to it is one the streamer has not typed in. */
  #draftsFrom: SettingsView | null = null;

  /** Drafts, bound to inputs. */
  clientId = $state('');
  clientSecret = $state('');
  redirectUri = $state('');
  tunnel = $state('');
  scrollback = $state<number | null>(1000);
  /** Seconds after which an event is late (docs/design-notes.md#late-events). */
  lateAfter = $state<number | null>(DEFAULT_LATE_AFTER_SEC);
  /** Days the stream history keeps each chat line (docs/settings.md#stream-history). */
  chatDays = $state<number | null>(HISTORY_CHAT_DAYS_DEFAULT);
  wantedEvents = $state<KickEventType[]>([]);

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
  /** Each credentials field's reason, beside it: typed now, or main's refusal of the last Save. */
  readonly clientIdError = $derived.by(() => {
    const id = this.clientId.trim();
    return id === ''
      ? "Required: copy it from your app in Kick's developer settings."
      : id.length > 100
        ? `At most 100 characters (this one has ${id.length}).`
        : this.fieldError('credentials', 'clientId');
  });
  readonly clientSecretError = $derived(
    this.clientSecret.length > 200
      ? `At most 200 characters (this one has ${this.clientSecret.length}).`
      : this.fieldError('credentials', 'clientSecret'),
  );
  /** The streamer has typed into the credentials form. */
  readonly credentialsDirty = $derived(
    this.clientSecret !== '' || this.clientId.trim() !== (this.#settings?.clientId ?? ''),
  );
  /** Why the Redirect field cannot be saved, beside it: typed now, or main's answer to the last Save. */
  readonly redirectError = $derived(
    redirectUriProblem(this.redirectUri) ??
      (this.redirectUri.trim() === this.#sentRedirect ? this.fieldError('connection', 'redirectUri') : null),
  );
  readonly tunnelError = $derived.by(() => {
    const t = this.tunnel.trim();
    return t.length < 2 || t.length > 300
      ? 'Write "localtunnel", "off" or a public https URL you route to Greenroom.'
      : this.fieldError('connection', 'tunnel');
  });
  /** The connection form cannot be saved as typed (a main refusal is shown, but Save may try again). */
  readonly connectionError = $derived(
    redirectUriProblem(this.redirectUri) !== null || this.tunnel.trim().length < 2 || this.tunnel.trim().length > 300,
  );
  readonly eventsError = $derived(
    this.wantedEvents.length === 0 ? 'Events: choose at least one, or nothing reaches Greenroom.' : null,
  );
  readonly scrollbackError = $derived(
    this.scrollback === null || !Number.isInteger(this.scrollback) || this.scrollback < 100 || this.scrollback > 10_000
      ? 'Scrollback: a whole number from 100 to 10000.'
      : null,
  );
  readonly lateAfterError = $derived(
    this.lateAfter === null ||
      !Number.isInteger(this.lateAfter) ||
      this.lateAfter < LATE_AFTER_MIN_SEC ||
      this.lateAfter > LATE_AFTER_MAX_SEC
      ? `Late after: a whole number of seconds from ${LATE_AFTER_MIN_SEC} to ${LATE_AFTER_MAX_SEC} (1 hour).`
      : null,
  );
  /** Beside the field: typed out of bounds, or main's refusal of the last Save; both name the limit. */
  readonly chatDaysError = $derived(
    this.chatDays === null ||
      !Number.isInteger(this.chatDays) ||
      this.chatDays < HISTORY_CHAT_DAYS_MIN ||
      this.chatDays > HISTORY_CHAT_DAYS_MAX
      ? `Keep chat lines: a whole number of days from ${HISTORY_CHAT_DAYS_MIN} to ${formatCount(HISTORY_CHAT_DAYS_MAX)} (100 years).`
      : this.fieldError('history', 'history'),
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
    return this.#error.shown?.text ?? null;
  }
  /** Which form is saving. */
  get saving(): string | null {
    return this.#saving;
  }
  /** Why the last save failed, for the top of the page: what was not saved, plain; main's words in Details. */
  get saveError(): ShownError | null {
    return this.#saveError.shown;
  }
  /** A load or save error whose cause `cause` ended goes; a field's refusal stays (held-error.svelte.ts). */
  clearIfEnded(cause: GoneCause): void {
    this.#error.clearIfEnded(cause);
    this.#saveError.clearIfEnded(cause);
  }
  /** Main's reason for refusing `path` (`redirectUri`, `chatTools.highlights.2`) on `form`'s last save. */
  fieldError(form: string, path: string): string | null {
    return this.#refused?.form === form ? this.#refused.fields.at(path) : null;
  }
  get savedMessage(): string | null {
    return this.#savedMessage;
  }
  /** What main says is in effect after it rebuilt the app for saved settings. */
  get restartMessage(): string | null {
    return this.#restartMessage;
  }
  /** Why the saved settings are not in effect ("Restart now" is offered), or null. */
  get notApplied(): NotAppliedView | null {
    return this.#settings?.notApplied ?? null;
  }
  get restarting(): boolean {
    return this.#restarting;
  }

  /**
   * A new view from main. With `resetDrafts`, each draft the streamer has not changed follows it; one they
   * typed is kept (a reconnect reads the settings again, and must not drop an edit or the refusal beside it).
   */
  apply(settings: SettingsView, resetDrafts = true): void {
    this.#settings = settings;
    if (!resetDrafts) {
      return;
    }
    const was = this.#draftsFrom;
    this.#draftsFrom = settings;
    const clean = <T>(draft: T, saved: T | undefined): boolean => was === null || draft === saved;
    if (clean(this.clientId, was?.clientId)) {
      this.clientId = settings.clientId;
    }
    if (clean(this.redirectUri, was?.redirectUri)) {
      this.redirectUri = settings.redirectUri;
    }
    if (clean(this.tunnel, was?.tunnel)) {
      this.tunnel = settings.tunnel;
    }
    if (clean(this.scrollback, was?.chatScrollback)) {
      this.scrollback = settings.chatScrollback;
    }
    if (settings.lateAfterSec !== undefined && clean(this.lateAfter, was?.lateAfterSec)) {
      this.lateAfter = settings.lateAfterSec;
    }
    if (settings.history !== undefined && clean(this.chatDays, was?.history?.chatDays)) {
      this.chatDays = settings.history.chatDays;
    }
    if (clean(this.wantedEvents.join(), was && known(was.wantedEvents).join())) {
      this.wantedEvents = known(settings.wantedEvents);
    }
  }

  async load(): Promise<void> {
    this.#loading = true;
    this.#error.clear();
    const result = await this.#api.settings.get();
    this.#loading = false;
    if (!result.ok) {
      this.#error.fail(result.error);
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
    const redirectUri = this.redirectUri.trim();
    this.#sentRedirect = redirectUri;
    return this.#save('connection', 'Connection settings saved.', () =>
      this.#api.settings.update({ redirectUri, tunnel: this.tunnel.trim() }),
    );
  }

  /** Ticks or unticks one event type in the draft. */
  setEvent(type: KickEventType, on: boolean): void {
    const others = this.wantedEvents.filter((t) => t !== type);
    this.wantedEvents = known(on ? [...others, type] : others);
  }

  saveEvents(): Promise<boolean> {
    if (this.eventsError) {
      return Promise.resolve(false);
    }
    const wantedEvents = [...this.wantedEvents];
    return this.#save('events', 'Events saved.', () => this.#api.settings.update({ wantedEvents }));
  }

  /** The setup guide was finished or closed: it no longer opens by itself. */
  async markSetupGuideDone(): Promise<void> {
    if (this.#settings?.setupGuideDone) {
      return;
    }
    const result = await this.#api.settings.update({ setupGuideDone: true });
    if (result.ok) {
      this.apply(result.value, false);
    }
  }

  /**
   * The success lines answer one save or one rebuild: they go when the view that shows them is left
   * ([Success lines](../../../../docs/design-notes.md#success-lines)), so none stays to describe a state
   * that has changed since.
   */
  dismissSuccess(): void {
    this.#restartMessage = null;
    this.#savedMessage = null;
  }

  /** `app:restarted`: main rebuilt the app; the panel reloads and shows this line. */
  noteRestarted(message: string): void {
    this.#restartMessage = message;
    this.#savedMessage = null;
  }

  /** "Restart now": main builds the app again from the saved settings, in its own process. */
  async restart(): Promise<boolean> {
    this.#restarting = true;
    this.#saveError.clear();
    const result = await this.#api.app.restart();
    this.#restarting = false;
    if (!result.ok) {
      this.#saveError.fail(result.error, { text: describeError(result.error), detail: null });
      return false;
    }
    return true;
  }

  saveScrollback(): Promise<boolean> {
    if (this.scrollbackError || this.scrollback === null || this.lateAfterError || this.lateAfter === null) {
      return Promise.resolve(false);
    }
    const chatScrollback = this.scrollback;
    // An older main has no late age and would refuse the field.
    const late = this.#settings?.lateAfterSec !== undefined ? { lateAfterSec: this.lateAfter } : {};
    return this.#save('chat', 'Chat settings saved.', () => this.#api.settings.update({ chatScrollback, ...late }));
  }

  /** How long the stream history keeps chat lines; refused here out of bounds, and nothing is sent. */
  saveChatDays(): Promise<boolean> {
    const chatDays = this.chatDays;
    if (
      chatDays === null ||
      !Number.isInteger(chatDays) ||
      chatDays < HISTORY_CHAT_DAYS_MIN ||
      chatDays > HISTORY_CHAT_DAYS_MAX
    ) {
      return Promise.resolve(false);
    }
    return this.#save('history', 'Stream history saved.', () => this.#api.settings.update({ history: { chatDays } }));
  }

  /** Saves the chat reading tools whole (highlights, ignore list, marks); main names a field it refuses. */
  saveChatTools(chatTools: ChatToolsSettings, done = 'Chat tools saved.'): Promise<boolean> {
    return this.#save('chat-tools', done, () => this.#api.settings.update({ chatTools }));
  }

  /** Kick's live chat connection: the switch, or the channel's two ids entered together (docs/settings.md). */
  saveLiveSocket(
    liveSocket: { enabled: boolean } | { channelId: number | null; chatroomId: number | null },
  ): Promise<boolean> {
    return this.#save('live-socket', 'Live chat connection saved.', () => this.#api.settings.update({ liveSocket }));
  }

  setNotification(key: NotificationKey, on: boolean): Promise<boolean> {
    return this.#save('notifications', 'Notifications saved.', () =>
      this.#api.settings.update({ notifications: { [key]: on } }),
    );
  }

  reset(): void {
    this.#settings = null;
    this.#draftsFrom = null;
    this.#loading = false;
    this.#error.clear();
    this.#saving = null;
    this.#saveError.clear();
    this.#refused = null;
    this.#savedMessage = null;
    this.#restartMessage = null;
    this.#restarting = false;
    this.clientId = '';
    this.clientSecret = '';
    this.redirectUri = '';
    this.tunnel = '';
    this.scrollback = 1000;
    this.lateAfter = DEFAULT_LATE_AFTER_SEC;
    this.chatDays = HISTORY_CHAT_DAYS_DEFAULT;
    this.wantedEvents = [];
  }

  async #save(form: string, done: string, call: () => Promise<Result<SettingsView>>): Promise<boolean> {
    this.#saving = form;
    this.#saveError.clear();
    this.#refused = null;
    this.#savedMessage = null;
    this.#restartMessage = null;
    const result = await call();
    this.#saving = null;
    if (!result.ok) {
      // Each form saves alone: the others' saved settings are untouched, and the top says so.
      const what = FORM_NAMES[form] ?? 'these settings';
      const kept = 'Your other settings are unchanged.';
      this.#refused = { form, fields: saveRefusal(result.error, what, kept)?.fields ?? NO_FIELDS };
      this.#saveError.fail(result.error, saveFailure(result.error, what, kept));
      return false;
    }
    this.apply(result.value);
    this.#savedMessage = done;
    return true;
  }
}
