/**
 * Journey: `!followage` from the stream history ([chat variables](../../docs/chat-bot.md#chat-variables-from-the-history)).
 * The built app runs on Node 24 (`node:sqlite`, as Electron 45 runs it) against its embedded sandbox, signed in from
 * the panel, with a `!followage` command saved through the contract as the Automation tab saves it. The stream goes
 * live, a viewer follows and chats; the app restarts; the viewer types `!followage` and the bot's answer arrives in
 * the sandbox's own chat, in words that say Greenroom saw the follow. The viewer's card, after the restart, shows
 * "followed since" as far as Greenroom saw and their totals. A viewer who types `{followage}` inside their own
 * message gets it back as typed.
 *
 * Saves test-results/journeys/followage-card.png and followage-chat.png (docs/screenshots/ with
 * GREENROOM_UPDATE_SCREENSHOTS=1).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SETTINGS_FILE_NAME } from '../../electron/app/settings';
import { type ChatCommand, DEFAULT_CHAT_BOT_SETTINGS } from '../../shared/chat-bot';
import { KICK_EVENT_TYPES } from '../../shared/kick/scopes';
import { type AppRun, killLeftovers, ROOT, startApp } from './app-process';
import { connectPanel, newContext, openPanel, type PanelClient, signInFromPanel, value } from './panel';
import { embeddedSandbox, type SandboxAdmin, STREAMER_USER_ID } from './sandbox-admin';
import { launchWithScrollbars } from './tabs-fixtures';
import { freePort } from './webhook-recorder';

const WAIT = { timeout: 30_000 };
const COMMAND = {
  name: '',
  aliases: [],
  reply: '',
  permission: 'everyone',
  cooldownSec: 0,
  userCooldownSec: 0,
  sendAs: 'bot',
  enabled: true,
} satisfies ChatCommand;
/** "followed less than a minute ago" or "followed 2 minutes ago": the follow Greenroom saw, just now. */
const JUST_FOLLOWED = 'followed (less than a minute|\\d+ minutes?) ago';
/**
 * Two viewers of the sandbox world (sandbox/world.ts), named so the sandbox's random picks cannot make the early
 * chatter and the follower the same viewer (whose story would then count two messages).
 */
const EARLY_CHATTER = 100100;
const FOLLOWER = 100101;

interface SandboxChat {
  messages: { message_id: string; content: string; type: string }[];
}

async function shoot(target: Locator, name: string): Promise<void> {
  const dir = join(ROOT, 'test-results', 'journeys');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await target.screenshot({ path });
  if (process.env.GREENROOM_UPDATE_SCREENSHOTS === '1') {
    copyFileSync(path, join(ROOT, 'docs', 'screenshots', `${name}.png`));
  }
}

describe('journey: !followage from the stream history', () => {
  let dataDir: string;
  let browser: Browser;
  let app: AppRun;
  let admin: SandboxAdmin;
  let panel: PanelClient;

  const botLines = async (): Promise<string[]> =>
    (await admin.call<SandboxChat>('GET', `/channels/${STREAMER_USER_ID}/chat?limit=200`)).messages
      .filter((m) => m.type === 'bot')
      .map((m) => m.content);
  const start = async () => {
    app = await startApp({ dataDir, node: '24' });
    admin = await embeddedSandbox(app);
    panel = connectPanel(app);
    await vi.waitFor(async () => expect((await value(panel.api.history.status())).state).toBe('ready'), WAIT);
  };
  const openPage = async (): Promise<Page> => openPanel(await newContext(browser, { width: 420, height: 900 }), app);

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'greenroom-journey-followage-'));
    writeFileSync(
      join(dataDir, `${SETTINGS_FILE_NAME}.json`),
      JSON.stringify({ redirectUri: `http://127.0.0.1:${await freePort()}/callback` }),
    );
    browser = await launchWithScrollbars();
    await start();
    const first = await openPage();
    const guide = first.getByRole('dialog', { name: 'Set up Greenroom' });
    await guide.waitFor(WAIT);
    await guide.getByRole('button', { name: 'Close setup' }).click();
    await signInFromPanel(first, app);
    await vi.waitFor(async () => expect((await admin.counts()).eventSubscriptions).toBe(KICK_EVENT_TYPES.length), WAIT);
    await first.context().close();
    const chatBot = structuredClone(DEFAULT_CHAT_BOT_SETTINGS);
    chatBot.commands = [
      { ...COMMAND, name: 'followage', aliases: ['fa'], reply: '{user} {followage}; streams attended: {streams}' },
      { ...COMMAND, name: 'echo', reply: 'You said: {args} ({followage})' },
    ];
    await value(panel.api.settings.update({ chatBot }));
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

  it('answers !followage after a restart with the follow Greenroom saw, and the card tells the story', async () => {
    // Chat before the stream, as chat is open before a streamer goes live: Greenroom's knowledge starts a minute
    // before the follow below (Kick times a follow to the second, so one in the very second Greenroom started
    // watching reads "following since at least").
    await admin.trigger('chat.message.sent', {
      overrides: { created_at: new Date(Date.now() - 60_000).toISOString(), 'sender.user_id': EARLY_CHATTER },
    });
    const [live] = await admin.trigger('livestream.status.updated', { overrides: { is_live: true } });
    const streamId = Date.parse(String(live!.started_at));
    await expect.poll(async () => (await value(panel.api.history.status())).liveStreamId, WAIT).toBe(streamId);
    const [follow] = await admin.trigger('channel.followed', { overrides: { 'follower.user_id': FOLLOWER } });
    const { user_id: userId, username } = follow!.follower as { user_id: number; username: string };
    await admin.chat('hello, first time here', userId);
    await expect
      .poll(async () => {
        const story = await value(panel.api.history.viewer({ userId }));
        return story && { followed: story.followedAtMs !== null, messages: story.messages };
      }, WAIT)
      .toEqual({ followed: true, messages: 1 });

    panel.close();
    await app.stop();
    await start();

    await admin.chat('!followage', userId);
    const answer = new RegExp(`^${username} ${JUST_FOLLOWED}; streams attended: 1$`);
    await expect.poll(async () => (await botLines()).filter((line) => answer.test(line)), WAIT).toHaveLength(1);
    // Their own `{followage}` is not filled in: a template is read once, never what a viewer typed into it.
    await admin.chat('!echo {followage} {streams} <b>{user}</b>', userId);
    const echoed = new RegExp(`^You said: \\{followage\\} \\{streams\\} <b>\\{user\\}</b> \\(${JUST_FOLLOWED}\\)$`);
    await expect.poll(async () => (await botLines()).filter((line) => echoed.test(line)), WAIT).toHaveLength(1);

    const page = await openPage();
    const line = page.locator('article.msg', { hasText: '!followage' }).first();
    await line.locator('button.name').click();
    const card = page.getByRole('dialog', { name: username });
    const story = card.getByRole('region', { name: 'History' });
    // Followed in this run, so on Greenroom's first day: the date once, as far as Greenroom saw.
    await story.getByText(/^Since \d{4}-\d\d-\d\d, as far as Greenroom saw$/).waitFor(WAIT);
    const facts = async (): Promise<Record<string, string>> =>
      Object.fromEntries(
        await Promise.all(
          (await story.locator('dl > div').all()).map(async (row): Promise<[string, string]> => [
            (await row.locator('dt').textContent())!.trim(),
            (await row.locator('dd').textContent())!.trim(),
          ]),
        ),
      );
    await expect.poll(async () => (await facts())['Messages'], WAIT).toBe('3');
    expect(await facts()).toMatchObject({ 'Streams attended': '1', Subscribed: 'Not seen' });
    await shoot(card, 'followage-card');
    await card.getByRole('button', { name: 'Close user card' }).click();
    await page.locator('article.msg', { hasText: 'streams attended: 1' }).first().waitFor(WAIT);
    await page.mouse.move(0, 0);
    await shoot(page.getByRole('log', { name: 'Chat messages' }), 'followage-chat');
  }, 180_000);
});
