/**
 * Journey: importing an automation file never replaces a streamer's setup silently or wrongly
 * (docs/automod.md, "Import and export"). The built app against a standalone sandbox, the panel in Chromium
 * choosing files in the Automation tab's Import control, as a streamer would; what was saved is read back
 * through the contract.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { DEFAULT_AUTOMOD_SETTINGS } from '../../shared/automod';
import { DEFAULT_CHAT_BOT_SETTINGS } from '../../shared/chat-bot';
import { openPanel, value } from './panel';
import { screenshot, startOverlayWorld, type OverlayWorld } from './overlay-fixtures';
import { openSection } from '../helpers/panel-tabs';

const WAIT = { timeout: 20_000 };

describe('journey: importing an automation file', () => {
  let world: OverlayWorld;
  let page: Page;
  let n = 0;
  /** Writes `content` as a file in the data dir and chooses it in the Import control. */
  const choose = async (content: string | Buffer): Promise<void> => {
    const path = join(world.dataDir, `import-${++n}.json`);
    writeFileSync(path, content);
    await page.getByLabel('Import a file').setInputFiles(path);
  };
  const saved = async () => {
    const settings = await value(world.panel.api.settings.get());
    return { automod: settings.automod, chatBot: settings.chatBot };
  };
  const importError = () => page.locator('#import-error');
  /**
   * Waits until the panel has answered a chosen file: `expected`, or what the import did before it had a
   * confirm (saved at once, or failed on the socket), so a test reads what was saved only after that.
   */
  const answered = (expected: Locator) =>
    expected
      .or(page.getByText(/^Imported|could not reach Kick|is refused/))
      .first()
      .waitFor(WAIT);

  beforeAll(async () => {
    world = await startOverlayWorld();
    // A setup built up over time: 12 blocked terms, 5 commands, 2 timers.
    const automod = structuredClone(DEFAULT_AUTOMOD_SETTINGS);
    automod.enabled = true;
    automod.blockedTerms.terms = Array.from({ length: 12 }, (_, i) => ({ pattern: `spam ${i}`, kind: 'plain' }));
    const chatBot = structuredClone(DEFAULT_CHAT_BOT_SETTINGS);
    chatBot.commands = ['discord', 'socials', 'uptime', 'specs', 'lurk'].map((name) => ({
      name,
      aliases: [],
      reply: `Here is ${name}`,
      permission: 'everyone',
      cooldownSec: 30,
      userCooldownSec: 0,
      sendAs: 'bot',
      enabled: true,
    }));
    chatBot.timers = [
      { message: 'Follow for more!', everySec: 900, minMessages: 10, enabled: true },
      { message: 'Join the discord', everySec: 1200, minMessages: 10, enabled: true },
    ];
    await value(world.panel.api.settings.update({ automod, chatBot }));
    const context = await world.browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await openPanel(context, world.app);
    await openSection(page, 'Automation');
    await page.getByRole('form', { name: 'Auto-moderation rules' }).waitFor(WAIT);
  });

  afterAll(async () => {
    await world?.close();
  });

  it('refuses a file whose sections hold only __proto__ and constructor; the setup stays', async () => {
    const before = await saved();
    await choose(
      '{"kind":"greenroom-automation","version":1,"automod":{"__proto__":{"enabled":false},"constructor":{}},' +
        '"chatBot":{"__proto__":{"commands":[]},"constructor":{"prototype":{}}}}',
    );
    const refusal = importError().getByText(/holds none of the rules, commands, timers, replies or OBS actions/);
    await answered(refusal);
    expect(await saved()).toEqual(before);
    expect((await saved()).automod.blockedTerms.terms).toHaveLength(12);
    expect(await refusal.isVisible()).toBe(true);
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('names the risks of a file with a ban in earnest, {args} sent as the streamer and an unsafe regex', async () => {
    const file = {
      kind: 'greenroom-automation',
      version: 1,
      automod: {
        dryRun: false,
        blockedTerms: {
          terms: [
            { pattern: '(\\w)\\1{9}', kind: 'regex' },
            { pattern: 'free followers', kind: 'plain' },
          ],
          action: { kind: 'ban' },
        },
      },
      chatBot: { commands: [{ name: 'say', reply: 'Chat says: {args}', sendAs: 'user' }] },
    };
    await choose(JSON.stringify(file));
    const confirm = page.getByRole('dialog', { name: 'Replace your automation setup?' });
    await answered(confirm);
    expect((await saved()).automod.dryRun).toBe(true);
    expect(await confirm.isVisible()).toBe(true);
    const replaces = confirm.getByRole('list', { name: 'Replaces' });
    await replaces.getByText('Blocked terms: 12 terms, on, delete → 1 term, on, ban').waitFor(WAIT);
    await replaces.getByText('Commands: 5 commands → 1 command').waitFor(WAIT);
    await confirm.getByText(/kept as they are: .*Timers/).waitFor(WAIT);
    const risks = confirm.getByRole('group', { name: 'Check before replacing' });
    await risks.getByText('Blocked terms bans viewers on Kick for real (dry run is off).').waitFor(WAIT);
    await risks.getByText('!say posts from your account with text a viewer chose ({args}).').waitFor(WAIT);
    await risks.getByText(/^Left out: The regular expression \(\\w\)\\1\{9\} is refused/).waitFor(WAIT);
    await screenshot(page, 'automation-import-confirm');

    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('Import cancelled. Nothing was changed.').waitFor(WAIT);
    expect((await saved()).automod.dryRun).toBe(true);

    await choose(JSON.stringify(file));
    await confirm.getByRole('button', { name: 'Replace' }).click();
    await page.getByText(/^Imported: 3 parts of your setup replaced/).waitFor(WAIT);
    const after = await saved();
    expect(after.automod.blockedTerms.terms).toEqual([{ pattern: 'free followers', kind: 'plain' }]);
    expect(after.automod.dryRun).toBe(false);
    expect(after.chatBot.commands.map((c) => c.name)).toEqual(['say']);
    expect(after.chatBot.timers).toHaveLength(2);
  });

  it('refuses a 50 MB export by its size before sending anything; the panel stays connected', async () => {
    const before = await saved();
    // A well-formed export whose term list alone would need a 50 MB socket frame.
    const head = '{"kind":"greenroom-automation","version":1,"chatBot":{},"automod":{"blockedTerms":{"terms":[';
    const term = '{"pattern":"free followers now"},';
    const count = Math.floor((50_000_000 - head.length - 40) / term.length);
    const text = `${head}${term.repeat(count)}{"pattern":"x"}]}}}`;
    await choose(text.padEnd(50_000_000, ' '));
    const refusal = importError().getByText(
      'This file is 50.0 MB; the limit is 2 MB. Choose a file exported from Greenroom’s Automation tab.',
    );
    await answered(refusal);
    expect(await page.getByText(/could not reach Kick/).count()).toBe(0);
    expect(await saved()).toEqual(before);
    expect(await refusal.isVisible()).toBe(true);
    // The socket was never asked to carry it: the page's next request goes through.
    const test = page.getByRole('group', { name: 'Test a message' });
    await test.getByLabel('Message').fill('hello chat');
    await test.getByRole('button', { name: 'Test' }).click();
    await test.getByText('Passes: no rule matches.').waitFor(WAIT);
  });

  it.each([
    [
      'an image',
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xd8, 0x00, 0x81]),
      /not a text file/,
    ],
    [
      '5,000 terms within the size limit',
      JSON.stringify({
        kind: 'greenroom-automation',
        automod: { blockedTerms: { terms: Array.from({ length: 5000 }, (_, i) => ({ pattern: `t${i}` })) } },
      }),
      /^Blocked terms in this file: at most 1,000 \(it has 5,000\)/,
    ],
    [
      'deeply nested JSON in a section',
      `{"kind":"greenroom-automation","chatBot":{"timers":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`,
      /^Timers in this file, number 1: not in the form/,
    ],
    [
      'sections of the wrong type',
      '{"kind":"greenroom-automation","automod":[],"chatBot":"yes"}',
      /auto-moderation rules in this file are not in the form/,
    ],
  ])('refuses %s with a plain reason and changes nothing', async (_name, content, reason) => {
    const before = await saved();
    await choose(content);
    await answered(importError().getByText(reason));
    expect(await saved()).toEqual(before);
    expect(await importError().getByText(reason).isVisible()).toBe(true);
    expect(await page.getByRole('dialog').count()).toBe(0);
  });
});
