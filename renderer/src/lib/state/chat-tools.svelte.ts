/**
 * The chat reading tools as the panel applies them (docs/chat-tools.md): which highlight a message gets,
 * which chatters are ignored, the first-message mark, and the highlight sound for live messages. The
 * settings come from main (`settings.chatTools`); this class only compiles and applies them.
 */
import { type ChatToolsSettings, DEFAULT_CHAT_TOOLS_SETTINGS, type Highlight } from '../../../../shared/chat-tools';
import type { ChatMessageView } from '../../../../shared/views';
import type { ChimeFn } from '../chime';
import type { Clock } from '../clock';
import { compileHighlights, type HighlightMatcher } from '../highlight';

/** At most one highlight sound this often, so a raid quoting a term is not a siren. */
export const CHIME_GAP_MS = 2000;

export class ChatToolsState {
  #settings = $state.raw<ChatToolsSettings>(DEFAULT_CHAT_TOOLS_SETTINGS);
  #match: HighlightMatcher = $derived(compileHighlights(this.#settings.highlights));
  // Each message's highlight, kept until the terms change: a live message is matched as it arrives (for the
  // sound) and again when its row is drawn, one regex test per term each time.
  #matched = $derived.by(() => {
    void this.#match;
    return new WeakMap<ChatMessageView, Highlight | null>();
  });
  // Rebuilt whole from the settings, never changed in place, so a plain Set is all reactivity needs.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  #ignored = $derived(new Set(this.#settings.ignoredUsers));
  #chime: ChimeFn;
  #clock: Clock;
  #lastChimeMs = -Infinity;

  constructor(chime: ChimeFn, clock: Clock) {
    this.#chime = chime;
    this.#clock = clock;
  }

  get settings(): ChatToolsSettings {
    return this.#settings;
  }

  configure(settings: ChatToolsSettings): void {
    this.#settings = settings;
  }

  /** The highlight a message gets, if any; deleted messages and the streamer's own keep none. */
  highlightFor(message: ChatMessageView): Highlight | null {
    if (message.deleted) {
      return null;
    }
    const matched = this.#matched;
    let highlight = matched.get(message);
    if (highlight === undefined) {
      highlight = this.#match(message.content);
      matched.set(message, highlight);
    }
    return highlight;
  }

  /** Whether the first-message mark shows on this message: never for the streamer or a bot. */
  isFirst(message: ChatMessageView): boolean {
    return (
      this.#settings.firstMessageHighlight &&
      message.firstMessage === true &&
      !message.sender.badges.some((b) => b.type === 'broadcaster' || b.type === 'bot')
    );
  }

  isIgnored(message: Pick<ChatMessageView, 'sender'>): boolean {
    return this.#ignored.size > 0 && this.#ignored.has(message.sender.username.toLowerCase());
  }

  /** A live message arrived: plays the sound for a highlight that wants one, at most once per gap. */
  heard(message: ChatMessageView): void {
    const highlight = this.highlightFor(message);
    const now = this.#clock.now();
    if (highlight?.sound && now - this.#lastChimeMs >= CHIME_GAP_MS) {
      this.#lastChimeMs = now;
      this.#chime();
    }
  }
}
