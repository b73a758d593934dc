/**
 * The Automation tab (docs/automod.md, docs/chat-bot.md): drafts of the auto-moderation rules and the chat
 * bot that the streamer edits and saves as a whole (main validates every field and names the one it
 * refuses), the header's pause switch, "test a message against the rules", and the JSON file that carries
 * both to another install or a backup.
 */
import type { AutomodSettings, AutomodVerdict } from '../../../../shared/automod';
import type { ChatBotSettings } from '../../../../shared/chat-bot';
import type { ObsActionsSettings } from '../../../../shared/obs-actions';
import {
  AUTOMATION_FILE_KIND,
  AUTOMATION_FILE_VERSION,
  planAutomationImport,
  type AutomationSetup,
} from '../../../../shared/automation-import';
import type { PanelApi } from '../../../../shared/panel-api';
import type { SettingsView } from '../../../../shared/views';
import type { ShownError } from '../error-text';
import { saveRefusal, type SaveRefusal } from '../field-errors';
import { explainImportFailure, importedMessage, planFromFile, type PendingImport } from './automation-import';
import { HeldError, type GoneCause } from './held-error.svelte';

/** What the export file holds; `kind` tells an import it is the right file. */
export interface AutomationFile {
  kind: typeof AUTOMATION_FILE_KIND;
  version: typeof AUTOMATION_FILE_VERSION;
  automod: AutomodSettings;
  chatBot: ChatBotSettings;
  obsActions: ObsActionsSettings;
}

type Form = 'automod' | 'chatBot' | 'obsActions';

export const EXPORT_FILE_NAME = 'greenroom-automation.json';

export class AutomationState {
  #api: PanelApi;
  #saved = $state.raw<AutomationSetup | null>(null);
  #saving = $state<Form | 'paused' | 'import' | null>(null);
  #error = new HeldError();
  #message = $state<string | null>(null);
  #verdict = $state.raw<AutomodVerdict | null | undefined>(undefined);
  #pending = $state.raw<PendingImport | null>(null);
  #importError = new HeldError();
  /** The last Save main refused, at its fields, per form; the form marks each refused row. */
  #refusals = $state.raw<Record<Form, SaveRefusal | null>>({
    automod: null,
    chatBot: null,
    obsActions: null,
  });

  /** The drafts the editors bind to; null until settings arrive. */
  automod = $state<AutomodSettings | null>(null);
  chatBot = $state<ChatBotSettings | null>(null);
  obsActions = $state<ObsActionsSettings | null>(null);

  readonly automodDirty = $derived(
    this.automod !== null && JSON.stringify(this.automod) !== JSON.stringify(this.#saved?.automod),
  );
  readonly chatBotDirty = $derived(
    this.chatBot !== null && JSON.stringify(this.chatBot) !== JSON.stringify(this.#saved?.chatBot),
  );
  readonly obsActionsDirty = $derived(
    this.obsActions !== null && JSON.stringify(this.obsActions) !== JSON.stringify(this.#saved?.obsActions),
  );

  constructor(api: PanelApi) {
    this.#api = api;
  }

  get paused(): boolean {
    return this.#saved?.chatBot.paused ?? false;
  }
  get saving(): string | null {
    return this.#saving;
  }
  get error(): ShownError | null {
    return this.#error.shown;
  }
  get message(): string | null {
    return this.#message;
  }
  /** An import waiting for Replace or Cancel: what it replaces, keeps and risks. */
  get pendingImport(): PendingImport | null {
    return this.#pending;
  }
  /** Why the last import was refused or failed, shown at the import control. */
  get importError(): ShownError | null {
    return this.#importError.shown;
  }
  /** A save, test or import error whose cause `cause` ended goes (held-error.svelte.ts). */
  clearIfEnded(cause: GoneCause): void {
    this.#error.clearIfEnded(cause);
    this.#importError.clearIfEnded(cause);
  }
  /** Unsaved edits that Replace would drop, in the streamer's words. */
  get importDropsEdits(): string[] {
    const patch = this.#pending?.plan.patch;
    return [
      ...(patch?.automod && this.automodDirty ? ['your unsaved edits to the auto-moderation rules'] : []),
      ...(patch?.chatBot && this.chatBotDirty ? ['your unsaved edits to the commands, timers and replies'] : []),
      ...(patch?.obsActions && this.obsActionsDirty ? ['your unsaved edits to the OBS actions'] : []),
    ];
  }

  /** Why the last Save of the auto-moderation rules was refused, field by field; null when it was not. */
  get automodRefusal(): SaveRefusal | null {
    return this.#refusals.automod;
  }
  /** The same for commands, timers and replies. */
  get chatBotRefusal(): SaveRefusal | null {
    return this.#refusals.chatBot;
  }
  /** The same for the OBS actions. */
  get obsActionsRefusal(): SaveRefusal | null {
    return this.#refusals.obsActions;
  }
  /** A row was removed: the marks, found by position, would point at the wrong rows. */
  clearRefusal(form: Form): void {
    this.#refusals = { ...this.#refusals, [form]: null };
  }

  /** The last test's verdict: undefined before any test, null when the message passes. */
  get verdict(): AutomodVerdict | null | undefined {
    return this.#verdict;
  }

  /** Settings from main; a draft with unsaved edits is kept, a clean one follows. */
  apply(settings: SettingsView): void {
    const wasAutomodDirty = this.automodDirty;
    const wasChatBotDirty = this.chatBotDirty;
    const wasObsActionsDirty = this.obsActionsDirty;
    this.#saved = { automod: settings.automod, chatBot: settings.chatBot, obsActions: settings.obsActions };
    if (!wasObsActionsDirty) {
      this.obsActions = structuredClone(settings.obsActions);
    }
    if (!wasAutomodDirty) {
      this.automod = structuredClone(settings.automod);
    }
    if (!wasChatBotDirty) {
      this.chatBot = structuredClone(settings.chatBot);
    } else if (this.chatBot) {
      // The pause switch is not part of an edit: it follows main even in a changed draft.
      this.chatBot.paused = settings.chatBot.paused;
    }
  }

  saveAutomod(): Promise<boolean> {
    const automod = this.automod && $state.snapshot(this.automod);
    return automod ? this.#update('automod', { automod }, 'Auto-moderation saved.') : Promise.resolve(false);
  }

  saveChatBot(): Promise<boolean> {
    const chatBot = this.chatBot && $state.snapshot(this.chatBot);
    return chatBot
      ? this.#update('chatBot', { chatBot }, 'Commands, timers and replies saved.')
      : Promise.resolve(false);
  }

  saveObsActions(): Promise<boolean> {
    const obsActions = this.obsActions && $state.snapshot(this.obsActions);
    return obsActions ? this.#update('obsActions', { obsActions }, 'OBS actions saved.') : Promise.resolve(false);
  }

  /** The header switch: pauses or resumes everything automatic, leaving any draft as it is. */
  setPaused(paused: boolean): Promise<boolean> {
    const saved = this.#saved?.chatBot;
    if (!saved) {
      return Promise.resolve(false);
    }
    return this.#update(
      'paused',
      { chatBot: { ...saved, paused } },
      paused ? 'Automation paused.' : 'Automation running.',
    );
  }

  /** Drops unsaved edits. */
  discard(): void {
    if (this.#saved) {
      this.automod = structuredClone(this.#saved.automod);
      this.chatBot = structuredClone(this.#saved.chatBot);
      this.obsActions = structuredClone(this.#saved.obsActions);
    }
  }

  /** A message typed by the streamer, against the saved rules; nothing is remembered or acted on. */
  async test(content: string, badges: string[]): Promise<void> {
    const result = await this.#api.automod.test({ content, badges });
    if (result.ok) {
      this.#verdict = result.value;
      this.#error.clear();
    } else {
      this.#error.fail(result.error);
    }
  }

  /** The saved rules and bot as the export file's text. */
  exportText(): string | null {
    if (!this.#saved) {
      return null;
    }
    const file: AutomationFile = { kind: AUTOMATION_FILE_KIND, version: AUTOMATION_FILE_VERSION, ...this.#saved };
    return `${JSON.stringify(file, null, 2)}\n`;
  }

  /**
   * Reads a chosen file and, when it holds something to import, holds it for the confirm; nothing is sent
   * until `confirmImport` ([Import and export](../../../../docs/automod.md#import-and-export)). A refused
   * file sets `importError`.
   */
  async chooseImport(file: Blob): Promise<void> {
    this.#pending = null;
    this.#importError.clear();
    this.#message = null;
    const current = this.#saved;
    if (!current) {
      return;
    }
    const read = await planFromFile(file, current);
    if (!read.ok) {
      this.#importError.show({ text: read.reason, detail: read.detail });
    } else if (read.plan.changes.length === 0) {
      this.#message = 'Nothing to import: this file holds the setup you have now.';
      this.#importError.show(read.plan.leftOut.length > 0 ? { text: read.plan.leftOut.join(' '), detail: null } : null);
    } else {
      this.#pending = read;
    }
  }

  /** Cancel in the confirm: nothing changes. */
  cancelImport(): void {
    if (this.#pending) {
      this.#pending = null;
      this.#message = 'Import cancelled. Nothing was changed.';
    }
  }

  /**
   * Replace in the confirm. The plan is made again over the setup as it is now: if another window saved in
   * the meantime and the list of changes differs, the confirm shows the new list instead of saving.
   */
  async confirmImport(): Promise<boolean> {
    const pending = this.#pending;
    const current = this.#saved;
    if (!pending || !current || this.#saving === 'import') {
      return false;
    }
    const plan = planAutomationImport(pending.file, current);
    if (!plan.ok) {
      this.#pending = null;
      this.#importError.show({ text: plan.reason, detail: plan.detail });
      return false;
    }
    if (
      JSON.stringify([plan.changes, plan.risks, plan.leftOut]) !==
      JSON.stringify([pending.plan.changes, pending.plan.risks, pending.plan.leftOut])
    ) {
      this.#pending = { file: pending.file, plan };
      this.#message = 'Your setup changed in another window. Check the list again before replacing.';
      return false;
    }
    // The confirm stays open, its Replace disabled, until main answers.
    const saved = await this.#update('import', plan.patch, importedMessage(plan));
    this.#pending = null;
    return saved;
  }

  async #update(what: Form | 'paused' | 'import', patch: Partial<AutomationSetup>, done: string): Promise<boolean> {
    this.#saving = what;
    this.#error.clear();
    this.#importError.clear();
    this.#message = null;
    const result = await this.#api.settings.update(patch);
    this.#saving = null;
    const form = what === 'paused' || what === 'import' ? null : what;
    if (form) {
      this.clearRefusal(form);
    }
    if (!result.ok) {
      // A refusal naming fields is shown at them, in the form; anything else at the top, as before.
      const refused =
        what === 'automod'
          ? saveRefusal(result.error, 'your auto-moderation rules', 'The rules saved before stay in effect.')
          : what === 'chatBot'
            ? saveRefusal(result.error, 'your commands, timers and replies', 'What was saved before stays in effect.')
            : what === 'obsActions'
              ? saveRefusal(result.error, 'your OBS actions', 'The actions saved before stay in effect.')
              : null;
      if (what === 'import') {
        this.#importError.fail(result.error, explainImportFailure(result.error));
      } else if (refused && form) {
        this.#refusals = { ...this.#refusals, [form]: refused };
      } else {
        this.#error.fail(result.error);
      }
      return false;
    }
    // An import replaces the drafts of the halves it saved; the other half's unsaved edits stay.
    if (what === 'automod' || (what === 'import' && patch.automod)) {
      this.automod = structuredClone(result.value.automod);
    }
    if (what === 'chatBot' || (what === 'import' && patch.chatBot)) {
      this.chatBot = structuredClone(result.value.chatBot);
    }
    if (what === 'obsActions' || (what === 'import' && patch.obsActions)) {
      this.obsActions = structuredClone(result.value.obsActions);
    }
    this.apply(result.value);
    // A form's own Save says so beside its button (AutomodEditor, ChatBotEditor): a line at the top of the
    // tab sat off-screen while nothing changed where the streamer clicked.
    this.#message = form ? null : done;
    return true;
  }
}
