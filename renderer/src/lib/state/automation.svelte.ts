/**
 * The Automation tab (docs/automod.md, docs/chat-bot.md): drafts of the auto-moderation rules and the chat
 * bot that the streamer edits and saves as a whole (main validates every field and names the one it
 * refuses), the header's pause switch, "test a message against the rules", and the JSON file that carries
 * both to another install or a backup.
 */
import type { AutomodSettings, AutomodVerdict } from '../../../../shared/automod';
import type { ChatBotSettings } from '../../../../shared/chat-bot';
import type { PanelApi } from '../../../../shared/panel-api';
import type { SettingsView } from '../../../../shared/views';
import { explainError, plainError, type ShownError } from '../error-text';

/** What the export file holds; `kind` tells an import it is the right file. */
export interface AutomationFile {
  kind: 'greenroom-automation';
  version: 1;
  automod: AutomodSettings;
  chatBot: ChatBotSettings;
}

export const EXPORT_FILE_NAME = 'greenroom-automation.json';

export class AutomationState {
  #api: PanelApi;
  #saved = $state.raw<{ automod: AutomodSettings; chatBot: ChatBotSettings } | null>(null);
  #saving = $state<'automod' | 'chatBot' | 'paused' | 'import' | null>(null);
  #error = $state.raw<ShownError | null>(null);
  #message = $state<string | null>(null);
  #verdict = $state.raw<AutomodVerdict | null | undefined>(undefined);

  /** The drafts the editors bind to; null until settings arrive. */
  automod = $state<AutomodSettings | null>(null);
  chatBot = $state<ChatBotSettings | null>(null);

  readonly automodDirty = $derived(
    this.automod !== null && JSON.stringify(this.automod) !== JSON.stringify(this.#saved?.automod),
  );
  readonly chatBotDirty = $derived(
    this.chatBot !== null && JSON.stringify(this.chatBot) !== JSON.stringify(this.#saved?.chatBot),
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
    return this.#error;
  }
  get message(): string | null {
    return this.#message;
  }
  /** The last test's verdict: undefined before any test, null when the message passes. */
  get verdict(): AutomodVerdict | null | undefined {
    return this.#verdict;
  }

  /** Settings from main; a draft with unsaved edits is kept, a clean one follows. */
  apply(settings: SettingsView): void {
    const wasAutomodDirty = this.automodDirty;
    const wasChatBotDirty = this.chatBotDirty;
    this.#saved = { automod: settings.automod, chatBot: settings.chatBot };
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
    }
  }

  /** A message typed by the streamer, against the saved rules; nothing is remembered or acted on. */
  async test(content: string, badges: string[]): Promise<void> {
    const result = await this.#api.automod.test({ content, badges });
    if (result.ok) {
      this.#verdict = result.value;
      this.#error = null;
    } else {
      this.#error = explainError(result.error);
    }
  }

  /** The saved rules and bot as the export file's text. */
  exportText(): string | null {
    if (!this.#saved) {
      return null;
    }
    const file: AutomationFile = { kind: 'greenroom-automation', version: 1, ...this.#saved };
    return `${JSON.stringify(file, null, 2)}\n`;
  }

  /** Reads an export file and saves it whole; main checks every field, so a bad file changes nothing. */
  async importText(text: string): Promise<boolean> {
    let file: Partial<AutomationFile>;
    try {
      file = JSON.parse(text) as Partial<AutomationFile>;
    } catch {
      this.#error = plainError('That file is not JSON. Choose a file exported from Greenroom’s Automation tab.');
      return false;
    }
    if (file?.kind !== 'greenroom-automation' || !file.automod || !file.chatBot) {
      this.#error = plainError(
        'That file is not a Greenroom automation export (it has no "kind": "greenroom-automation").',
      );
      return false;
    }
    return this.#update(
      'import',
      { automod: file.automod, chatBot: file.chatBot },
      'Imported: rules, commands, timers and replies replaced.',
      true,
    );
  }

  async #update(
    what: 'automod' | 'chatBot' | 'paused' | 'import',
    patch: { automod?: AutomodSettings; chatBot?: ChatBotSettings },
    done: string,
    replaceDrafts = false,
  ): Promise<boolean> {
    this.#saving = what;
    this.#error = null;
    this.#message = null;
    const result = await this.#api.settings.update(patch);
    this.#saving = null;
    if (!result.ok) {
      this.#error = explainError(result.error);
      return false;
    }
    if (what === 'automod' || replaceDrafts) {
      this.automod = structuredClone(result.value.automod);
    }
    if (what === 'chatBot' || replaceDrafts) {
      this.chatBot = structuredClone(result.value.chatBot);
    }
    this.apply(result.value);
    this.#message = done;
    return true;
  }
}
