/**
 * The panel of a running app, twice: in Debian's Chromium (what the streamer sees, through the panel
 * server the OBS dock uses) and over the same panel WebSocket from this process (the contract the page
 * calls), so a journey can read whole lists (chat, feed, mod log) that the page only shows a window of.
 */
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { WebSocket } from 'ws';
import type { AppRun } from './app-process';
import { CHROMIUM_ARGS } from '../e2e/harness';
import { createPanelApi, type PanelApi } from '../../shared/panel-api';
import type { Result } from '../../shared/errors';
import { createWebSocketTransport } from '../../renderer/src/lib/transport';

const WAIT = { timeout: 15_000 };

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}

/** A browser context as a streamer's browser or OBS dock would have it. */
export async function newContext(
  browser: Browser,
  viewport: { width: number; height: number } = { width: 1280, height: 860 },
): Promise<BrowserContext> {
  return browser.newContext({ viewport, colorScheme: 'dark' });
}

/** Opens the printed panel URL and waits until the panel has its first snapshot (the tabs are there). */
export async function openPanel(context: BrowserContext, app: AppRun): Promise<Page> {
  const page = await context.newPage();
  await page.goto(app.panelUrl);
  await page.getByRole('tablist').first().waitFor(WAIT);
  return page;
}

/** The panel contract over the panel WebSocket, as the page uses it. */
export interface PanelClient {
  api: PanelApi;
  close(): void;
}

export function connectPanel(app: AppRun): PanelClient {
  const url = new URL(app.panelUrl);
  const connection = createWebSocketTransport({
    url: `ws://${url.host}/ws`,
    token: url.searchParams.get('token') ?? '',
    WebSocketImpl: class extends WebSocket {
      constructor(address: string) {
        super(address, { origin: url.origin });
      }
    },
  });
  return { api: createPanelApi(connection), close: () => connection.close() };
}

/** The value of a contract call, or a thrown error with its code and message. */
export async function value<T>(result: Promise<Result<T>>): Promise<T> {
  const settled = await result;
  if (!settled.ok) {
    throw new Error(`${settled.error.code}: ${settled.error.message}`);
  }
  return settled.value;
}

/**
 * Signs in the way the panel-only mode offers it: "Sign in with Kick" in the panel, the link the app
 * prints in its terminal opened in another tab (the streamer's browser), the sandbox's consent approved
 * (skipped when the sandbox auto-approves); the panel then shows the signed-in state.
 */
export async function signInFromPanel(page: Page, app: AppRun): Promise<void> {
  const from = app.stdout.lines.length;
  await page.getByRole('button', { name: /^Sign in/ }).click();
  const link = await app.stdout.waitFor(/^Open this link to continue: (\S+)$/, { from });
  const tab = await page.context().newPage();
  await tab.goto(link[1]!);
  const approve = tab.getByRole('button', { name: 'Approve' });
  const closeTab = tab.getByText('You can close this tab');
  await approve.or(closeTab).first().waitFor(WAIT);
  if (await approve.isVisible()) {
    await approve.click();
  }
  await closeTab.waitFor(WAIT);
  await tab.close();
  await page.getByRole('region', { name: 'Sign in' }).waitFor({ state: 'detached', ...WAIT });
  await page.bringToFront();
}
