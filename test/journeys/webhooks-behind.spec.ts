/**
 * Journey (docs/design-notes.md#late-events): Kick's webhooks ten minutes behind, Kick's live socket on time.
 * The built app against a standalone sandbox whose queue holds every delivery for
 * `GREENROOM_JOURNEY_WEBHOOK_DELAY_S` (600 by default: the real ten minutes), the panel and the alert box
 * in Chromium, each watching every row and alert it ever renders.
 * - A chat line is in the panel while the sandbox still holds its webhook (the time is printed; the 1 s
 *   figure is measured in `npm run bench`, not asserted here).
 * - A spam line is removed before it is ever shown; `!discord` is answered once.
 * - Follows and subs come during the episode. When the held webhooks arrive: no chat line twice, no second
 *   bot reply, no late alert, and one Activity digest lists the late follows and subs.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AUTOMOD_SETTINGS } from '../../shared/automod';
import { DEFAULT_CHAT_BOT_SETTINGS } from '../../shared/chat-bot';
import { lateDigestText } from '../../shared/late-events';
import { openSection } from '../helpers/panel-tabs';
import { screenshot, startOverlayWorld, WATCH_ALERTS, type OverlayWorld } from './overlay-fixtures';
import { waitUntilListening } from './live-socket-journey-fixtures';
import { openPanel, value } from './panel';
import { STREAMER_USER_ID } from './sandbox-admin';
import {
  DELAY_S,
  LATE_AFTER_S,
  WATCH_CHAT,
  type ChatWatch,
  type HeldDeliveries,
  type SandboxChat,
} from './webhooks-behind-fixtures';

const WAIT = { timeout: 20_000 };
/** The held webhooks come after the delay; the sandbox then sends them over a few seconds. */
const ARRIVAL = { timeout: (DELAY_S + 120) * 1000, interval: 1000 };

describe("journey: Kick's webhooks ten minutes behind", () => {
  let world: OverlayWorld;
  let panel: Page;
  let alertBox: Page;
  /** Ids of the chat lines sent in the episode, by what they are. */
  const lines: Record<'hello' | 'spam' | 'command', string> = { hello: '', spam: '', command: '' };
  /** Names of those who followed or subscribed while webhooks were behind. */
  const lateNames: string[] = [];
  let alertsBefore = 0;
  /** The bot's lines before the late follows and subs. */
  let botBeforeEpisode: string[] = [];
  /** The on-time follower, who subscribes during the episode: one name both on time and late. */
  let onTimeFollower = { userId: 0, username: '' };
  /** Feed entries from before the late follows and subs. */
  const feedBeforeEpisode = new Set<string>();

  const botLines = async (): Promise<string[]> =>
    (await world.sandbox.admin.call<SandboxChat>('GET', `/channels/${STREAMER_USER_ID}/chat?limit=200`)).messages
      .filter((m) => m.type === 'bot')
      .map((m) => m.content);
  const held = (): Promise<HeldDeliveries> => world.sandbox.admin.call<HeldDeliveries>('GET', '/deliveries/pending');
  const watch = (): Promise<ChatWatch> => panel.evaluate<ChatWatch>('window.__chat');
  const alerts = (): Promise<string[]> => alertBox.evaluate<string[]>('window.__alerts');

  beforeAll(async () => {
    world = await startOverlayWorld();
    const automod = structuredClone(DEFAULT_AUTOMOD_SETTINGS);
    automod.enabled = true;
    automod.dryRun = false;
    automod.blockedTerms.terms = [{ pattern: 'free followers', kind: 'plain' }];
    automod.blockedTerms.action = { kind: 'delete', minutes: 5 };
    const chatBot = structuredClone(DEFAULT_CHAT_BOT_SETTINGS);
    // No cooldown: a second answer to the same line (its webhook copy) would be posted, not hidden.
    chatBot.commands = [
      {
        name: 'discord',
        aliases: [],
        reply: 'Our Discord: discord.gg/greenroom ({user})',
        permission: 'everyone',
        cooldownSec: 0,
        userCooldownSec: 0,
        sendAs: 'bot',
        enabled: true,
      },
    ];
    for (const kind of ['follow', 'subscription', 'renewal'] as const) {
      chatBot.replies[kind] = { ...chatBot.replies[kind], enabled: true, combineSec: 0 };
    }
    await value(
      world.panel.api.settings.update({ liveSocket: { enabled: true }, lateAfterSec: LATE_AFTER_S, automod, chatBot }),
    );
    await world.updateOverlays((settings) => {
      for (const kind of ['follow', 'subscription', 'renewal'] as const) {
        settings.alerts[kind].enabled = true;
        settings.alerts[kind].durationMs = 1000;
      }
    });
    await waitUntilListening(world.sandbox.admin, 20_000);

    // Tall enough that every line of the journey stays in the log's window (it renders only rows in view).
    const context = await world.browser.newContext({ viewport: { width: 1280, height: 1400 } });
    await context.addInitScript(WATCH_CHAT);
    panel = await openPanel(context, world.app);
    alertBox = await (await world.browser.newContext({ viewport: { width: 800, height: 600 } })).newPage();
    await alertBox.addInitScript(WATCH_ALERTS);
    await alertBox.goto((await value(world.panel.api.overlays.info())).urls.alerts!);
    await alertBox.locator('main[data-status="open"]').waitFor(WAIT);
  });

  afterAll(async () => {
    await world?.close();
  });

  it('plays an on-time follow: the alert box and its watch work', async () => {
    const [payload] = await world.sandbox.admin.trigger('channel.followed');
    await expect.poll(async () => (await alerts()).length, WAIT).toBe(1);
    alertsBefore = 1;
    // Its thanks is in chat before the episode; the same viewer subscribes late, so one name is in both.
    const follower = payload!.follower as { user_id: number; username: string };
    onTimeFollower = { userId: follower.user_id, username: follower.username };
    await expect.poll(async () => (await botLines()).some((l) => l.includes(follower.username)), WAIT).toBe(true);
  });

  it('shows a chat line while its webhook is still held', async () => {
    await world.sandbox.admin.call('POST', '/live-socket/settings', { webhook_delay_seconds: DELAY_S });
    const sentAt = Date.now();
    lines.hello = await world.sandbox.admin.chat('hello from the socket', 100105);
    await expect.poll(async () => (await watch()).rows.some((r) => r.id === lines.hello), WAIT).toBe(true);
    const shownAt = (await watch()).rows.find((r) => r.id === lines.hello)!.at;
    const stillHeld = (await held()).messages.some((m) => m.payload.message_id === lines.hello);
    expect(stillHeld).toBe(true);
    expect(world.recorder.deliveries.some((d) => d.payload.message_id === lines.hello)).toBe(false);
    process.stderr.write(
      `webhooks-behind: chat line shown ${shownAt - sentAt} ms after it was sent, its webhook held ${DELAY_S} s\n`,
    );
  });

  it('removes a spam line before it is ever shown, and answers !discord once', async () => {
    lines.spam = await world.sandbox.admin.chat('get FREE followers at once', 100101);
    lines.command = await world.sandbox.admin.chat('!discord', 100102);
    // Greenroom asked Kick to delete it (the sandbox's own record), long before its webhook could come.
    const deletedOnKick = async () =>
      (
        await world.sandbox.admin.call<SandboxChat>('GET', `/channels/${STREAMER_USER_ID}/chat?limit=200`)
      ).messages.find((m) => m.message_id === lines.spam)?.deleted;
    await expect.poll(deletedOnKick, WAIT).toBe(true);
    await expect.poll(async () => (await botLines()).filter((l) => l.startsWith('Our Discord')).length, WAIT).toBe(1);
    await expect.poll(async () => (await watch()).rows.some((r) => r.id === lines.command), WAIT).toBe(true);
    const seen = await watch();
    expect(seen.shown).not.toContain(lines.spam);
    expect((await held()).messages.some((m) => m.payload.message_id === lines.spam)).toBe(true);
  });

  it('gets follows and subs during the episode; their webhooks are held too', async () => {
    botBeforeEpisode = await botLines();
    for (const item of await value(world.panel.api.feed.history())) {
      feedBeforeEpisode.add(item.id);
    }
    for (const payload of await world.sandbox.admin.trigger('channel.followed', { count: 2 })) {
      lateNames.push((payload.follower as { username: string }).username);
    }
    // The new sub is the on-time follower's: the sandbox's pool may draw an on-time name for a late event,
    // and this makes that case happen every run.
    const overrides = { 'subscriber.user_id': onTimeFollower.userId };
    const [subscribed] = await world.sandbox.admin.trigger('channel.subscription.new', { overrides });
    expect((subscribed!.subscriber as { username: string }).username).toBe(onTimeFollower.username);
    lateNames.push(onTimeFollower.username);
    const [renewed] = await world.sandbox.admin.trigger('channel.subscription.renewal');
    lateNames.push((renewed!.subscriber as { username: string }).username);
    const types = (await held()).messages.map((m) => m.event_type);
    expect(types.filter((t) => t === 'channel.followed')).toHaveLength(2);
    expect(types).toEqual(expect.arrayContaining(['channel.subscription.new', 'channel.subscription.renewal']));
  });

  it(
    'when the held webhooks arrive: no line twice, no second reply, no late alert, one digest of the late ones',
    async () => {
      const startedAt = Date.now();
      await expect.poll(async () => (await held()).pending, ARRIVAL).toBe(0);
      const ids = Object.values(lines);
      const arrived = () =>
        world.recorder.acknowledged().filter((d) => ids.includes(d.payload.message_id as string)).length;
      await expect.poll(arrived, WAIT).toBe(ids.length);
      const digestText = lateDigestText(lateNames.length);
      const digest = async () =>
        (await value(world.panel.api.feed.history())).find((item) => item.eventType === 'greenroom.late-digest');
      await expect.poll(async () => (await digest())?.text, WAIT).toBe(digestText);
      process.stderr.write(`webhooks-behind: held webhooks arrived ${Date.now() - startedAt} ms after the episode\n`);

      // Each chat line once: in main's history, and in the page, which never had two rows for one id.
      const history = await value(world.panel.api.chat.history());
      for (const id of ids) {
        expect(
          history.filter((m) => m.messageId === id),
          id,
        ).toHaveLength(1);
      }
      const seen = await watch();
      expect(seen.mostCopies).toBe(1);
      for (const id of ids) {
        expect(
          seen.rows.filter((r) => r.id === id),
          id,
        ).toHaveLength(1);
      }
      expect(seen.shown).not.toContain(lines.spam);

      // One answer to !discord, and no thanks for anyone whose follow or sub came late.
      const bot = await botLines();
      expect(bot.filter((l) => l.startsWith('Our Discord'))).toHaveLength(1);
      // Only what was said before the episode (the on-time follow's thanks, under a name a late one may share).
      for (const name of lateNames) {
        expect(
          bot.filter((l) => l.includes(name)),
          name,
        ).toEqual(botBeforeEpisode.filter((l) => l.includes(name)));
      }
      // No alert for a late event: the box played only the on-time follow before the episode.
      expect(await alerts()).toHaveLength(alertsBefore);

      // The digest lists every late follow and sub, and each is in the feed marked late.
      const entries = (await digest())!.lateDigest!.entries.map((e) => e.text);
      for (const name of lateNames) {
        expect(
          entries.some((text) => text.startsWith(name)),
          name,
        ).toBe(true);
      }
      // Only the episode's entries: the on-time follow is in the feed under a late name too, not late.
      const wholeFeed = await value(world.panel.api.feed.history());
      const feed = wholeFeed.filter((item) => !feedBeforeEpisode.has(item.id));
      for (const name of lateNames) {
        // One entry for each of their late follows and subs: none lost, none doubled.
        const theirs = feed.filter((item) => item.username === name && item.kind !== 'app');
        expect(theirs, name).toHaveLength(lateNames.filter((late) => late === name).length);
        expect(
          theirs.every((item) => item.late === true),
          name,
        ).toBe(true);
      }
      const onTime = wholeFeed.find(
        (item) => feedBeforeEpisode.has(item.id) && item.username === onTimeFollower.username,
      );
      expect(onTime?.kind, 'the on-time follow').toBe('follow');
      expect(onTime?.late, 'the on-time follow').toBeUndefined();

      await openSection(panel, 'Activity');
      const entry = panel
        .getByRole('region', { name: 'Activity' })
        .getByRole('listitem')
        .filter({ hasText: digestText });
      await entry.getByText('Show them').click();
      const listed = entry.locator('details li');
      await expect.poll(() => listed.count(), WAIT).toBe(lateNames.length);
      const shownEntries = (await listed.allTextContents()).map((text) => text.trim());
      for (const name of lateNames) {
        expect(
          shownEntries.some((text) => text.startsWith(`${name} `)),
          name,
        ).toBe(true);
      }
      await screenshot(panel, 'webhooks-behind-digest');
    },
    (DELAY_S + 300) * 1000,
  );
});
