/**
 * The panel's themes and keyboard shortcuts through App with the transport fake
 * ([design notes](../../../../docs/design-notes.md#keyboard-shortcuts)): the saved theme is drawn and follows a
 * change from another panel; `?` opens the shortcut list outside a field and is typed inside one; Alt with a
 * digit opens that section; Alt+C puts the caret in the chat box; nothing acts behind a dialog.
 */
import '@testing-library/svelte/vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { afterEach, describe, expect, it } from 'vitest';
import App from '../../../../renderer/src/App.svelte';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { settings, snapshot } from '../fixtures';

async function open(theme?: 'system' | 'dark' | 'light' | 'high-contrast') {
  const fake = createFakeApi();
  const saved = settings(theme === undefined ? {} : { theme });
  fake.ok('app:snapshot', snapshot({ settings: saved }));
  fake.ok('settings:get', saved);
  const deps = { scheduler: manualFrames().scheduler, clock: manualClock(), copy: () => Promise.resolve(true) };
  render(App, { props: { api: fake.api, view: 'full', deps } });
  await settle();
  return { fake, saved };
}

const key = (target: Element | Document, init: KeyboardEventInit) =>
  fireEvent.keyDown(target, { bubbles: true, cancelable: true, ...init });

const selectedSection = () =>
  screen.getByRole('tablist', { name: 'Sections' }).querySelector('[aria-selected="true"]')?.textContent;

/** Runs the panel as on a Mac: the platform is what the panel reads to know it. */
function onMac(): void {
  Object.defineProperty(navigator, 'platform', { value: 'MacIntel', configurable: true });
}

afterEach(() => {
  delete document.documentElement.dataset.theme;
  delete (navigator as { platform?: string }).platform;
});

describe('the theme', () => {
  it('is the saved one, and changes when another panel saves a new one', async () => {
    const { fake, saved } = await open('light');
    expect(document.documentElement.dataset.theme).toBe('light');
    fake.emit('settings:changed', { ...saved, theme: 'high-contrast' });
    await settle();
    expect(document.documentElement.dataset.theme).toBe('high-contrast');
  });

  it('is dark for an older main that sends no theme', async () => {
    await open();
    expect(document.documentElement.dataset.theme).toBe('dark');
  });
});

describe('the keyboard shortcuts', () => {
  it('open the list on "?" and close it on Escape', async () => {
    await open('dark');
    await key(document.body, { key: '?', code: 'Slash', shiftKey: true });
    const sheet = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(sheet.textContent).toContain('Alt + C');
    expect(document.activeElement?.textContent).toBe('Close');
    await key(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull();
  });

  it('type "?" in the chat box instead of opening the list', async () => {
    await open('dark');
    const box = screen.getByRole('textbox', { name: 'Chat message' });
    box.focus();
    await key(box, { key: '?', code: 'Slash', shiftKey: true });
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull();
  });

  it('open a section with Alt and its number, and put the caret in chat with Alt+C', async () => {
    await open('dark');
    const sections = screen.getByRole('tablist', { name: 'Sections' });
    await key(document.body, { key: '2', code: 'Digit2', altKey: true });
    await settle();
    // The window is wide here: chat sits beside the sections, and Activity is the first of them.
    const second = sections.querySelector('[aria-selected="true"]');
    expect(second?.textContent).toMatch(/^Mod log/);
    expect(document.activeElement).toBe(second);
    await key(document.body, { key: 'ç', code: 'KeyC', altKey: true });
    await settle();
    expect(document.activeElement?.id).toBe('chat-input');
  });

  it('do nothing behind a dialog', async () => {
    await open('dark');
    await key(document.body, { key: '?', code: 'Slash', shiftKey: true });
    await key(document.body, { key: '3', code: 'Digit3', altKey: true });
    await settle();
    const selected = screen.getByRole('tablist', { name: 'Sections' }).querySelector('[aria-selected="true"]');
    expect(selected?.textContent).toMatch(/^Activity/);
    expect(screen.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeTruthy();
  });
});

describe('Alt in the chat box', () => {
  it('types "#" (Alt+3 on a UK keyboard) instead of opening the third section', async () => {
    await open('dark');
    const box = screen.getByRole('textbox', { name: 'Chat message' });
    box.focus();
    const typed = await key(box, { key: '#', code: 'Digit3', altKey: true });
    // A dead key (an accent to come) and an input method's keys are the field's too.
    const dead = await key(box, { key: 'Dead', code: 'Digit6', altKey: true });
    const composing = await key(box, { key: 'c', code: 'KeyC', altKey: true, isComposing: true });
    await settle();
    expect([typed, dead, composing]).toEqual([true, true, true]);
    expect(selectedSection()).toMatch(/^Activity/);
    expect(document.activeElement).toBe(box);
  });

  it('on a Mac never sets off a shortcut, but does outside a text field; the list says Option', async () => {
    onMac();
    await open('dark');
    const box = screen.getByRole('textbox', { name: 'Chat message' });
    box.focus();
    expect(await key(box, { key: '¡', code: 'Digit1', altKey: true })).toBe(true);
    expect(await key(box, { key: '2', code: 'Digit2', altKey: true })).toBe(true);
    await settle();
    expect(selectedSection()).toMatch(/^Activity/);
    expect(document.activeElement).toBe(box);
    box.blur();
    await key(document.body, { key: '™', code: 'Digit2', altKey: true });
    await settle();
    expect(selectedSection()).toMatch(/^Mod log/);
    await key(document.body, { key: '?', code: 'Slash', shiftKey: true });
    const sheet = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(sheet.textContent).toContain('Option + C');
    expect(sheet.textContent).not.toContain('Alt');
  });
});

describe('Alt+F', () => {
  it('puts the caret in the search box from the chat box, and Esc closes it and gives focus back', async () => {
    await open('dark');
    const box = screen.getByRole('textbox', { name: 'Chat message' });
    box.focus();
    await key(box, { key: 'f', code: 'KeyF', altKey: true });
    await settle();
    const search = screen.getByRole('searchbox', { name: 'Search chat' });
    expect(document.activeElement).toBe(search);
    await key(search, { key: 'Escape' });
    await settle();
    expect(screen.queryByRole('searchbox', { name: 'Search chat' })).toBeNull();
    expect(document.activeElement).toBe(box);
  });

  it('focuses the box the search button opens', async () => {
    await open('dark');
    const button = screen.getByRole('button', { name: 'Search chat' });
    button.focus();
    await fireEvent.click(button);
    await settle();
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search chat' }));
  });
});
