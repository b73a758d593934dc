/**
 * Channel management, through the panel server in Debian's Chromium against the
 * embedded sandbox (one Greenroom, signed in once): the redemption queue (accept, reject several and all,
 * a failure with Kick's reason), the rewards manager (create with the form's limits, edit, pause/resume,
 * delete, another app's reward read-only), ads (enroll, a running break's countdown, a second break's
 * Conflict), stream info (title, category autocomplete, tags), the KICKs leaderboard and connection
 * health. Every test checks the sandbox's state as well as what the panel shows, and saves a screenshot.
 *
 * This file: “channel management in the panel, against the sandbox”.
 */
import { describe, expect, it } from 'vitest';
import { createDefaultReward } from '../../sandbox/admin/generate-redemption';
import type { SandboxReward } from '../../sandbox/state';
import { flushDeliveries } from './harness';
import { STREAMER_USER_ID } from './sign-in';
import { WAIT, fx, openTab, redeem, rewardTitled, statusOf, useSetup } from './channel-management-fixtures';

useSetup();

describe('channel management in the panel, against the sandbox', () => {
  it('lists pending redemptions grouped by reward with the user input; accepts one, rejects several and all', async () => {
    const clientId = fx.e2e.sandbox.ctx.app.clientId;
    const hydrate = createDefaultReward(fx.state, STREAMER_USER_ID, clientId)!;
    const songs = createDefaultReward(fx.state, STREAMER_USER_ID, clientId)!;
    expect(hydrate.title).toBe('Hydrate!');
    expect(songs.title).toBe('Song request');

    const ids = {
      pixelpanda: redeem(songs, 'pixelpanda', 'Never Gonna Give You Up'),
      lunarfox: redeem(songs, 'lunarfox', 'Darude - Sandstorm'),
      byte_bard: redeem(songs, 'byte_bard', 'lofi beats to moderate to'),
      nightowl_tv: redeem(hydrate, 'nightowl_tv'),
      glitchgoblin: redeem(hydrate, 'glitchgoblin'),
    };
    await flushDeliveries(fx.e2e.sandbox);

    const queue = await openTab('Redemptions');
    const songGroup = queue.locator('.group').filter({ has: fx.page.getByRole('heading', { name: 'Song request' }) });
    const hydrateGroup = queue.locator('.group').filter({ has: fx.page.getByRole('heading', { name: 'Hydrate!' }) });
    await songGroup.getByText('Darude - Sandstorm').waitFor();
    await expect.poll(() => songGroup.getByRole('listitem').count(), WAIT).toBe(3);
    await expect.poll(() => hydrateGroup.getByRole('listitem').count(), WAIT).toBe(2);
    // Each item names the viewer (from the webhook) and quotes what they typed.
    const pandaItem = songGroup.getByRole('listitem').filter({ hasText: 'pixelpanda' });
    expect(await pandaItem.locator('q').textContent()).toBe('Never Gonna Give You Up');
    expect(await queue.getByRole('heading', { name: /Redemptions/ }).textContent()).toContain('(5 pending)');
    await fx.e2e.screenshot('redemption-queue');

    // Accept one.
    await queue.getByRole('button', { name: "Accept pixelpanda's redemption" }).click();
    await expect.poll(() => statusOf(ids.pixelpanda), WAIT).toBe('accepted');
    await pandaItem.waitFor({ state: 'detached' });

    // Reject several: two selected by hand.
    await queue.getByRole('checkbox', { name: "Select lunarfox's redemption" }).check();
    await queue.getByRole('checkbox', { name: "Select byte_bard's redemption" }).check();
    await queue.getByRole('button', { name: 'Reject 2' }).click();
    await fx.page.getByRole('alertdialog').getByRole('button', { name: 'Reject 2 redemptions' }).click();
    await expect.poll(() => [statusOf(ids.lunarfox), statusOf(ids.byte_bard)], WAIT).toEqual(['rejected', 'rejected']);
    await songGroup.waitFor({ state: 'detached' });

    // Reject all that is left.
    await queue.getByRole('checkbox', { name: 'Select all', exact: true }).check();
    await queue.getByRole('button', { name: 'Reject 2' }).click();
    await fx.page.getByRole('alertdialog').getByRole('button', { name: 'Reject 2 redemptions' }).click();
    await expect
      .poll(() => [statusOf(ids.nightowl_tv), statusOf(ids.glitchgoblin)], WAIT)
      .toEqual(['rejected', 'rejected']);
    await queue.getByText('No pending redemptions.').waitFor();
    expect(statusOf(ids.pixelpanda)).toBe('accepted');
  });

  it("shows a failure on its item with Kick's reason when a redemption was decided elsewhere", async () => {
    const songs =
      rewardTitled('Song request') ?? createDefaultReward(fx.state, STREAMER_USER_ID, fx.e2e.sandbox.ctx.app.clientId)!;
    const stale = redeem(songs, 'mossy_mage', 'Bohemian Rhapsody');
    const fresh = redeem(songs, 'sable_sky', 'Clair de Lune');
    await flushDeliveries(fx.e2e.sandbox);
    const queue = await openTab('Redemptions');
    await queue.getByText('Clair de Lune').waitFor();
    await queue.getByText('Bohemian Rhapsody').waitFor();

    // Behind the panel's back (say, a moderator on kick.com), one is accepted without any webhook.
    fx.state.redemptions.get(stale)!.status = 'accepted';

    await queue.getByRole('checkbox', { name: 'Select all', exact: true }).check();
    await queue.getByRole('button', { name: 'Accept 2' }).click();
    await fx.page.getByRole('alertdialog').getByRole('button', { name: 'Accept 2 redemptions' }).click();
    await expect.poll(() => statusOf(fresh), WAIT).toBe('accepted');
    const failed = queue.getByRole('listitem').filter({ hasText: 'mossy_mage' });
    const alert = failed.getByRole('alert');
    await alert.waitFor();
    // NOT_PENDING, in plain words, stays on its item; the one that succeeded left the queue.
    expect(await alert.textContent()).toBe('Already accepted or rejected elsewhere.');
    await queue.getByText('Clair de Lune').waitFor({ state: 'detached' });
    expect(statusOf(stale)).toBe('accepted');
    await fx.e2e.screenshot('redemption-failure');
  });

  it("creates, edits, pauses, resumes and deletes a reward within Kick's limits; another app's is read-only", async () => {
    const clientId = fx.e2e.sandbox.ctx.app.clientId;
    const now = fx.state.now();
    const foreign: SandboxReward = {
      id: '01JFOREIGNREWARD0000000000',
      broadcasterUserId: STREAMER_USER_ID,
      createdByClientId: 'another-app-client-id',
      title: 'Giveaway entry',
      description: 'Managed by another bot',
      cost: 1000,
      backgroundColor: '#9146ff',
      isEnabled: true,
      isPaused: false,
      isUserInputRequired: false,
      shouldRedemptionsSkipRequestQueue: false,
      deleted: false,
      createdAtMs: now,
    };
    fx.state.rewards.set(foreign.id, foreign);

    const rewards = await openTab('Rewards');
    const item = (title: string) => rewards.getByRole('listitem').filter({ hasText: title });
    await item('Giveaway entry').waitFor();
    // Another app's reward: marked read-only, and no button can change it.
    await item('Giveaway entry').getByText('read-only: made by another app').waitFor();
    expect(await item('Giveaway entry').getByRole('button').count()).toBe(0);

    // The form enforces the limits: a 51-character title and a cost of 0 name their fields; nothing is sent.
    await rewards.getByRole('button', { name: 'New reward' }).click();
    const form = rewards.getByRole('form', { name: 'New reward' });
    await form.waitFor();
    const count = fx.state.rewards.size;
    await form.getByLabel(/^Title/).fill('x'.repeat(51));
    await form.getByLabel(/^Cost/).fill('0');
    await form.getByText('Title: at most 50 characters (now 51).').waitFor();
    await form.getByText('Cost: a whole number of at least 1.').waitFor();
    expect(await form.getByRole('button', { name: 'Save reward' }).isDisabled()).toBe(true);
    await form.getByLabel(/^Title/).press('Enter');
    await fx.e2e.screenshot('reward-form-limits');
    expect(fx.state.rewards.size).toBe(count);

    // Create.
    await form.getByLabel(/^Title/).fill('Sandbox shoutout');
    await form.getByLabel(/^Description/).fill('Your name read out on stream');
    await form.getByLabel(/^Cost/).fill('750');
    await form.getByLabel(/^Colour/).fill('#ff8800');
    await form.getByRole('button', { name: 'Save reward' }).click();
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => rewardTitled('Sandbox shoutout'), WAIT).toBeDefined();
    const created = rewardTitled('Sandbox shoutout')!;
    expect(created).toMatchObject({
      description: 'Your name read out on stream',
      cost: 750,
      backgroundColor: '#ff8800',
      createdByClientId: clientId,
      isEnabled: true,
      isPaused: false,
      deleted: false,
    });
    const mine = item('Sandbox shoutout');
    await mine.getByText('750 pts').waitFor();
    await fx.e2e.screenshot('rewards-manager');

    // Edit the cost.
    await mine.getByRole('button', { name: 'Edit' }).click();
    const edit = rewards.getByRole('form', { name: 'Edit Sandbox shoutout' });
    await edit.getByLabel(/^Cost/).fill('900');
    await edit.getByRole('button', { name: 'Save reward' }).click();
    await edit.waitFor({ state: 'detached' });
    await expect.poll(() => fx.state.rewards.get(created.id)?.cost, WAIT).toBe(900);
    await mine.getByText('900 pts').waitFor();

    // Pause, then resume.
    await mine.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => fx.state.rewards.get(created.id)?.isPaused, WAIT).toBe(true);
    await mine.getByText('paused', { exact: true }).waitFor();
    await mine.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => fx.state.rewards.get(created.id)?.isPaused, WAIT).toBe(false);
    await mine.getByRole('button', { name: 'Pause' }).waitFor();

    // Delete, with its one confirm.
    await mine.getByRole('button', { name: 'Delete' }).click();
    expect(fx.state.rewards.get(created.id)?.deleted).toBe(false);
    await mine.getByRole('button', { name: 'Confirm delete' }).click();
    await expect.poll(() => fx.state.rewards.get(created.id)?.deleted, WAIT).toBe(true);
    await mine.waitFor({ state: 'detached' });
    // The other app's reward was never touched.
    expect(fx.state.rewards.get(foreign.id)).toMatchObject({ title: 'Giveaway entry', cost: 1000, deleted: false });
  });
});
