/**
 * Journey: the Mod log tab in a 340 px OBS dock (docs/automod.md, "The Mod log tab"). The built app, signed in
 * through a standalone sandbox, auto-moderation on (a blocked term and links, both deleted, dry run off). A
 * chat storm runs while two viewers spam a blocked term (one in a single word wider than the dock), another a
 * link, and the streamer times a fourth out. In the dock, filtered to auto-moderation and the blocked-term rule,
 * the Mod log shows the two removals and nothing else, and nothing scrolls sideways; narrowed to one chatter, the
 * one; filtered to what can be undone, the streamer's timeout is undone on Kick from there.
 *
 * Saves test-results/journeys/mod-log-tab.png (docs/screenshots/ with GREENROOM_UPDATE_SCREENSHOTS=1).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AUTOMOD_SETTINGS } from '../../shared/automod';
import { newContext, openPanel, value } from './panel';
import { screenshot, startOverlayWorld, type OverlayWorld } from './overlay-fixtures';
import { STREAMER_USER_ID } from './sandbox-admin';
import { launchWithScrollbars, openTab, sidewaysScroll } from './tabs-fixtures';

const WAIT = { timeout: 20_000 };
const DOCK = { width: 340, height: 720 };
const SPAMMER = 100101;
const LINKER = 100102;
const TIMED_OUT = 100105;
const LONG_WORD = 100106;

interface SandboxChat {
  messages: { message_id: string; deleted: boolean }[];
}
interface SandboxBans {
  bans: { user_id: number }[];
}

describe('journey: the Mod log tab during a chat storm', () => {
  let world: OverlayWorld;
  let browser: Browser;
  let page: Page;
  let term: string;

  beforeAll(async () => {
    world = await startOverlayWorld();
    browser = await launchWithScrollbars();
    const automod = structuredClone(DEFAULT_AUTOMOD_SETTINGS);
    automod.enabled = true;
    automod.dryRun = false;
    automod.blockedTerms.terms = [{ pattern: 'free followers', kind: 'plain' }];
    automod.blockedTerms.action = { kind: 'delete', minutes: 5 };
    automod.links = {
      enabled: true,
      allow: ['kick.com'],
      allowSeenChatters: false,
      action: { kind: 'delete', minutes: 5 },
    };
    await value(world.panel.api.settings.update({ automod }));
  });

  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  const sandboxChat = async () =>
    (await world.sandbox.admin.call<SandboxChat>('GET', `/channels/${STREAMER_USER_ID}/chat?limit=200`)).messages;
  const bans = async () =>
    (await world.sandbox.admin.call<SandboxBans>('GET', `/channels/${STREAMER_USER_ID}/bans`)).bans.map(
      (b) => b.user_id,
    );

  it('shows the automatic removal in the dock, filtered to auto-moderation and the rule', async () => {
    // The storm runs on the sandbox's own timers; the spam and the streamer's timeout land in the middle of it.
    await world.sandbox.admin.call('POST', '/scenarios/chat-storm', {});
    const rude = await world.sandbox.admin.chat('this streamer is trash', TIMED_OUT);
    term = await world.sandbox.admin.chat('get FREE followers at once', SPAMMER);
    await world.sandbox.admin.chat('cheap views at viewbot.shop/now', LINKER);
    // A line no dock is wide enough for, in one word.
    const long = await world.sandbox.admin.chat(`free followers ${'z'.repeat(300)}`, LONG_WORD);
    // The streamer times out the rude viewer once their line is in Greenroom's chat.
    await expect
      .poll(async () => (await value(world.panel.api.chat.history())).some((m) => m.messageId === rude), WAIT)
      .toBe(true);
    await value(world.panel.api.mod.timeout({ userId: TIMED_OUT, minutes: 10 }));
    const deleted = async () => (await sandboxChat()).filter((m) => m.deleted).map((m) => m.message_id);
    await expect.poll(deleted, WAIT).toEqual(expect.arrayContaining([term, long]));

    page = await openPanel(await newContext(browser, DOCK), world.app);
    await openTab(page, 'Mod log');
    const log = page.getByRole('region', { name: 'Mod log' });
    const rows = log.getByRole('listitem');
    // Everything is listed at first: the two removals and the streamer's timeout.
    await expect.poll(() => rows.count(), WAIT).toBeGreaterThanOrEqual(3);

    await log.getByLabel('Who').selectOption({ label: 'Auto-moderation' });
    await log.getByLabel('Rule').selectOption({ label: 'Blocked term' });
    await expect.poll(() => rows.count(), WAIT).toBe(2);
    // The one-word line wraps inside the dock.
    expect(await sidewaysScroll(page)).toEqual([]);
    const spammer = (await value(world.panel.api.mod.log())).find((a) => a.messageId === term)!.targetUsername!;
    await log.getByLabel('Chatter').fill(spammer.slice(0, 5));
    await log.getByLabel('Chatter').blur();
    await expect.poll(() => rows.count(), WAIT).toBe(1);
    const row = rows.first();
    const text = await row.textContent();
    expect(text).toContain('automod delete');
    expect(text).toContain('Blocked term');
    expect(text).toContain('get FREE followers at once');
    expect(await log.getByRole('status').first().textContent()).toMatch(/^\s*Showing 1 of \d+ actions?/);
    expect(text).toContain(spammer);
    // The row is in sight in the dock, nothing scrolls sideways, and a delete has no Undo.
    const box = (await row.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(DOCK.width);
    expect(box.y + box.height).toBeLessThanOrEqual(DOCK.height);
    expect(await sidewaysScroll(page)).toEqual([]);
    expect(await row.getByRole('button', { name: /^Undo/ }).count()).toBe(0);
    await screenshot(page, 'mod-log-tab');
  });

  it("undoes the streamer's timeout from the dock, filtered to what can be undone", async () => {
    const log = page.getByRole('region', { name: 'Mod log' });
    await log.getByRole('button', { name: 'Clear filters' }).click();
    await log.getByLabel('Can undo').check();
    const timeout = (await value(world.panel.api.mod.log())).find(
      (a) => a.kind === 'timeout' && a.targetUserId === TIMED_OUT,
    )!;
    const undo = log.getByRole('button', { name: `Undo timeout of ${timeout.targetUsername}` });
    // Only what can be undone is listed: the automatic deletes cannot be.
    await expect.poll(() => log.getByRole('listitem').count(), WAIT).toBe(1);
    expect(await bans()).toContain(TIMED_OUT);
    await undo.click();
    await expect.poll(bans, WAIT).not.toContain(TIMED_OUT);
    // Lifted, it no longer has Undo, and the "Can undo" list is empty.
    await undo.waitFor({ state: 'detached', ...WAIT });
    await log.getByText('Nothing matches these filters.').waitFor(WAIT);
    await page.context().close();
  });
});
