/**
 * The panel's words as a streamer reads them, in Debian's Chromium against the embedded sandbox's signed
 * webhooks: a ban reads from the banned viewer ("ivory_imp was banned by sandbox_streamer"), never with the
 * viewer's name twice; amounts are grouped ("1,000 KICKs"); every count takes the right plural; and no
 * section runs two sentences together ("Greenroom.The sandbox…").
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { triggerEvent } from '../../sandbox/triggers';
import { openSection } from '../helpers/panel-tabs';
import { type E2E, flushDeliveries, startE2E } from './harness';
import { signIn } from './sign-in';

const WAIT = { timeout: 15_000 };
const MINUTE_MS = 60_000;

describe('panel wording', () => {
  let e2e: E2E;
  let page: Page;

  beforeAll(async () => {
    e2e = await startE2E();
    page = e2e.page;
    await signIn(e2e);
    await openSection(page, 'Activity');
  });

  afterAll(async () => {
    await e2e?.close();
  });

  /** The feed row that mentions `marker`, once it has arrived. */
  async function row(marker: string): Promise<Locator> {
    const found = page.locator('#main-panel-activity li').filter({ hasText: marker }).first();
    await found.waitFor(WAIT);
    return found;
  }

  /** The row's words as they read on screen, spaces collapsed. */
  async function words(found: Locator): Promise<string> {
    return (await found.innerText()).replace(/\s+/g, ' ').trim();
  }

  async function fire(type: string, overrides: Record<string, unknown>): Promise<void> {
    triggerEvent(e2e.sandbox.ctx, type, { overrides });
    await flushDeliveries(e2e.sandbox);
  }

  it("reads a ban from the banned viewer's side, naming who banned them once", async () => {
    await fire('moderation.banned', {
      'banned_user.username': 'ivory_imp',
      'moderator.username': 'sandbox_streamer',
      'metadata.reason': 'spam links',
      'metadata.expires_at': null,
    });
    const text = await words(await row('spam links'));
    expect(text).toContain("ivory_imp was banned by sandbox_streamer: 'spam links'");
    expect(text.match(/ivory_imp/g)).toHaveLength(1);
  });

  it('reads a timeout with its length in words, singular for one', async () => {
    const now = Date.now();
    await fire('moderation.banned', {
      'banned_user.username': 'copper_fox',
      'moderator.username': 'sandbox_mod',
      'metadata.reason': 'cool off',
      'metadata.created_at': new Date(now).toISOString(),
      'metadata.expires_at': new Date(now + 60 * MINUTE_MS).toISOString(),
    });
    expect(await words(await row('cool off'))).toContain(
      "copper_fox was timed out for 1 hour by sandbox_mod: 'cool off'",
    );
  });

  it('groups an amount by thousands and gives it its plural', async () => {
    await fire('kicks.gifted', { 'gift.amount': 1000, 'gift.name': 'Pack It Up', 'gift.message': 'big one' });
    expect(await words(await row('big one'))).toMatch(/sent 1,000 KICKs \(Pack It Up\): 'big one'/);
    await fire('kicks.gifted', { 'gift.amount': 1, 'gift.name': 'Hell Yeah', 'gift.message': 'small one' });
    expect(await words(await row('small one'))).toMatch(/sent 1 KICK \(Hell Yeah\): 'small one'/);
  });

  it('runs no two sentences together in any section', async () => {
    const sections = ['Activity', 'Mod log', 'Redemptions', 'Rewards', 'Ads', 'Stream', 'Overlays'];
    const glued: string[] = [];
    for (const section of [...sections, 'Automation', 'KICKs', 'Health', 'Settings']) {
      await openSection(page, section);
      const text = await page.getByRole('tabpanel').first().innerText();
      // A full stop, then a capital with no space: two sentences glued where a template dropped a space.
      for (const match of text.matchAll(/[A-Za-z]*[a-z]{2}[.!?][A-Z][a-z]+/g)) {
        glued.push(`${section}: ${match[0]}`);
      }
    }
    expect(glued).toEqual([]);
  });
});
