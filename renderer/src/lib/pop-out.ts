/**
 * "Pop out chat" and "Compact companion" wherever the panel runs. The desktop window asks main, which owns
 * its windows. A browser or an OBS dock opens the same panel in the chat-only or companion layout with
 * `window.open` (route.ts builds the address). A browser that blocks pop-ups makes `window.open` return
 * null, and an OBS dock hands the address to the system browser and returns null too: the panel then
 * says so and offers the link to open by hand ([panel in a browser](../../../docs/panel-in-a-browser.md#pop-out-chat-and-the-companion)).
 *
 * The window this page opens is given an address without the panel's token: the browser copies this tab's
 * session storage, which holds it, into the new window, so the token never lands in the browser's history.
 * Only the link to open by hand carries it, because a window the streamer opens gets no session storage.
 */
import type { PanelApi } from '../../../shared/panel-api';
import { viewUrl } from './route';

export type PopOutKind = 'chat' | 'compact';

/** What the panel needs from the page it runs in; a parameter so tests pass their own. */
export interface PopOutPage {
  /** Present only in the desktop window (the preload bridge). */
  greenroom?: unknown;
  location: { origin: string; pathname: string };
  open(url: string, target: string, features: string): { closed: boolean; close(): void; focus(): void } | null;
}

/** The window a click opened, or the address the streamer can open by hand when none could open. */
export type PopOutResult = { opened: true } | { opened: false; url: string };

/** Window names, so a second click brings the same window back instead of opening another. */
const TARGETS: Record<PopOutKind, string> = { chat: 'greenroom-chat', compact: 'greenroom-companion' };
/** Sizes as the desktop app opens them (electron/shell/window-state.ts). */
const FEATURES: Record<PopOutKind, string> = {
  chat: 'popup,width=420,height=720',
  compact: 'popup,width=380,height=640',
};

/** Whether this page is the desktop window (the preload bridge is there). */
export function inDesktopWindow(page: Pick<PopOutPage, 'greenroom'> = globalThis as { greenroom?: unknown }): boolean {
  return page.greenroom !== undefined;
}

/** Pop-out chat and the companion for one panel page. */
export class PopOuts {
  #windows: () => PanelApi['window'];
  #page: PopOutPage;
  #dockUrl: () => string | null;
  #chat: ReturnType<PopOutPage['open']> = null;
  #companion: ReturnType<PopOutPage['open']> = null;

  /** `windows`: main's window actions (the desktop window); `dockUrl`: the panel's dock URL, once known. */
  constructor(windows: () => PanelApi['window'], dockUrl: () => string | null, page: PopOutPage = globalThis) {
    this.#windows = windows;
    this.#dockUrl = dockUrl;
    this.#page = page;
  }

  /** Opens the chat view in its own window (or brings it to the front). */
  popOutChat(): PopOutResult {
    if (inDesktopWindow(this.#page)) {
      this.#windows().popOutChat();
      return { opened: true };
    }
    if (this.#chat && !this.#chat.closed) {
      // Already open: brought forward as it is, not loaded again.
      this.#chat.focus();
      return { opened: true };
    }
    this.#chat = this.#page.open(this.#url('chat', false), TARGETS.chat, FEATURES.chat);
    return this.#chat ? { opened: true } : { opened: false, url: this.#url('chat', true) };
  }

  /** Opens the compact companion, or closes the one this page opened, as the desktop button does. */
  toggleCompanion(): PopOutResult {
    if (inDesktopWindow(this.#page)) {
      this.#windows().toggleCompanion();
      return { opened: true };
    }
    if (this.#companion && !this.#companion.closed) {
      this.#companion.close();
      this.#companion = null;
      return { opened: true };
    }
    this.#companion = this.#page.open(this.#url('compact', false), TARGETS.compact, FEATURES.compact);
    return this.#companion ? { opened: true } : { opened: false, url: this.#url('compact', true) };
  }

  /** `withToken`: only for the link opened by hand (see the top of this file). */
  #url(kind: PopOutKind, withToken: boolean): string {
    return viewUrl(kind, this.#page.location, withToken ? this.#dockUrl() : null);
  }
}
