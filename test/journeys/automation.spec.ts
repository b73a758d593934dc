/**
 * Journey: the built app against a standalone sandbox, the
 * panel in Chromium. A command is written in the Automation tab and answers a viewer; a blocked term is
 * added and a message tested against it; the settings leave as a JSON file and come back from an edited
 * one; the header switch pauses the bot, and nothing is posted while it is off. What the bot posts is read
 * from the sandbox's chat (messages of type `bot`), as a viewer on Kick would see them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPanel, value } from './panel';
import { screenshot, startOverlayWorld, type OverlayWorld } from './overlay-fixtures';
import { STREAMER_USER_ID } from './sandbox-admin';
import { openSection } from '../helpers/panel-tabs';

const WAIT = { timeout: 20_000 };

describe('journey: automation edited in the panel', () => {
  let world: OverlayWorld;
  let page: Page;
  const botLines = async (): Promise<string[]> =>
    (
      await world.sandbox.admin.call<{ messages: { content: string; type: string }[] }>(
        'GET',
        `/channels/${STREAMER_USER_ID}/chat?limit=200`,
      )
    ).messages
      .filter((m) => m.type === 'bot')
      .map((m) => m.content);

  beforeAll(async () => {
    world = await startOverlayWorld();
    const context = await world.browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page = await openPanel(context, world.app);
    await openSection(page, 'Automation');
  });

  afterAll(async () => {
    await world?.close();
  });

  it('a command written in the panel answers a viewer', async () => {
    const bot = page.getByRole('form', { name: 'Commands, timers and event replies' });
    await bot.getByRole('button', { name: 'Add command' }).click();
    const command = bot.getByRole('group', { name: 'Command !command1' });
    await command.getByLabel('Command name').fill('discord');
    await bot.getByLabel('Reply', { exact: true }).fill('Join us: discord.gg/greenroom ({user})');
    await bot.getByRole('button', { name: 'Save commands, timers and replies' }).click();
    await page.getByText('Commands, timers and replies saved.').waitFor(WAIT);
    expect((await value(world.panel.api.settings.get())).chatBot.commands[0]).toMatchObject({
      name: 'discord',
      reply: 'Join us: discord.gg/greenroom ({user})',
    });
    await world.sandbox.admin.chat('!discord', 100101);
    await expect.poll(botLines, WAIT).toEqual(['Join us: discord.gg/greenroom (nightowl_tv)']);
  });

  it('a blocked term added in the panel catches a test message, and a bad regex is refused at Add', async () => {
    const rules = page.getByRole('form', { name: 'Auto-moderation rules' });
    await rules.getByLabel('Judge every message before it is shown').check();
    await rules.getByLabel('Term', { exact: true }).fill('free followers');
    await rules.getByRole('button', { name: 'Add term' }).click();
    await rules.getByRole('button', { name: 'Save auto-moderation' }).click();
    await page.getByText('Auto-moderation saved.').waitFor(WAIT);

    // A regular expression that could stall chat on one crafted message is refused at Add, with the reason.
    await rules.getByLabel('Term', { exact: true }).fill('(a+)+$');
    await rules.getByLabel('Kind').selectOption('regex');
    await rules.getByRole('button', { name: 'Add term' }).click();
    await expect
      .poll(() => rules.locator('#term-add-error').textContent(), WAIT)
      .toMatch(/^This regular expression cannot be used: a repeated group may not contain another repetition/);
    expect(await rules.getByRole('button', { name: 'Remove blocked term (a+)+$' }).count()).toBe(0);
    expect((await value(world.panel.api.settings.get())).automod.blockedTerms.terms).toHaveLength(1);

    const test = page.getByRole('group', { name: 'Test a message' });
    await test.getByLabel('Message').fill('get FREE followers today');
    await test.getByRole('button', { name: 'Test' }).click();
    await test.getByText(/Would be flagged \(dry run\): blocked term .*free followers/i).waitFor(WAIT);
    await test.getByLabel('Badge').selectOption('moderator');
    await test.getByRole('button', { name: 'Test' }).click();
    await test.getByText('Passes: no rule matches.').waitFor(WAIT);
    await screenshot(page, 'automation-tab');
  });

  it('exports to a JSON file and imports an edited one', async () => {
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export to a file' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('greenroom-automation.json');
    const path = join(world.dataDir, 'export.json');
    await download.saveAs(path);
    const file = JSON.parse(readFileSync(path, 'utf8')) as {
      kind: string;
      automod: { blockedTerms: { terms: { pattern: string }[] } };
      chatBot: { timers: unknown[] };
    };
    expect(file.kind).toBe('greenroom-automation');
    expect(file.automod.blockedTerms.terms.map((t) => t.pattern)).toEqual(['free followers']);

    file.chatBot.timers = [{ message: 'Follow for more!', everySec: 600, minMessages: 5, enabled: true }];
    writeFileSync(path, JSON.stringify(file));
    await page.getByLabel('Import a file').setInputFiles(path);
    // Nothing is saved until the confirm's Replace, which lists what the file changes.
    const confirm = page.getByRole('dialog', { name: 'Replace your automation setup?' });
    await confirm.getByText('Timers: 0 timers → 1 timer').waitFor(WAIT);
    await confirm.getByRole('button', { name: 'Replace' }).click();
    await page.getByText(/^Imported/).waitFor(WAIT);
    await page.getByRole('group', { name: 'Timer 1' }).waitFor(WAIT);
    expect((await value(world.panel.api.settings.get())).chatBot.timers).toEqual(file.chatBot.timers);

    // A file that is not an export changes nothing and says why.
    writeFileSync(path, JSON.stringify({ hello: 'world' }));
    await page.getByLabel('Import a file').setInputFiles(path);
    await page.getByText(/not a Greenroom automation export/).waitFor(WAIT);
    expect((await value(world.panel.api.settings.get())).chatBot.timers).toHaveLength(1);
  });

  it('the header switch pauses the bot: nothing is posted until it is back on', async () => {
    const before = (await botLines()).length;
    const header = page.locator('header.top');
    await header.getByRole('switch').uncheck();
    await header.getByText('Bot paused').waitFor(WAIT);
    expect((await value(world.panel.api.settings.get())).chatBot.paused).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 31_000)); // the command's 30 s cooldown
    await world.sandbox.admin.chat('!discord', 100102);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await botLines()).toHaveLength(before);

    await header.getByRole('switch').check();
    await header.getByText('Bot on').waitFor(WAIT);
    await world.sandbox.admin.chat('!discord', 100102);
    await expect.poll(async () => (await botLines()).length, WAIT).toBe(before + 1);
  });

  it('fits a 340 px OBS dock: the Automation tab and Settings → Chat tools never scroll sideways', async () => {
    const context = await world.browser.newContext({ viewport: { width: 340, height: 900 }, colorScheme: 'dark' });
    const dock = await openPanel(context, world.app);
    const overflow = () =>
      dock.evaluate(
        `[...document.querySelectorAll('.tab-panel, header.top')].some((el) => el.scrollWidth > el.clientWidth + 1)`,
      );
    await openSection(dock, 'Automation');
    await dock.getByRole('form', { name: 'Auto-moderation rules' }).waitFor(WAIT);
    expect(await overflow()).toBe(false);
    await openSection(dock, 'Settings');
    await dock.locator('.chat-tools').waitFor(WAIT);
    expect(await overflow()).toBe(false);
    await context.close();
  });
});
