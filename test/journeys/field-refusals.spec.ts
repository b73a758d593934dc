/**
 * Journey: every refusal at the field, in a streamer's words ([docs/settings.md](../../docs/settings.md#when-a-save-is-refused)).
 * The built app on its embedded sandbox, the panel in Chromium:
 *
 * 1. Auto-moderation: `[unclosed`, `(a+)+$` and a pattern over the length limit are refused at "Add term",
 *    with the reason beside the input, and never reach the list. A hand-edited settings file holds an unsafe
 *    pattern the panel never checked: Save is refused, that row is marked with the reason, and the top of the
 *    form says nothing was saved, with `settings:update` and the field path only behind "Details".
 * 2. Settings: a redirect on port 99999 is refused beside the Redirect field ("The port must be between 1
 *    and 65535"); one on the panel's own port, written as IPv6 loopback, and one on the webhook receiver's
 *    port, are refused by main on Save beside the field, naming the port's use and a port to pick; nothing
 *    is saved.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_FILE_NAME } from '../../electron/app/settings';
import { SETTINGS_VERSION } from '../../electron/app/settings-migrations';
import { DEFAULT_AUTOMOD_SETTINGS } from '../../shared/automod';
import { openSection } from '../helpers/panel-tabs';
import { type AppRun, killLeftovers, startApp } from './app-process';
import { connectPanel, launchChromium, newContext, openPanel, type PanelClient, value } from './panel';
import { freePort } from './webhook-recorder';

const WAIT = { timeout: 15_000 };

describe('journey: refusals at the field', () => {
  let dataDir: string;
  let browser: Browser;
  let app: AppRun;
  let panel: PanelClient;
  let page: Page;
  let redirectUri: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'greenroom-journey-refusals-'));
    redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    // A rule list edited by hand: the file is read with the plain schema, so the unsafe pattern is kept.
    const automod = structuredClone(DEFAULT_AUTOMOD_SETTINGS);
    automod.blockedTerms.terms = [
      { pattern: 'free followers', kind: 'plain' },
      { pattern: '(a+)+$', kind: 'regex' },
    ];
    writeFileSync(
      join(dataDir, `${SETTINGS_FILE_NAME}.json`),
      JSON.stringify({ version: SETTINGS_VERSION, redirectUri, setupGuideDone: true, automod }),
    );
    browser = await launchChromium();
    // Fixed ports, as a streamer's are (7531 and 7532 by default); main checks a redirect against them.
    const env = { GREENROOM_PANEL_PORT: String(await freePort()), GREENROOM_WEBHOOK_PORT: String(await freePort()) };
    app = await startApp({ dataDir, env });
    panel = connectPanel(app);
    page = await openPanel(await newContext(browser), app);
    // A missing mark fails with its locator well inside the test's time, not as a bare timeout.
    page.setDefaultTimeout(5_000);
  });

  afterAll(async () => {
    panel?.close();
    await browser?.close();
    await app?.stop();
    await killLeftovers();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses an invalid regular expression at Add, and marks the row main refuses on Save', async () => {
    await openSection(page, 'Automation');
    const form = page.getByRole('form', { name: 'Auto-moderation rules' });
    const term = form.getByRole('textbox', { name: 'Term' });
    const terms = form.getByRole('list', { name: 'Blocked terms' }).getByRole('listitem');
    await form.getByLabel('Kind').selectOption('regex');
    for (const [pattern, reason] of [
      [
        '[unclosed',
        /^This regular expression cannot be used: not a valid regular expression: a \[ is never closed with \]\.$/,
      ],
      ['(a+)+', /^This regular expression cannot be used: a repeated group may not contain another repetition/],
      ['x'.repeat(230), /^A term may be at most 200 characters; this one has 230\.$/],
    ] as const) {
      await term.fill(pattern);
      await form.getByRole('button', { name: 'Add term' }).click();
      const note = form.locator('#term-add-error');
      await expect.poll(() => note.textContent(), WAIT).toMatch(reason);
      expect(await term.getAttribute('aria-invalid')).toBe('true');
      expect(await term.getAttribute('aria-describedby')).toBe('term-add-error');
      expect(await terms.count()).toBe(2);
    }
    // A safe pattern is added, and the reason goes.
    await term.fill('b[i1]tc[o0]in');
    await form.getByRole('button', { name: 'Add term' }).click();
    await expect.poll(() => terms.count(), WAIT).toBe(3);
    expect(await form.locator('#term-add-error').count()).toBe(0);

    // The hand-edited unsafe pattern: Save is refused, its row is marked with the reason beside it.
    await form.getByRole('button', { name: 'Save auto-moderation' }).click();
    const refused = terms.nth(1);
    await expect
      .poll(() => refused.locator('.field-error').textContent(), WAIT)
      .toMatch(/^Refused: A repeated group may not contain another repetition/);
    expect(await refused.getAttribute('aria-describedby')).toBe('term-error-1');
    expect(await terms.nth(0).locator('.field-error').count()).toBe(0);
    const top = form.getByRole('alert').first();
    expect(await top.textContent()).toMatch(
      /^Not saved: your auto-moderation rules\. One entry was refused; the reason is beside it\. The rules saved before stay in effect\./,
    );
    expect(await page.locator('main, body').first().innerText()).not.toMatch(/settings:update|blockedTerms|automod\./);
    await top.getByRole('button', { name: 'Details' }).click();
    expect(await top.textContent()).toMatch(/settings:update: automod\.blockedTerms\.terms\.1\.pattern/);
    // Nothing was saved: the new term is not in main's rules.
    const saved = await value(panel.api.settings.get());
    expect(saved.automod.blockedTerms.terms.map((t) => t.pattern)).toEqual(['free followers', '(a+)+$']);

    // Removing the refused row clears the marks; Save then goes through.
    await refused.getByRole('button', { name: /^Remove blocked term/ }).click();
    expect(await form.locator('.field-error').count()).toBe(0);
    await form.getByRole('button', { name: 'Save auto-moderation' }).click();
    await expect
      .poll(async () => (await value(panel.api.settings.get())).automod.blockedTerms.terms.map((t) => t.pattern), WAIT)
      .toEqual(['free followers', 'b[i1]tc[o0]in']);
  });

  it('puts a settings refusal beside its field, in plain words, naming the port Greenroom uses', async () => {
    await openSection(page, 'Settings');
    const field = page.getByRole('textbox', { name: 'Redirect URL' });
    const reason = page.locator('#redirect-error');
    const save = page.getByRole('button', { name: 'Save connection' });

    await field.fill('http://localhost:99999/cb');
    await expect.poll(() => reason.textContent(), WAIT).toBe('The port must be between 1 and 65535.');
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    expect(await field.getAttribute('aria-describedby')).toBe('redirect-error');

    const panelPort = new URL(app.panelUrl).port;
    const webhookPort = new URL(app.receiverUrl).port;
    for (const [uri, use] of [
      [`http://[::1]:${panelPort}/callback`, 'its panel and OBS links'],
      [`http://localhost:${webhookPort}/callback`, "receiving Kick's events (the webhook port)"],
    ]) {
      await field.fill(uri!);
      // The form itself cannot know the ports; main refuses on Save, and the reason lands at the field.
      expect(await reason.count()).toBe(0);
      await save.click();
      await expect
        .poll(() => reason.textContent(), WAIT)
        .toMatch(
          new RegExp(
            `^Port ${new URL(uri!).port} is the one Greenroom uses for ${use!.replace(/[()]/g, '\\$&')}\\. Pick another port, such as 3000\\.$`,
          ),
        );
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      const top = page.getByRole('region', { name: 'Settings' }).getByRole('alert').first();
      expect(await top.textContent()).toMatch(/^Not saved: the redirect URL and tunnel\. One entry was refused/);
      expect(await page.locator('body').innerText()).not.toMatch(/settings:update|redirectUri|Invalid URL/);
    }
    expect((await value(panel.api.settings.get())).redirectUri).toBe(redirectUri);

    // Typing a new value takes main's old reason away.
    await field.fill('http://127.0.0.1:53682/callback');
    expect(await reason.count()).toBe(0);
    expect(await field.getAttribute('aria-invalid')).toBeNull();
  });
});
