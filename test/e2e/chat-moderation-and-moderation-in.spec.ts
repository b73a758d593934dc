/**
 * Chat and moderation, end to end: the panel served by the panel server in Debian's
 * Chromium, signed in on the sandbox's consent page, with chat delivered by the sandbox's real webhooks.
 * Chat renders emotes (images from the sandbox's emote server), badges and replies; sending as the streamer
 * and as the bot reaches the sandbox; the 500-character counter; delete, timeout, ban (with the confirm and
 * a reason), undo and unban each change the sandbox's state and show in the panel; the user card, its
 * keyboard shortcuts and the mod log; and the full moderation row in a narrow OBS dock.
 *
 * This file: “chat and moderation in a narrow OBS dock (340×700)”.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2E, startE2E } from './harness';
import { signIn, STREAMER_USER_ID } from './sign-in';
import { USERS, WAIT, chat, chatSubscribed, row } from './chat-moderation-fixtures';

describe('chat and moderation in a narrow OBS dock (340×700)', () => {
  let e2e: E2E;

  beforeAll(async () => {
    e2e = await startE2E({ viewport: { width: 340, height: 700 } });
  });
  afterAll(() => e2e.close());

  it('signs in from the dock', async () => {
    await signIn(e2e);
    await chatSubscribed(e2e.sandbox);
  });

  it('shows chat first, with every moderation button reachable', async () => {
    const { page, sandbox } = e2e;
    expect(await page.getByRole('tab', { name: 'Chat' }).getAttribute('aria-selected')).toBe('true');
    for (let i = 0; i < 8; i++) {
      chat(sandbox, i % 2 ? 'lunarfox' : 'pixelpanda', `filler line ${i} to fill the dock`);
    }
    const id = chat(sandbox, 'mossy_mage', 'can a dock moderate me? [emote:37226:KEKW]');
    const line = await row(page, id);

    // Keyboard focus on the sender's name shows the line's actions.
    await line.getByRole('button', { name: 'mossy_mage', exact: true }).focus();
    const group = line.getByRole('group', { name: 'Moderate mossy_mage' });
    await group.waitFor(WAIT);
    const buttons = await group.getByRole('button').all();
    const names = await Promise.all(buttons.map((b) => b.getAttribute('aria-label')));
    expect(names).toEqual([
      'Delete message',
      'Time out mossy_mage for 1m',
      'Time out mossy_mage for 5m',
      'Time out mossy_mage for 10m',
      'Time out mossy_mage for 1h',
      'Time out mossy_mage for 1d',
      'Time out mossy_mage for 1w',
      'Custom timeout for mossy_mage',
      'Ban mossy_mage',
    ]);
    // Every button (and Reply) is inside the 340 px dock and on screen: nothing clipped or pushed sideways.
    for (const button of [...buttons, line.getByRole('button', { name: 'Reply to mossy_mage' })]) {
      const box = await button.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(340);
      expect(box!.y).toBeGreaterThanOrEqual(0);
      expect(box!.y + box!.height).toBeLessThanOrEqual(700);
    }
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(340);
    await e2e.screenshot('obs-dock-narrow');

    // And they work from the dock: a 1 minute timeout reaches the sandbox.
    await group.getByRole('button', { name: 'Time out mossy_mage for 1m' }).click();
    await expect
      .poll(() => sandbox.ctx.state.activeBan(STREAMER_USER_ID, USERS.mossy_mage)?.expiresAtMs ?? 0, WAIT)
      .toBeGreaterThan(sandbox.ctx.state.now() + 30_000);
    await line.getByRole('status').getByText('Timed out 1m').waitFor(WAIT);
  });
});
