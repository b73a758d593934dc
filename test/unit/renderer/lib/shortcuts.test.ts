import { describe, expect, it } from 'vitest';
import { isMac, isTyping, shortcutFor, shortcutList, type KeyPress } from '../../../../renderer/src/lib/shortcuts';

const press = (over: Partial<KeyPress>): KeyPress => ({
  key: '',
  code: '',
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  ...over,
});

describe('shortcutFor', () => {
  it('reads Alt with a letter from the key’s place, as macOS types "ç" for Alt+C', () => {
    expect(shortcutFor(press({ key: 'ç', code: 'KeyC', altKey: true }), false)).toEqual({ kind: 'focus-chat' });
    expect(shortcutFor(press({ key: 'ƒ', code: 'KeyF', altKey: true }), false, true)).toEqual({ kind: 'search-chat' });
    expect(shortcutFor(press({ key: 'f', code: 'KeyF', altKey: true }), true)).toEqual({ kind: 'search-chat' });
  });

  it('leaves a character Alt types in a text field to the field, on every system', () => {
    // Option+3 is "#" on a UK Mac, Option+2 "€", Option+C "ç"; AltGr-less keyboards elsewhere do the same.
    for (const mac of [false, true]) {
      expect(shortcutFor(press({ key: '#', code: 'Digit3', altKey: true }), true, mac)).toBeNull();
      expect(shortcutFor(press({ key: '€', code: 'Digit2', altKey: true }), true, mac)).toBeNull();
      expect(shortcutFor(press({ key: 'ç', code: 'KeyC', altKey: true }), true, mac)).toBeNull();
      expect(shortcutFor(press({ key: 'ƒ', code: 'KeyF', altKey: true }), true, mac)).toBeNull();
      expect(shortcutFor(press({ key: '😀', code: 'Digit4', altKey: true }), true, mac)).toBeNull();
    }
    // A dead key starts an accent; an input method's keys are its own.
    expect(shortcutFor(press({ key: 'Dead', code: 'Digit6', altKey: true }), true)).toBeNull();
    expect(shortcutFor(press({ key: 'c', code: 'KeyC', altKey: true, isComposing: true }), true)).toBeNull();
    expect(shortcutFor(press({ key: '?', code: 'Slash', shiftKey: true, isComposing: true }), false)).toBeNull();
    // Outside a field nothing is typed, so the key's place still decides.
    expect(shortcutFor(press({ key: '#', code: 'Digit3', altKey: true }), false, true)).toEqual({
      kind: 'tab',
      index: 3,
    });
  });

  it('acts in a text field when Alt types nothing or the key’s own letter, but never on a Mac', () => {
    expect(shortcutFor(press({ key: '3', code: 'Digit3', altKey: true }), true)).toEqual({ kind: 'tab', index: 3 });
    expect(shortcutFor(press({ key: 'C', code: 'KeyC', altKey: true }), true)).toEqual({ kind: 'focus-chat' });
    expect(shortcutFor(press({ key: 'Unidentified', code: 'KeyF', altKey: true }), true)).toEqual({
      kind: 'search-chat',
    });
    expect(shortcutFor(press({ key: '3', code: 'Digit3', altKey: true }), true, true)).toBeNull();
    expect(shortcutFor(press({ key: 'c', code: 'KeyC', altKey: true }), true, true)).toBeNull();
  });

  it('opens the first to ninth section with Alt and a digit, never a tenth', () => {
    expect(shortcutFor(press({ key: '1', code: 'Digit1', altKey: true }), false)).toEqual({ kind: 'tab', index: 1 });
    expect(shortcutFor(press({ key: '9', code: 'Digit9', altKey: true }), true)).toEqual({ kind: 'tab', index: 9 });
    expect(shortcutFor(press({ key: '0', code: 'Digit0', altKey: true }), false)).toBeNull();
    expect(shortcutFor(press({ key: '!', code: 'Digit1', altKey: true, shiftKey: true }), false)).toBeNull();
  });

  it('leaves Ctrl and Cmd combinations to the browser and the system', () => {
    expect(shortcutFor(press({ key: 'c', code: 'KeyC', altKey: true, ctrlKey: true }), false)).toBeNull();
    expect(shortcutFor(press({ key: '1', code: 'Digit1', altKey: true, metaKey: true }), false)).toBeNull();
    expect(shortcutFor(press({ key: '?', code: 'Slash', ctrlKey: true }), false)).toBeNull();
  });

  it('opens the sheet on "?" outside a field, and types it inside one', () => {
    expect(shortcutFor(press({ key: '?', code: 'Slash', shiftKey: true }), false)).toEqual({ kind: 'sheet' });
    expect(shortcutFor(press({ key: '?', code: 'Slash', shiftKey: true }), true)).toBeNull();
  });

  it('does nothing for a letter typed without Alt', () => {
    expect(shortcutFor(press({ key: 'c', code: 'KeyC' }), false)).toBeNull();
    expect(shortcutFor(press({ key: '1', code: 'Digit1' }), false)).toBeNull();
  });
});

describe('the sheet’s words', () => {
  it('name Option on a Mac and Alt elsewhere', () => {
    expect(isMac({ platform: 'MacIntel', userAgent: '' })).toBe(true);
    expect(isMac({ platform: 'Win32', userAgent: '' })).toBe(false);
    expect(isMac({ platform: '', userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)' })).toBe(true);
    expect(shortcutList(true).map((s) => s.keys)).toContain('Option + C');
    expect(shortcutList(false).map((s) => s.keys)).toContain('Alt + 1 … Alt + 9');
    expect(shortcutList(true).some((s) => s.keys.includes('Alt'))).toBe(false);
  });
});

describe('isTyping', () => {
  it('is true in text boxes, text areas and editable elements, false on buttons and checkboxes', () => {
    const input = (type: string) => Object.assign(document.createElement('input'), { type });
    expect(isTyping(input('text'))).toBe(true);
    expect(isTyping(input('search'))).toBe(true);
    expect(isTyping(input('number'))).toBe(true);
    expect(isTyping(document.createElement('textarea'))).toBe(true);
    expect(isTyping(input('checkbox'))).toBe(false);
    expect(isTyping(input('radio'))).toBe(false);
    expect(isTyping(document.createElement('button'))).toBe(false);
    expect(isTyping(null)).toBe(false);
  });
});
