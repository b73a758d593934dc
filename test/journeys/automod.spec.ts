/**
 * Journey (auto-moderation): the built app against a standalone sandbox, rules set through the
 * contract as the panel saves them. A spam wave from the sandbox's viewers (a blocked term, a link from a
 * first-time chatter, the same line three times) is removed before the panel shows it: the sandbox's own
 * state shows the deletes and the timeout Greenroom sent, the moderator's and an ordinary viewer's lines
 * pass, and the mod log names each rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AUTOMOD_SETTINGS } from '../../shared/automod';
import { openPanel, value } from './panel';
import { screenshot, startOverlayWorld, type OverlayWorld } from './overlay-fixtures';
import { STREAMER_USER_ID } from './sandbox-admin';

const WAIT = { timeout: 15_000 };
const MODERATOR = 100003;

interface SandboxChat {
  messages: { message_id: string; deleted: boolean }[];
}
interface SandboxBans {
  bans: { user_id: number; expires_at: string | null; reason: string }[];
}

describe('journey: auto-moderation', () => {
  let world: OverlayWorld;

  beforeAll(async () => {
    world = await startOverlayWorld();
    const automod = structuredClone(DEFAULT_AUTOMOD_SETTINGS);
    automod.enabled = true;
    automod.dryRun = false;
    automod.exemptBadges = ['moderator'];
    automod.blockedTerms.terms = [{ pattern: 'free followers', kind: 'plain' }];
    automod.blockedTerms.action = { kind: 'delete', minutes: 5 };
    automod.links = {
      enabled: true,
      allow: ['kick.com'],
      allowSeenChatters: false,
      action: { kind: 'delete', minutes: 5 },
    };
    automod.repeatedMessages = { enabled: true, count: 3, windowSec: 60, action: { kind: 'timeout', minutes: 2 } };
    await value(world.panel.api.settings.update({ automod }));
  });

  afterAll(async () => {
    await world?.close();
  });

  it('removes a spam wave on Kick while the moderator and ordinary chat pass', async () => {
    const chat = (content: string, userId: number) => world.sandbox.admin.chat(content, userId);
    const term = await chat('get FREE followers at once', 100101);
    const link = await chat('cheap views at viewbot.shop/now', 100102);
    const repeats = [
      await chat('follow my channel pls', 100104),
      await chat('follow my channel pls', 100104),
      await chat('follow my channel pls', 100104),
    ];
    const moderator = await chat('free followers offers are a scam, ignore them', MODERATOR);
    const ordinary = await chat('what a clutch', 100105);

    const sandboxChat = async () =>
      (await world.sandbox.admin.call<SandboxChat>('GET', `/channels/${STREAMER_USER_ID}/chat?limit=100`)).messages;
    const deleted = async () => (await sandboxChat()).filter((m) => m.deleted).map((m) => m.message_id);
    await expect.poll(deleted, WAIT).toEqual(expect.arrayContaining([term, link]));
    const bans = async () =>
      (await world.sandbox.admin.call<SandboxBans>('GET', `/channels/${STREAMER_USER_ID}/bans`)).bans;
    await expect.poll(async () => (await bans()).map((b) => b.user_id), WAIT).toEqual([100104]);
    const [timeout] = await bans();
    expect(timeout!.expires_at).not.toBeNull();
    expect(timeout!.reason).toBe('Automod: the same message 3 times');

    // Nothing of the moderator's or the ordinary viewer's was touched on Kick.
    const kept = (await sandboxChat()).filter((m) => [moderator, ordinary, repeats[0]].includes(m.message_id));
    expect(kept.every((m) => !m.deleted)).toBe(true);

    // Greenroom's chat never showed the removed lines; the others are there.
    const history = await value(world.panel.api.chat.history());
    const shown = (id: string) => history.find((m) => m.messageId === id);
    expect(shown(term)?.deleted).toBe(true);
    expect(shown(link)?.deleted).toBe(true);
    // The third of the same line is removed; Kick may deliver the three in any order, so which one is open.
    expect(repeats.filter((id) => shown(id)?.deleted)).toHaveLength(1);
    expect(shown(moderator)?.deleted).toBe(false);
    expect(shown(ordinary)?.deleted).toBe(false);

    // Kick delivers concurrently, so the spam lines (and the actions on them) may land in any order.
    const log = await value(world.panel.api.mod.log());
    const actions = log.filter((a) => a.auto).map((a) => `${a.kind} ${a.auto!.rule}`);
    expect(actions.sort()).toEqual(['delete blocked-term', 'delete link', 'timeout repeated-message']);
  });

  it('shows the automatic actions in the mod log', async () => {
    const page = await openPanel(await world.browser.newContext({ viewport: { width: 1100, height: 800 } }), world.app);
    await page.getByRole('tab', { name: 'Mod log' }).click();
    const log = page.getByRole('region', { name: 'Mod log' });
    await log.getByText('automod timeout').waitFor(WAIT);
    await screenshot(page, 'automod-mod-log');
  });

  it('undoes the automatic timeout from the mod log: lifted on Kick, the message shown again', async () => {
    const page = await openPanel(await world.browser.newContext({ viewport: { width: 1100, height: 800 } }), world.app);
    await page.getByRole('tab', { name: 'Mod log' }).click();
    const log = page.getByRole('region', { name: 'Mod log' });
    // An automatic delete has no Undo: Kick cannot bring the message back.
    expect(await log.getByRole('button', { name: /^Undo automod delete/ }).count()).toBe(0);
    await log.getByRole('button', { name: /^Undo automod timeout/ }).click();
    await log.getByRole('listitem').getByText('shown again').waitFor(WAIT);
    const bans = async () =>
      (await world.sandbox.admin.call<SandboxBans>('GET', `/channels/${STREAMER_USER_ID}/bans`)).bans;
    await expect.poll(async () => (await bans()).length, WAIT).toBe(0);
    const timeout = (await value(world.panel.api.mod.log())).find((a) => a.auto && a.kind === 'timeout')!;
    const history = await value(world.panel.api.chat.history());
    expect(history.find((m) => m.messageId === timeout.messageId)?.deleted).toBe(false);
    // The panel that watched it shows the line again, no longer struck through.
    const line = page.locator(`article[data-message-id="${timeout.messageId}"]`);
    await expect.poll(async () => (await line.getAttribute('class')) ?? 'missing', WAIT).not.toMatch(/deleted|missing/);
    expect(await log.getByRole('button', { name: /^Undo automod timeout/ }).count()).toBe(0);
  });

  it('answers "test a message" against the rules without acting', async () => {
    expect(await value(world.panel.api.automod.test({ content: 'FREE FOLLOWERS here', badges: [] }))).toMatchObject({
      rule: 'blocked-term',
      action: { kind: 'delete' },
    });
    expect(
      await value(world.panel.api.automod.test({ content: 'FREE FOLLOWERS here', badges: ['moderator'] })),
    ).toBeNull();
    expect(await value(world.panel.api.automod.test({ content: 'hello', badges: [] }))).toBeNull();
  });
});
