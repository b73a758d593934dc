/**
 * The panel's keyboard shortcuts ([design notes](../../../docs/design-notes.md#keyboard-shortcuts)). Each
 * one but the sheet's holds Alt, so typing in chat or a form never triggers one, and Alt with a letter is
 * read from the key's place (`code`), as macOS turns Alt+C into "ç". `?` opens the sheet only outside a field.
 * Alt also types characters: Option+3 is "#" on a UK Mac, and some keyboards elsewhere do the same. Inside a
 * text field a shortcut never swallows such a character, and on a Mac, where Option is how accents and
 * symbols are typed, no Alt shortcut acts inside a text field at all.
 */

/** What a shortcut does. `tab` counts from 1, as the tabs read from the left. */
export type ShortcutAction =
  { kind: 'focus-chat' } | { kind: 'search-chat' } | { kind: 'tab'; index: number } | { kind: 'sheet' };

/** The parts of a `KeyboardEvent` a shortcut is read from. */
export interface KeyPress {
  key: string;
  code: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey?: boolean;
  /** An input method is composing a character: every key is the composition's. */
  isComposing?: boolean;
}

/** Whether the panel runs on a Mac, where Alt is the key marked Option. */
export function isMac(nav: Pick<Navigator, 'platform' | 'userAgent'> | undefined = globalThis.navigator): boolean {
  return nav !== undefined && /Mac|iPhone|iPad/.test(nav.platform || nav.userAgent);
}

/** The shortcuts as the sheet lists them, in the streamer's words: on a Mac, Alt is the key marked Option. */
export function shortcutList(mac: boolean): readonly { keys: string; does: string }[] {
  const alt = mac ? 'Option' : 'Alt';
  return [
    { keys: `${alt} + C`, does: 'Write in chat' },
    { keys: `${alt} + F`, does: 'Search chat' },
    { keys: `${alt} + 1 … ${alt} + 9`, does: 'Open the first to ninth section' },
    { keys: '?', does: 'Show these shortcuts (outside a text field)' },
    { keys: 'Esc', does: 'Close this list, the chat search, a menu or a dialog' },
  ];
}

/** The letter or digit each Alt shortcut names, by the key's place. */
const NAMED: Readonly<Record<string, string>> = { KeyC: 'c', KeyF: 'f' };

/**
 * The shortcut `press` is, or null. `typing`: focus is in a field that takes text, where `?` is a character and
 * Alt may type one too; `mac`: Option types accents and symbols there, so no Alt shortcut acts in a field.
 */
export function shortcutFor(press: KeyPress, typing: boolean, mac = false): ShortcutAction | null {
  if (press.ctrlKey || press.metaKey || press.isComposing === true) {
    return null;
  }
  if (press.altKey) {
    if (typing && (mac || typesCharacter(press))) {
      return null;
    }
    if (press.code === 'KeyC') {
      return { kind: 'focus-chat' };
    }
    if (press.code === 'KeyF') {
      return { kind: 'search-chat' };
    }
    const digit = /^Digit([1-9])$/.exec(press.code);
    return digit && !press.shiftKey ? { kind: 'tab', index: Number(digit[1]) } : null;
  }
  return press.key === '?' && !typing ? { kind: 'sheet' } : null;
}

/**
 * Whether Alt with this key types something other than the letter or digit the key is named for ("#", "ç", or
 * the start of an accent).
 */
function typesCharacter(press: KeyPress): boolean {
  // A dead key (Option+E, Option+U on a Mac) starts an accent the next key finishes.
  if (press.key === 'Dead') {
    return true;
  }
  if ([...press.key].length !== 1) {
    return false;
  }
  const named = NAMED[press.code] ?? /^Digit(\d)$/.exec(press.code)?.[1];
  return press.key.toLowerCase() !== named;
}

const TEXT_INPUTS = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number']);

/** Whether `target` takes typed text: a text box, a text area, or an editable element. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) {
    return false;
  }
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement || target.isContentEditable) {
    return true;
  }
  return target instanceof HTMLInputElement && TEXT_INPUTS.has(target.type);
}
