/**
 * Journey: after a restart while offline, no timer posts ([chat bot](../../docs/chat-bot.md#live-status-comes-from-kick)).
 * The built app against a standalone sandbox (Kick, which outlives the app), signed in, with a chat-bot timer
 * at its shortest interval. The stream goes live and the timer posts, as it should. Then the app is killed,
 * the stream ends while it is down, and Kick's "offline" event never reaches it (its deliveries are refused,
 * as when every retry fell while the app was down). After the restart the journal's last word is "live";
 * Kick says offline. The header must say Offline, and over a whole interval (and two timer checks) the bot
 * must post nothing, read from the sandbox's own chat as a viewer would see it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIMER_TICK_MS } from '../../electron/app/app-chat-bot';
import { newContext, openPanel, value } from './panel';
import { startOverlayWorld, type OverlayWorld } from './overlay-fixtures';
import { STREAMER_USER_ID } from './sandbox-admin';

const TIMER = { message: 'Follow the channel for more!', everySec: 30, minMessages: 0, enabled: true };
/** The longest a due timer may take to post: its interval, then a check, and a check's worth of slack. */
const DUE_MS = TIMER.everySec * 1000 + 2 * TIMER_TICK_MS;
const WAIT = { timeout: 20_000 };

interface SandboxChat {
  messages: { content: string; type: string }[];
}

describe('journey: a restart while offline', () => {
  let world: OverlayWorld;
  const timerPosts = async (): Promise<number> =>
    (
      await world.sandbox.admin.call<SandboxChat>('GET', `/channels/${STREAMER_USER_ID}/chat?limit=500`)
    ).messages.filter((m) => m.type === 'bot' && m.content === TIMER.message).length;
  const statusAcknowledged = (live: boolean) =>
    world.recorder.acknowledged().filter((d) => d.type === 'livestream.status.updated' && d.payload.is_live === live);

  beforeAll(async () => {
    world = await startOverlayWorld();
    const settings = await value(world.panel.api.settings.get());
    settings.chatBot.timers = [TIMER];
    await value(world.panel.api.settings.update({ chatBot: settings.chatBot }));
  });

  afterAll(async () => {
    await world?.close();
  });

  it('posts the timer while live', async () => {
    await world.sandbox.admin.call('POST', `/channels/${STREAMER_USER_ID}/live`, { is_live: true, title: 'Ranked' });
    // In the journal: the app acknowledged "live".
    await expect.poll(() => statusAcknowledged(true).length, WAIT).toBe(1);
    await expect.poll(timerPosts, { timeout: DUE_MS + 10_000, interval: 1000 }).toBe(1);
  }, 90_000);

  it('after a kill, the stream ending while down and a restart: Offline, and no timer posts', async () => {
    await world.restart({
      kill: true,
      whileDown: async () => {
        world.recorder.refuse(['livestream.status.updated']);
        const ended = await world.sandbox.admin.call<{ changed: boolean; is_live: boolean }>(
          'POST',
          `/channels/${STREAMER_USER_ID}/live`,
          { is_live: false },
        );
        expect(ended).toMatchObject({ changed: true, is_live: false });
      },
    });
    const upAt = Date.now();
    const before = await timerPosts();

    const page = await openPanel(await newContext(world.browser), world.app);
    await page.locator('header .live').filter({ hasText: 'Offline' }).waitFor(WAIT);
    expect((await value(world.panel.api.stream.info()))?.stream.is_live).toBe(false);

    // A whole interval and two timer checks from the start: a timer that believed the journal would have posted.
    await expect
      .poll(() => Date.now() - upAt >= DUE_MS, { timeout: DUE_MS + 5_000, interval: TIMER_TICK_MS })
      .toBe(true);
    expect(await timerPosts()).toBe(before);
    expect((await page.locator('header .live').textContent())?.trim()).toBe('Offline');
    // Kick's "offline" never reached the app: only Kick's own answer at start could have told it.
    expect(statusAcknowledged(false)).toEqual([]);
    expect(
      world.recorder.deliveries.some((d) => d.type === 'livestream.status.updated' && d.payload.is_live === false),
    ).toBe(true);
    await page.context().close();
  }, 120_000);
});
