/**
 * What the alert-designs.spec files share: Greenroom signed in to the sandbox, the alert box overlay page
 * opened as OBS opens a browser source (its own Chromium, with OBS's autoplay of sounds), and the README's
 * pictures of alerts composed over a game scene drawn for them (renderer/src/components/media/game-scene.svg).
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { Result } from '../../shared/errors';
import type { OverlaySettings } from '../../shared/overlays';
import type { SettingsView } from '../../shared/views';
import { CHROMIUM_ARGS, type E2E, SCREENSHOT_DIR, startE2E } from './harness';
import { signIn } from './sign-in';

const ROOT = join(import.meta.dirname, '..', '..');
export const WAIT = { timeout: 15_000, interval: 100 };

export const fx = {} as {
  e2e: E2E;
  /** OBS's stand-in: sounds may play without a click, as in an OBS browser source. */
  obs: Browser;
  alertsUrl: string;
};

export function useAlertWorld(): void {
  beforeAll(async () => {
    fx.e2e = await startE2E();
    await signIn(fx.e2e);
    fx.obs = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: [...CHROMIUM_ARGS, '--autoplay-policy=no-user-gesture-required'],
    });
    fx.alertsUrl = fx.e2e.launched.app.overlays.view().urls.alerts!;
  });
  afterAll(async () => {
    await fx.obs?.close();
    await fx.e2e?.close();
  });
}

/** Calls a contract channel as the panel does, and unwraps the answer. */
export async function invoke<T>(channel: string, ...args: unknown[]): Promise<Result<T>> {
  return (await fx.e2e.launched.router.invoke(channel, args)) as Result<T>;
}

/** Changes the overlay settings as the Overlays tab's Save does. */
export async function updateOverlays(change: (settings: OverlaySettings) => void): Promise<Result<unknown>> {
  const current = await invoke<SettingsView>('settings:get');
  if (!current.ok) {
    throw new Error(current.error.message);
  }
  const overlays = structuredClone(current.value.overlays);
  change(overlays);
  return invoke('settings:update', { overlays });
}

/**
 * Opens the alert box at an OBS source's size. Every CSP violation and every request the page makes is
 * recorded (`window.__violations`, the returned list).
 */
export async function openAlertBox(size = { width: 800, height: 600 }): Promise<{ page: Page; requests: string[] }> {
  const context = await fx.obs.newContext({ viewport: size });
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.addInitScript(`
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push([e.violatedDirective, e.blockedURI, e.sourceFile, e.lineNumber, e.sample].join(' ')));
  `);
  await page.goto(fx.alertsUrl);
  await page.locator('main[data-status="open"]').waitFor(WAIT);
  return { page, requests };
}

// The functions handed to the page are typed for Node, as this project's tests are, not the DOM.
type Animated = {
  getAnimations(options?: { subtree: boolean }): { animationName?: string; finished: Promise<unknown> }[];
};
type Picture = { complete: boolean; naturalWidth: number };
type Sound = { paused: boolean; currentTime: number; error: unknown };

/** The CSS animations running on an element now, by name. */
export function animationNames(element: Locator): Promise<string[]> {
  return element.evaluate((el: unknown) => (el as Animated).getAnimations().map((a) => a.animationName ?? ''));
}

/** An image's natural width once loaded; 0 while it is not (or is broken). */
export function imageWidth(image: Locator): Promise<number> {
  return image.evaluate((el: unknown) => ((el as Picture).complete ? (el as Picture).naturalWidth : 0));
}

/** Whether an audio element is playing: started, its time moving, no error. */
export function soundPlaying(audio: Locator): Promise<boolean> {
  return audio.evaluate((el: unknown) => {
    const sound = el as Sound;
    return !sound.paused && sound.currentTime > 0 && sound.error === null;
  });
}

/** Waits until the alert's animation in has finished (and so it stands as it will for most of its time). */
export async function settled(page: Page): Promise<void> {
  const alert = page.locator('[data-alert-id]');
  await alert.waitFor(WAIT);
  await alert.evaluate((el: unknown) =>
    Promise.all((el as Animated).getAnimations({ subtree: true }).map((a) => a.finished)),
  );
}

const SCENE = readFileSync(join(ROOT, 'renderer', 'src', 'components', 'media', 'game-scene.svg'));

/**
 * The alert box as it sits on a stream: the overlay page's own pixels (transparent, under its own policy)
 * laid over the game scene in a second page, saved as a test artefact and, when asked to update them
 * (GREENROOM_UPDATE_SCREENSHOTS=1), into docs/screenshots/.
 */
export async function sceneShot(page: Page, name: string): Promise<string> {
  const overlay = await page.screenshot({ omitBackground: true });
  const size = page.viewportSize()!;
  const canvas = await fx.obs.newPage({ viewport: size });
  await canvas.setContent(
    `<body style="margin:0;width:${size.width}px;height:${size.height}px;position:relative">` +
      `<img src="data:image/svg+xml;base64,${SCENE.toString('base64')}" style="position:absolute;inset:0;width:100%;height:100%;object-fit:cover">` +
      `<img src="data:image/png;base64,${overlay.toString('base64')}" style="position:absolute;inset:0"></body>`,
  );
  await canvas.evaluate(`Promise.all([...document.images].map((image) => image.decode()))`);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await canvas.screenshot({ path });
  await canvas.close();
  if (process.env.GREENROOM_UPDATE_SCREENSHOTS === '1') {
    copyFileSync(path, join(ROOT, 'docs', 'screenshots', `${name}.png`));
  }
  return path;
}

/** A part of the panel, as it looks (no focus ring), kept like sceneShot's. */
export async function panelShot(part: Locator, name: string): Promise<void> {
  await part.page().evaluate('document.activeElement?.blur()');
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await part.screenshot({ path });
  if (process.env.GREENROOM_UPDATE_SCREENSHOTS === '1') {
    copyFileSync(path, join(ROOT, 'docs', 'screenshots', `${name}.png`));
  }
}
