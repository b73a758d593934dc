/**
 * Journey: controlling the alert queue (docs/overlays.md#controlling-the-alert-queue). The built app against
 * a standalone sandbox, the alert box open in Chromium as OBS opens it, and the panel in Chromium beside it.
 * Pause, Skip, Clear and Replay, pressed in the panel, act on the alert box within a second (the bound on
 * each wait below is that promise, not a timing measurement); a moderator's !skipalert does the same from
 * chat; a gift whose event is ten minutes old is listed as too old and never played.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSection } from '../helpers/panel-tabs';
import { startOverlayWorld, WATCH_ALERTS, type OverlayWorld } from './overlay-fixtures';
import { newContext, openPanel, value } from './panel';

const WAIT = { timeout: 30_000 };
/** What the controls promise: the alert box changes within a second of the press. */
const PROMPT = { timeout: 1000 };
const MODERATOR_USER_ID = 100003;

describe('journey: controlling the alert queue', () => {
  let world: OverlayWorld;
  let box: Page;
  let panel: Page;
  let queue: Locator;

  const shown = (): Promise<string[]> => box.evaluate<string[]>('window.__alerts');
  const onScreen = (id: string): Locator => box.locator(`[data-alert-id="${id}"]`);
  /** The ids of the KICKs gifts in the app's activity feed, oldest first. */
  const gifts = async (): Promise<string[]> =>
    (await value(world.panel.api.feed.history())).filter((item) => item.kind === 'kicks').map((item) => item.id);
  /** Sends one gift and resolves with its event's id once Greenroom has it. */
  const gift = async (overrides: Record<string, unknown> = {}): Promise<string> => {
    const before = await gifts();
    await world.sandbox.admin.trigger('kicks.gifted', { overrides });
    await expect.poll(async () => (await gifts()).length, WAIT).toBe(before.length + 1);
    return (await gifts()).at(-1)!;
  };
  /** The queue's status line once it says `text` (main's word: paused or playing, on screen, waiting). */
  const status = (text: string | RegExp): Locator => queue.getByTestId('alert-queue-status').filter({ hasText: text });

  beforeAll(async () => {
    world = await startOverlayWorld();
    // Long enough that no alert ends by itself while a step looks at it.
    await world.updateOverlays((settings) => {
      for (const template of Object.values(settings.alerts)) {
        template.durationMs = 30_000;
      }
    });
    const urls = (await value(world.panel.api.overlays.info())).urls;
    box = await (await world.browser.newContext({ viewport: { width: 800, height: 600 } })).newPage();
    await box.addInitScript(WATCH_ALERTS);
    await box.goto(urls.alerts!);
    await box.locator('main[data-status="open"]').waitFor(WAIT);
    panel = await openPanel(await newContext(world.browser), world.app);
    await openSection(panel, 'Overlays');
    queue = panel.getByRole('region', { name: 'Alert queue' });
    await status('Nothing on screen').waitFor(WAIT);
  });

  afterAll(async () => {
    await world?.close();
  });

  it('Skip takes the alert on screen down and the next one plays', async () => {
    const first = await gift();
    const second = await gift();
    await onScreen(first).waitFor(WAIT);
    await status('· 1 alert waiting').waitFor(WAIT);
    await queue.getByRole('button', { name: 'Skip alert' }).click();
    await onScreen(first).waitFor({ ...PROMPT, state: 'detached' });
    await onScreen(second).waitFor(PROMPT);
    expect(await shown()).toEqual([first, second]);
  });

  it('Pause holds the next alert, a moderator’s !skipalert takes one down, and Resume plays on', async () => {
    const [, second] = await gifts();
    await queue.getByRole('button', { name: 'Pause alerts' }).click();
    await status(/^Paused ·/).waitFor(PROMPT);
    const third = await gift();
    await status('· 1 alert waiting').waitFor(WAIT);

    await world.sandbox.admin.chat('!skipalert', MODERATOR_USER_ID);
    await onScreen(second!).waitFor({ ...WAIT, state: 'detached' });
    await queue.getByText(/Skipped an alert by sandbox_mod in chat/).waitFor(WAIT);
    // Main's own word: nothing on screen, the third still waiting; the box shows nothing.
    await status('Paused · Nothing on screen · 1 alert waiting').waitFor(WAIT);
    expect(await box.locator('[data-alert-id]').count()).toBe(0);

    await queue.getByRole('button', { name: 'Resume alerts' }).click();
    await onScreen(third).waitFor(PROMPT);
  });

  it('Clear takes the alert down and drops the waiting ones; Replay from the feed plays an alert again', async () => {
    const [first, , third] = await gifts();
    const dropped = [await gift(), await gift()];
    await status('· 2 alerts waiting').waitFor(WAIT);
    await queue.getByRole('button', { name: 'Clear queue…' }).click();
    await queue.getByRole('button', { name: 'Clear queue', exact: true }).click();
    await onScreen(third!).waitFor({ ...PROMPT, state: 'detached' });
    await status('Nothing on screen · 0 alerts waiting').waitFor(PROMPT);

    await openSection(panel, 'Activity');
    const entries = panel.getByRole('region', { name: 'Activity' }).getByRole('listitem');
    // The feed is newest first: the first gift is the last KICKs entry.
    const firstEntry = entries.filter({ hasText: 'KICK' }).last();
    await firstEntry.getByRole('button', { name: 'Replay alert' }).click();
    const again = box.locator(`[data-alert-id^="again-"][data-alert-id$="-${first}"]`);
    await again.waitFor(PROMPT);
    await firstEntry.getByText('Queued').waitFor(WAIT);

    // Alerts play in the order they queue: one sent now plays after anything still in line, so when it has
    // played, the cleared ones are known never to have.
    await openSection(panel, 'Overlays');
    await queue.getByRole('button', { name: 'Skip alert' }).click();
    const fence = await gift();
    await onScreen(fence).waitFor(WAIT);
    const played = await shown();
    expect(played).not.toEqual(expect.arrayContaining([dropped[0]]));
    expect(played).not.toEqual(expect.arrayContaining([dropped[1]]));
    expect(played.at(-1)).toBe(fence);
  });

  it('lists a gift whose event is older than the set age, and never plays it', async () => {
    await queue.getByRole('button', { name: 'Skip alert' }).click();
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000).toISOString();
    const late = await gift({ created_at: tenMinutesAgo, 'sender.username': 'late_gifter' });
    // Ten minutes is past the late age, checked as the gift arrives: the heading names that limit.
    const tooOld = queue.getByText('1 alert was too late to play (Kick delivered it late)');
    await tooOld.waitFor(WAIT);
    await tooOld.click();
    await queue
      .getByRole('listitem')
      .filter({ hasText: 'late_gifter' })
      .getByText(/^10 min late \(Kick delivered it late\)$/)
      .waitFor(WAIT);

    // Main dropped it before the next gift came, so that one plays and it never does.
    const fresh = await gift();
    await onScreen(fresh).waitFor(WAIT);
    expect(await shown()).not.toContain(late);
  });
});
