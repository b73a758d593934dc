/**
 * The options every Greenroom window is created with ([code style point 8](../../docs/code-style.md#security-baseline)): context isolation, the sandbox,
 * no Node in the page, no <webview>, and our bundled CommonJS preload. Plain data, so a test can read the
 * security settings without Electron; main.ts passes it to BrowserWindow as is.
 */
import { WINDOW_SIZES, type WindowKind, type WindowPlacement } from './window-state';

export interface WindowOptions {
  title: string;
  x?: number;
  y?: number;
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
  show: boolean;
  alwaysOnTop: boolean;
  backgroundColor: string;
  autoHideMenuBar: boolean;
  webPreferences: {
    preload: string;
    contextIsolation: true;
    sandbox: true;
    nodeIntegration: false;
    nodeIntegrationInSubFrames: false;
    nodeIntegrationInWorker: false;
    webviewTag: false;
    webSecurity: true;
    allowRunningInsecureContent: false;
    navigateOnDragDrop: false;
    spellcheck: boolean;
  };
}

const TITLES: Record<WindowKind, string> = {
  main: 'Greenroom',
  chat: 'Greenroom chat',
  companion: 'Greenroom companion',
};

/**
 * What each window opens: the same page, told its layout by the address (renderer/src/lib/route.ts):
 * `#/chat` for the pop-out chat, `?compact=1` for the companion.
 */
export const WINDOW_ROUTES: Record<WindowKind, { hash?: string; query?: Record<string, string> }> = {
  main: {},
  chat: { hash: '/chat' },
  companion: { query: { compact: '1' } },
};

/** The page address for a window kind when the renderer comes from a dev server. */
export function routeUrl(base: string, kind: WindowKind): string {
  const url = new URL(base);
  const route = WINDOW_ROUTES[kind];
  for (const [key, value] of Object.entries(route.query ?? {})) {
    url.searchParams.set(key, value);
  }
  if (route.hash) {
    url.hash = route.hash;
  }
  return url.href;
}

/** Options for a window of `kind` at `placement`, using the preload at `preload`. */
export function windowOptions(kind: WindowKind, placement: WindowPlacement, preload: string): WindowOptions {
  const sizes = WINDOW_SIZES[kind];
  return {
    title: TITLES[kind],
    ...(placement.x !== undefined && placement.y !== undefined ? { x: placement.x, y: placement.y } : {}),
    width: placement.width,
    height: placement.height,
    minWidth: sizes.minWidth,
    minHeight: sizes.minHeight,
    // Shown on ready-to-show, so the window never flashes white before the panel paints.
    show: false,
    // The companion sits beside OBS and must stay above it.
    alwaysOnTop: kind === 'companion',
    backgroundColor: '#0b1f14',
    autoHideMenuBar: true,
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      nodeIntegrationInWorker: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      navigateOnDragDrop: false,
      spellcheck: kind !== 'companion',
    },
  };
}
