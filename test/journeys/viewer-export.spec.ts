/**
 * Journey: one viewer's export for a ban appeal, and the history in Health and Settings
 * ([history](../../docs/history.md#one-viewers-export)). The built app runs on Node 24 (`node:sqlite`) against its
 * embedded sandbox, signed in from the panel. A viewer whose name is a path and whose chat starts like spreadsheet
 * formulas chats and is banned on Kick with a reason; the streamer opens their card in Chromium and saves
 * "Export CSV": the download's name is the name's safe characters only, every line is in it, and no cell would
 * run. Health's card says the history is kept, with its streams; Settings refuses a retention over the limit at
 * the field.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SETTINGS_FILE_NAME } from '../../electron/app/settings';
import { KICK_EVENT_TYPES } from '../../shared/kick/scopes';
import { openSection } from '../helpers/panel-tabs';
import { type AppRun, killLeftovers, startApp } from './app-process';
import { connectPanel, launchChromium, newContext, openPanel, type PanelClient, signInFromPanel, value } from './panel';
import { embeddedSandbox, type SandboxAdmin } from './sandbox-admin';
import { freePort } from './webhook-recorder';

const WAIT = { timeout: 30_000 };
const NAME = '../../etc/passwd';
const LINES = ['=cmd|"/c calc"!A0', '+1, "agreed"', '@here look', 'plain words'];

describe("journey: one viewer's export, Health and Settings for the history", () => {
  let dataDir: string;
  let browser: Browser;
  let app: AppRun;
  let admin: SandboxAdmin;
  let panel: PanelClient;
  let page: Page;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'greenroom-journey-viewer-export-'));
    writeFileSync(
      join(dataDir, `${SETTINGS_FILE_NAME}.json`),
      JSON.stringify({ redirectUri: `http://127.0.0.1:${await freePort()}/callback` }),
    );
    browser = await launchChromium();
    app = await startApp({ dataDir, node: '24' });
    admin = await embeddedSandbox(app);
    panel = connectPanel(app);
    await vi.waitFor(async () => expect((await value(panel.api.history.status())).state).toBe('ready'), WAIT);
    page = await openPanel(await newContext(browser, { width: 420, height: 900 }), app);
    const guide = page.getByRole('dialog', { name: 'Set up Greenroom' });
    await guide.waitFor(WAIT);
    await guide.getByRole('button', { name: 'Close setup' }).click();
    await signInFromPanel(page, app);
    await vi.waitFor(async () => expect((await admin.counts()).eventSubscriptions).toBe(KICK_EVENT_TYPES.length), WAIT);
  }, 120_000);

  afterAll(async () => {
    panel?.close();
    await browser?.close();
    await app?.stop();
    await killLeftovers();
    if (dataDir) {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('saves a hostile viewer’s history from their card, safely named, every line in it, nothing that runs', async () => {
    const [live] = await admin.trigger('livestream.status.updated', { overrides: { is_live: true } });
    const streamId = Date.parse(String(live!.started_at));
    await expect.poll(async () => (await value(panel.api.history.status())).liveStreamId, WAIT).toBe(streamId);
    const user = { user_id: 771_001, username: NAME };
    for (const content of LINES) {
      await admin.trigger('chat.message.sent', { overrides: { sender: user, content } });
    }
    await admin.trigger('moderation.banned', {
      overrides: { banned_user: user, metadata: { reason: '=HYPERLINK("http://evil")', expires_at: null } },
    });
    await expect
      .poll(async () => {
        const story = await value(panel.api.history.viewer({ userId: user.user_id }));
        return story && { messages: story.messages, bans: story.moderation.length };
      }, WAIT)
      .toEqual({ messages: LINES.length, bans: 1 });

    const line = page.locator('article.msg', { hasText: 'plain words' }).first();
    await line.waitFor(WAIT);
    await line.locator('button.name').click();
    const card = page.getByRole('dialog', { name: NAME });
    const exportGroup = card.getByRole('group', { name: "Export this viewer's history" });
    await exportGroup.waitFor(WAIT);
    const [download] = await Promise.all([
      page.waitForEvent('download', WAIT),
      exportGroup.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const fileName = download.suggestedFilename();
    expect(fileName).toMatch(/^greenroom-viewer-etc_passwd-771001-\d{4}-\d\d-\d\d-\d{4}\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8');
    for (const content of LINES) {
      const cell = /^[=+\-@]/.test(content) ? `'${content}` : content;
      expect(csv).toContain(/[",]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);
    }
    expect(csv).toContain(`"'=HYPERLINK(""http://evil"")"`);
    // No line of the file has a cell that starts like a formula without the quote mark.
    expect(csv.split('\r\n').some((row) => /(^|,)"?[=+@]/.test(row))).toBe(false);
    await card.getByText(`Saved as ${fileName}.`).waitFor(WAIT);
    await card.getByRole('button', { name: 'Close user card' }).click();
  }, 120_000);

  it('Health says the history is kept, with its streams; Settings refuses days over the limit at the field', async () => {
    await openSection(page, 'Health');
    const history = page.getByRole('region', { name: 'Stream history' });
    await history.getByText('Keeping the history', { exact: true }).waitFor(WAIT);
    await expect.poll(async () => history.textContent(), WAIT).toMatch(/on disk, 1 stream kept\./);

    await openSection(page, 'Settings');
    const field = page.getByLabel('Keep chat lines for (days)');
    await expect.poll(async () => field.inputValue(), WAIT).toBe('90');
    await field.fill('36501');
    const form = page.locator('form', { has: field });
    await form.getByText('Keep chat lines: a whole number of days from 1 to 36,500 (100 years).').waitFor(WAIT);
    expect(await form.getByRole('button', { name: 'Save stream history' }).isDisabled()).toBe(true);
    await field.fill('30');
    await form.getByRole('button', { name: 'Save stream history' }).click();
    await expect.poll(async () => (await value(panel.api.history.status())).chatDays, WAIT).toBe(30);
  }, 120_000);
});
