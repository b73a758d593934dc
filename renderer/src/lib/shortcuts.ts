/**
 * The panel's keyboard shortcuts ([design notes](../../../docs/design-notes.md#keyboard-shortcuts)). Each
 * one but the sheet's holds Alt, so typing in chat or a form never triggers one, and Alt with a letter is
 * read from the key's place (`code`), as macOS turns Alt+C into "ç". `?` opens the sheet only outside a field.
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
}

/** The shortcuts as the sheet lists them, in the streamer's words. */
export const SHORTCUTS: readonly { keys: string; does: string }[] = [
  { keys: 'Alt + C', does: 'Write in chat' },
  { keys: 'Alt + F', does: 'Search chat' },
  { keys: 'Alt + 1 … Alt + 9', does: 'Open the first to ninth section' },
  { keys: '?', does: 'Show these shortcuts (outside a text field)' },
  { keys: 'Esc', does: 'Close this list, a menu or a dialog' },
];

/** The shortcut `press` is, or null. `typing`: focus is in a field that takes text, where `?` is a character. */
export function shortcutFor(press: KeyPress, typing: boolean): ShortcutAction | null {
  if (press.ctrlKey || press.metaKey) {
    return null;
  }
  if (press.altKey) {
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
