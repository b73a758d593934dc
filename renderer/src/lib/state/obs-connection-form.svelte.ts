/**
 * The OBS connection form's drafts: on/off, host, port and the password, which is write-only
 * ([connecting to OBS](../../../../docs/obs.md#connecting-to-obs)). The panel never learns the saved password,
 * only that one is kept: left empty, the saved one stays; "Forget" sends an empty one. Each field's reason
 * is beside it, as typed (the contract's own limits, shared/obs.ts) or as main refused it on Save; a failed
 * Save keeps everything typed, and what was saved before still applies.
 */
import {
  OBS_CONNECTION_DEFAULTS,
  obsConnectionSaveSchema,
  type ObsConnectionSave,
  type ObsConnectionSettingsView,
} from '../../../../shared/obs';
import { withoutFieldPrefix } from '../../../../shared/field-refusal';
import type { SettingsView } from '../../../../shared/views';
import type { ShownError } from '../error-text';
import { type FieldErrors, plainReason, saveFailure, saveRefusal } from '../field-errors';
import type { ObsState } from './obs.svelte';

export type ObsField = 'host' | 'port' | 'password';

const WHAT = 'the OBS connection';
const KEPT = 'The connection saved before still applies.';

/** The OBS connection as the settings view carries it, or OBS's defaults before settings are read. */
export function obsSettingsOf(settings: SettingsView | null): ObsConnectionSettingsView {
  return settings?.obs ?? { ...OBS_CONNECTION_DEFAULTS, hasPassword: false };
}

/** `4455` → 4455; anything but digits → NaN, which the contract's own check words. */
function parsePort(text: string): number {
  const t = text.trim();
  return /^\d{1,6}$/.test(t) ? Number(t) : Number.NaN;
}

/** The drafts, their reasons, and Save. */
export class ObsConnectionForm {
  #obs: ObsState;
  #saved = $state.raw<ObsConnectionSettingsView>({ ...OBS_CONNECTION_DEFAULTS, hasPassword: false });
  #saving = $state(false);
  #error = $state.raw<ShownError | null>(null);
  #savedMessage = $state<string | null>(null);
  /** Main's refusal of the last Save, with the drafts it was given: a field's reason goes once it is edited. */
  #refused = $state.raw<{ fields: FieldErrors; sent: Record<ObsField, string> } | null>(null);
  /** The streamer ticked or unticked "Connect to OBS" themselves since the last Save. */
  #enabledChosen = $state(false);
  #autoTicked = $state(false);

  enabled = $state(OBS_CONNECTION_DEFAULTS.enabled);
  host = $state(OBS_CONNECTION_DEFAULTS.host);
  port = $state(String(OBS_CONNECTION_DEFAULTS.port));
  password = $state('');
  /** Send an empty password: OBS asks for none, or the saved one should go. */
  forgetPassword = $state(false);

  /** The drafts as the contract would take them. */
  readonly request: ObsConnectionSave = $derived.by(() => {
    const save: ObsConnectionSave = { enabled: this.enabled, host: this.host.trim(), port: parsePort(this.port) };
    if (this.password !== '') {
      save.password = this.password;
    } else if (this.forgetPassword) {
      save.password = '';
    }
    return save;
  });
  /** Each field's reason as typed, naming the limit (the contract's own check). */
  readonly #typed: Partial<Record<ObsField, string>> = $derived.by(() => {
    const parsed = obsConnectionSaveSchema.safeParse(this.request);
    const found: Partial<Record<ObsField, string>> = {};
    for (const issue of parsed.success ? [] : parsed.error.issues) {
      const field = String(issue.path[0]) as ObsField;
      found[field] ??= plainReason(withoutFieldPrefix(field, issue.message));
    }
    return found;
  });
  readonly hostError: string | null = $derived(this.#fieldError('host'));
  readonly portError: string | null = $derived(this.#fieldError('port'));
  readonly passwordError: string | null = $derived(this.#fieldError('password'));
  readonly invalid: boolean = $derived(Object.keys(this.#typed).length > 0);

  constructor(obs: ObsState) {
    this.#obs = obs;
  }

  get hasPassword(): boolean {
    return this.#saved.hasPassword;
  }
  get saving(): boolean {
    return this.#saving;
  }
  get error(): ShownError | null {
    return this.#error;
  }
  get savedMessage(): string | null {
    return this.#savedMessage;
  }
  /** "Connect to OBS" was ticked for the streamer when they typed the connection in. */
  get autoTicked(): boolean {
    return this.#autoTicked && this.enabled;
  }

  /** The streamer ticks or unticks "Connect to OBS": from then on their choice stands. */
  chooseEnabled(on: boolean): void {
    this.enabled = on;
    this.#enabledChosen = true;
  }

  /**
   * The streamer typed a host, port or password. With the connection not set up yet and the box left as it
   * was, they mean to connect: the box is ticked for them, visibly, rather than Save quietly keeping OBS off
   * ([connecting to OBS](../../../../docs/obs.md#connecting-to-obs)).
   */
  typed(): void {
    if (!this.#saved.enabled && !this.#enabledChosen && !this.enabled) {
      this.enabled = true;
      this.#autoTicked = true;
    }
  }
  /** The streamer has typed something not yet saved. */
  get dirty(): boolean {
    const s = this.#saved;
    return (
      this.enabled !== s.enabled ||
      this.host.trim() !== s.host ||
      parsePort(this.port) !== s.port ||
      this.password !== '' ||
      this.forgetPassword
    );
  }

  /** Follows the saved settings; drafts the streamer has typed in are left as typed. */
  sync(saved: ObsConnectionSettingsView): void {
    const untouched = !this.dirty;
    this.#saved = saved;
    if (untouched) {
      this.enabled = saved.enabled;
      this.host = saved.host;
      this.port = String(saved.port);
    }
  }

  async save(): Promise<boolean> {
    if (this.invalid || this.#saving) {
      return false;
    }
    const request = this.request;
    const sent = { host: this.host, port: this.port, password: this.password };
    this.#saving = true;
    this.#error = null;
    this.#savedMessage = null;
    const result = await this.#obs.saveConnection(request);
    this.#saving = false;
    if (!result.ok) {
      const refusal = saveRefusal(result.error, WHAT, KEPT);
      this.#refused = refusal ? { fields: refusal.fields, sent } : null;
      this.#error = saveFailure(result.error, WHAT, KEPT);
      return false;
    }
    this.#refused = null;
    const wasOn = this.#saved.enabled;
    this.#enabledChosen = false;
    this.#autoTicked = false;
    const forgot = request.password === '';
    this.#saved = {
      enabled: request.enabled,
      host: request.host,
      port: request.port,
      hasPassword: request.password === undefined ? this.#saved.hasPassword : !forgot,
    };
    this.host = request.host;
    this.password = '';
    this.forgetPassword = false;
    this.#savedMessage = request.enabled
      ? 'Saved.'
      : wasOn
        ? 'Saved. Greenroom no longer connects to OBS.'
        : 'Saved. Connect to OBS is off, so Greenroom does not connect yet.';
    return true;
  }

  #fieldError(field: ObsField): string | null {
    const typed = this.#typed[field];
    if (typed) {
      return typed;
    }
    const refused = this.#refused;
    const now = { host: this.host, port: this.port, password: this.password }[field];
    const reason = refused && refused.sent[field] === now ? refused.fields.at(field) : null;
    // The contract's reasons start with the field's name, which the field beside them already shows.
    return reason === null ? null : plainReason(reason.replace(new RegExp(`^${field}: `, 'i'), ''));
  }
}
