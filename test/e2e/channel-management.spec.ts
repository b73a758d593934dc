/**
 * Issue 6's must-show for channel management, through the panel server in Debian's Chromium against the
 * embedded sandbox (one Greenroom, signed in once): the redemption queue (accept, reject several and all,
 * a failure with Kick's reason), the rewards manager (create with the form's limits, edit, pause/resume,
 * delete, another app's reward read-only), ads (enroll, a running break's countdown, a second break's
 * Conflict), stream info (title, category autocomplete, tags), the KICKs leaderboard and connection
 * health. Every test checks the sandbox's state as well as what the panel shows, and saves a screenshot.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultReward } from '../../sandbox/admin/generate-redemption';
import type { SandboxReward, SandboxState } from '../../sandbox/state';
import { triggerEvent } from '../../sandbox/triggers';
import { type E2E, flushDeliveries, startE2E } from './harness';
import { signIn, STREAMER_USER_ID } from './sign-in';

/** How long to wait for a webhook round trip or a panel update before failing. */
const WAIT = { timeout: 15_000, interval: 100 };

describe('channel management in the panel, against the sandbox', () => {
  let e2e: E2E;
  let state: SandboxState;
  let page: Page;

  beforeAll(async () => {
    e2e = await startE2E();
    state = e2e.sandbox.ctx.state;
    page = e2e.page;
    await signIn(e2e);
  });
  afterAll(() => e2e?.close());

  /** Opens a main tab (its accessible name may carry a badge, such as "Redemptions 5 waiting"). */
  async function openTab(label: string, on: Page = page): Promise<Locator> {
    const id = { Redemptions: 'redemptions', Rewards: 'rewards', Ads: 'ads', Stream: 'stream', KICKs: 'kicks' }[label];
    await on.getByRole('tab', { name: new RegExp(`^${label}\\b`) }).click();
    const panel = on.locator(`#main-panel-${id ?? label.toLowerCase()}`);
    await panel.waitFor();
    return panel;
  }

  /** A viewer's user id by name (the sandbox's fixed viewers). */
  function userId(username: string): number {
    const user = state.userByName(username);
    if (!user) {
      throw new Error(`no sandbox user ${username}`);
    }
    return user.userId;
  }

  /** A viewer redeems `reward`, as on kick.com; the webhook then reaches the panel. */
  function redeem(reward: SandboxReward, username: string, userInput?: string): string {
    const before = new Set(state.redemptions.keys());
    triggerEvent(e2e.sandbox.ctx, 'channel.reward.redemption.updated', {
      overrides: {
        reward: { id: reward.id },
        redeemer: { user_id: userId(username) },
        ...(userInput === undefined ? {} : { user_input: userInput }),
      },
    });
    const id = [...state.redemptions.keys()].find((k) => !before.has(k));
    if (!id) {
      throw new Error('the sandbox stored no redemption');
    }
    return id;
  }

  /** An element's text with its whitespace collapsed (the markup's line breaks and indents). */
  async function textOf(locator: Locator): Promise<string> {
    return ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
  }

  const statusOf = (id: string) => state.redemptions.get(id)?.status;
  const rewardTitled = (title: string) =>
    [...state.rewards.values()].find((r) => r.title === title && r.broadcasterUserId === STREAMER_USER_ID);

  it('lists pending redemptions grouped by reward with the user input; accepts one, rejects several and all', async () => {
    const clientId = e2e.sandbox.ctx.app.clientId;
    const hydrate = createDefaultReward(state, STREAMER_USER_ID, clientId)!;
    const songs = createDefaultReward(state, STREAMER_USER_ID, clientId)!;
    expect(hydrate.title).toBe('Hydrate!');
    expect(songs.title).toBe('Song request');

    const ids = {
      pixelpanda: redeem(songs, 'pixelpanda', 'Never Gonna Give You Up'),
      lunarfox: redeem(songs, 'lunarfox', 'Darude - Sandstorm'),
      byte_bard: redeem(songs, 'byte_bard', 'lofi beats to moderate to'),
      nightowl_tv: redeem(hydrate, 'nightowl_tv'),
      glitchgoblin: redeem(hydrate, 'glitchgoblin'),
    };
    await flushDeliveries(e2e.sandbox);

    const queue = await openTab('Redemptions');
    const songGroup = queue.locator('.group').filter({ has: page.getByRole('heading', { name: 'Song request' }) });
    const hydrateGroup = queue.locator('.group').filter({ has: page.getByRole('heading', { name: 'Hydrate!' }) });
    await songGroup.getByText('Darude - Sandstorm').waitFor();
    await expect.poll(() => songGroup.getByRole('listitem').count(), WAIT).toBe(3);
    await expect.poll(() => hydrateGroup.getByRole('listitem').count(), WAIT).toBe(2);
    // Each item names the viewer (from the webhook) and quotes what they typed.
    const pandaItem = songGroup.getByRole('listitem').filter({ hasText: 'pixelpanda' });
    expect(await pandaItem.locator('q').textContent()).toBe('Never Gonna Give You Up');
    expect(await queue.getByRole('heading', { name: /Redemptions/ }).textContent()).toContain('(5 pending)');
    await e2e.screenshot('redemption-queue');

    // Accept one.
    await queue.getByRole('button', { name: "Accept pixelpanda's redemption" }).click();
    await expect.poll(() => statusOf(ids.pixelpanda), WAIT).toBe('accepted');
    await pandaItem.waitFor({ state: 'detached' });

    // Reject several: two selected by hand.
    await queue.getByRole('checkbox', { name: "Select lunarfox's redemption" }).check();
    await queue.getByRole('checkbox', { name: "Select byte_bard's redemption" }).check();
    await queue.getByRole('button', { name: 'Reject 2' }).click();
    await expect.poll(() => [statusOf(ids.lunarfox), statusOf(ids.byte_bard)], WAIT).toEqual(['rejected', 'rejected']);
    await songGroup.waitFor({ state: 'detached' });

    // Reject all that is left.
    await queue.getByRole('checkbox', { name: 'Select all', exact: true }).check();
    await queue.getByRole('button', { name: 'Reject 2' }).click();
    await expect
      .poll(() => [statusOf(ids.nightowl_tv), statusOf(ids.glitchgoblin)], WAIT)
      .toEqual(['rejected', 'rejected']);
    await queue.getByText('No pending redemptions.').waitFor();
    expect(statusOf(ids.pixelpanda)).toBe('accepted');
  });

  it("shows a failure on its item with Kick's reason when a redemption was decided elsewhere", async () => {
    const songs =
      rewardTitled('Song request') ?? createDefaultReward(state, STREAMER_USER_ID, e2e.sandbox.ctx.app.clientId)!;
    const stale = redeem(songs, 'mossy_mage', 'Bohemian Rhapsody');
    const fresh = redeem(songs, 'sable_sky', 'Clair de Lune');
    await flushDeliveries(e2e.sandbox);
    const queue = await openTab('Redemptions');
    await queue.getByText('Clair de Lune').waitFor();
    await queue.getByText('Bohemian Rhapsody').waitFor();

    // Behind the panel's back (say, a moderator on kick.com), one is accepted without any webhook.
    state.redemptions.get(stale)!.status = 'accepted';

    await queue.getByRole('checkbox', { name: 'Select all', exact: true }).check();
    await queue.getByRole('button', { name: 'Accept 2' }).click();
    await expect.poll(() => statusOf(fresh), WAIT).toBe('accepted');
    const failed = queue.getByRole('listitem').filter({ hasText: 'mossy_mage' });
    const alert = failed.getByRole('alert');
    await alert.waitFor();
    // NOT_PENDING, in plain words, stays on its item; the one that succeeded left the queue.
    expect(await alert.textContent()).toBe('Already accepted or rejected elsewhere.');
    await queue.getByText('Clair de Lune').waitFor({ state: 'detached' });
    expect(statusOf(stale)).toBe('accepted');
    await e2e.screenshot('redemption-failure');
  });

  it("creates, edits, pauses, resumes and deletes a reward within Kick's limits; another app's is read-only", async () => {
    const clientId = e2e.sandbox.ctx.app.clientId;
    const now = state.now();
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
    state.rewards.set(foreign.id, foreign);

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
    const count = state.rewards.size;
    await form.getByLabel(/^Title/).fill('x'.repeat(51));
    await form.getByLabel(/^Cost/).fill('0');
    await form.getByText('Title: at most 50 characters (now 51).').waitFor();
    await form.getByText('Cost: a whole number of at least 1.').waitFor();
    expect(await form.getByRole('button', { name: 'Save reward' }).isDisabled()).toBe(true);
    await form.getByLabel(/^Title/).press('Enter');
    await e2e.screenshot('reward-form-limits');
    expect(state.rewards.size).toBe(count);

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
    await e2e.screenshot('rewards-manager');

    // Edit the cost.
    await mine.getByRole('button', { name: 'Edit' }).click();
    const edit = rewards.getByRole('form', { name: 'Edit Sandbox shoutout' });
    await edit.getByLabel(/^Cost/).fill('900');
    await edit.getByRole('button', { name: 'Save reward' }).click();
    await edit.waitFor({ state: 'detached' });
    await expect.poll(() => state.rewards.get(created.id)?.cost, WAIT).toBe(900);
    await mine.getByText('900 pts').waitFor();

    // Pause, then resume.
    await mine.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => state.rewards.get(created.id)?.isPaused, WAIT).toBe(true);
    await mine.getByText('paused', { exact: true }).waitFor();
    await mine.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => state.rewards.get(created.id)?.isPaused, WAIT).toBe(false);
    await mine.getByRole('button', { name: 'Pause' }).waitFor();

    // Delete, with its one confirm.
    await mine.getByRole('button', { name: 'Delete' }).click();
    expect(state.rewards.get(created.id)?.deleted).toBe(false);
    await mine.getByRole('button', { name: 'Confirm delete' }).click();
    await expect.poll(() => state.rewards.get(created.id)?.deleted, WAIT).toBe(true);
    await mine.waitFor({ state: 'detached' });
    // The other app's reward was never touched.
    expect(state.rewards.get(foreign.id)).toMatchObject({ title: 'Giveaway entry', cost: 1000, deleted: false });
  });

  it("enrolls in ads while offline, runs a break with a countdown once live, and every panel counts it down from Kick's status", async () => {
    const ads = state.adsFor(STREAMER_USER_ID);
    const channel = state.channels.get(STREAMER_USER_ID)!;
    expect(channel.isLive).toBe(false);
    expect(channel.hasStreamed).toBe(true);

    const panel = await openTab('Ads');
    const dl = panel.locator('dl.status');
    await dl.waitFor();
    const status = { textContent: () => textOf(dl) };
    await expect.poll(() => status.textContent(), WAIT).toContain('Enrolled No');
    expect(await status.textContent()).toContain('Breaks left 3 of 3 per 60 min');

    // Enroll: the channel is offline and has streamed before, as Kick requires.
    await panel.getByRole('button', { name: 'Enroll' }).click();
    await expect.poll(() => ads.optedIn, WAIT).toBe(true);
    await expect.poll(() => status.textContent(), WAIT).toContain('Enrolled Yes');

    // Go live on "kick.com" (the sandbox's admin API); the webhook puts the header live.
    const live = await fetch(`${e2e.sandbox.urls.admin}/channels/${STREAMER_USER_ID}/live`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${e2e.sandbox.describe().adminToken}` },
      body: JSON.stringify({ is_live: true }),
    });
    expect(live.status).toBe(200);
    await flushDeliveries(e2e.sandbox);
    await page.getByText(/● LIVE · \d/).waitFor({ timeout: WAIT.timeout });

    // A 30-second break: Kick records it and the panel counts it down.
    await panel.getByLabel('Length (s)').fill('30');
    await panel.getByRole('button', { name: 'Run ad break' }).click();
    const timer = panel.getByRole('timer', { name: 'Ad break time left' });
    await timer.waitFor();
    expect(await timer.textContent()).toMatch(/Ad break running: 0:[0-3]\d left of 30 s/);
    expect(ads.breaks).toHaveLength(1);
    expect(ads.breaks[0]!.breakDurationSeconds).toBe(30);
    expect(ads.breaks[0]!.source).toBe('public_api');
    await expect.poll(() => status.textContent(), WAIT).toContain('Breaks left 2 of 3');
    // The countdown moves.
    const first = await timer.locator('strong').textContent();
    await expect.poll(() => timer.locator('strong').textContent(), WAIT).not.toBe(first);
    await e2e.screenshot('ads-countdown');

    // Another view of the panel (an OBS dock opened now) knows the running break from Kick's status: it
    // counts it down too, and offers no second break until it ends.
    const dock = await e2e.context.newPage();
    try {
      await dock.goto(e2e.launched.panel!.url);
      const dockAds = await openTab('Ads', dock);
      const dockTimer = dockAds.getByRole('timer', { name: 'Ad break time left' });
      await dockTimer.waitFor(WAIT);
      expect(await dockTimer.textContent()).toMatch(/Ad break running: 0:[0-3]\d left of 30 s/);
      expect(await dockAds.getByRole('button', { name: 'Run ad break' }).isDisabled()).toBe(true);
      await e2e.screenshot('ads-second-panel', dock);
    } finally {
      await dock.close();
      await page.bringToFront();
    }
    expect(ads.breaks).toHaveLength(1);
    // A reload of the first view keeps the countdown.
    await page.reload();
    const reloaded = await openTab('Ads');
    await reloaded.getByRole('timer', { name: 'Ad break time left' }).waitFor(WAIT);
  });

  it('changes the title, picks a category through the autocomplete and edits tags; shows live status and viewers', async () => {
    const channel = state.channels.get(STREAMER_USER_ID)!;
    if (!channel.isLive) {
      triggerEvent(e2e.sandbox.ctx, 'livestream.status.updated', { overrides: { is_live: true } });
      await flushDeliveries(e2e.sandbox);
    }
    // Start from another category so picking Just Chatting is a real change.
    const minecraft = [...state.categories.values()].find((c) => c.name === 'Minecraft')!;
    const justChatting = [...state.categories.values()].find((c) => c.name === 'Just Chatting')!;
    channel.categoryId = minecraft.id;
    channel.customTags = ['English', 'Chill'];

    const panel = await openTab('Stream');
    await panel.getByRole('button', { name: 'Refresh' }).click();
    await panel.getByText('Current: Minecraft').waitFor();
    await panel.getByText('● LIVE').waitFor();
    await panel.getByText(`${channel.viewerCount.toLocaleString('en-US')} viewers`).waitFor();

    await panel.getByLabel('Title', { exact: true }).fill('Greenroom e2e: building the control room');

    const combo = panel.getByRole('combobox', { name: 'Category' });
    await combo.pressSequentially('Just');
    const option = panel.getByRole('option', { name: 'Just Chatting' });
    await option.click();
    await panel.getByText('Current: Just Chatting').waitFor();

    const tags = panel.getByRole('list', { name: 'Current tags' });
    await panel.getByLabel(/^Tags/).fill('Speedrun');
    await panel.getByLabel(/^Tags/).press('Enter');
    await tags.getByText('Speedrun').waitFor();
    await panel.getByRole('button', { name: 'Remove tag Chill' }).click();
    await tags.getByText('Chill').waitFor({ state: 'detached' });
    expect(await panel.getByText(/^Tags/).first().textContent()).toContain('2/10');

    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await expect
      .poll(() => ({ title: channel.streamTitle, categoryId: channel.categoryId, tags: channel.customTags }), WAIT)
      .toEqual({
        title: 'Greenroom e2e: building the control room',
        categoryId: justChatting.id,
        tags: ['English', 'Speedrun'],
      });
    await e2e.screenshot('stream-info');
  });

  it('shows the KICKs leaderboard for lifetime, this month and this week with the top gifters', async () => {
    // An old gift counts for lifetime only; three fresh ones (random senders and amounts) for every period.
    state.kicksGifts.push({
      broadcasterUserId: STREAMER_USER_ID,
      senderUserId: userId('quietquasar'),
      amount: 25_000,
      createdAtMs: state.now() - 400 * 86_400_000,
    });
    const since = state.kicksGifts.length;
    triggerEvent(e2e.sandbox.ctx, 'kicks.gifted', { count: 3 });
    const fresh = state.kicksGifts.slice(since);
    expect(fresh).toHaveLength(3);

    const ranked = (gifts: typeof fresh) => {
      const totals = new Map<number, number>();
      for (const g of gifts) {
        totals.set(g.senderUserId, (totals.get(g.senderUserId) ?? 0) + g.amount);
      }
      return [...totals]
        .sort(([a, x], [b, y]) => y - x || a - b)
        .map(([id, amount], i) => `${i + 1}${state.user(id)!.username}${amount.toLocaleString('en-US')}`);
    };
    const recent = ranked(fresh);
    const lifetime = ranked(state.kicksGifts.filter((g) => g.broadcasterUserId === STREAMER_USER_ID));
    // The old gift leads lifetime (a random sender could be the same viewer, adding a little to it).
    expect(lifetime[0]).toMatch(/^1quietquasar25,\d{3}$/);

    const panel = await openTab('KICKs');
    await panel.getByRole('button', { name: 'Refresh' }).click();
    const rows = panel.locator('tbody tr');
    const shown = async () => (await rows.allTextContents()).map((t) => t.replace(/\s+/g, ''));
    await expect.poll(shown, WAIT).toEqual(lifetime.map((r) => r.replace(/\s+/g, '')));

    await panel.getByRole('tab', { name: 'This week' }).click();
    await expect.poll(shown, WAIT).toEqual(recent.map((r) => r.replace(/\s+/g, '')));
    await panel.getByRole('tab', { name: 'This month' }).click();
    await expect.poll(shown, WAIT).toEqual(recent.map((r) => r.replace(/\s+/g, '')));
    await panel.getByRole('tab', { name: 'Lifetime' }).click();
    await expect.poll(shown, WAIT).toEqual(lifetime.map((r) => r.replace(/\s+/g, '')));
    await e2e.screenshot('kicks-leaderboard');
  });

  it('shows connection health: scopes, token expiry, subscriptions per event type and delivery counters', async () => {
    triggerEvent(e2e.sandbox.ctx, 'channel.followed', { count: 2 });
    await flushDeliveries(e2e.sandbox);
    const panel = await openTab('Health');
    await panel.getByRole('button', { name: 'Refresh' }).click();

    await panel.getByText(/Signed in as sandbox_streamer/).waitFor();
    expect(await panel.getByText(/Signed in as/).textContent()).toMatch(/Token refreshes in \d+ (min|h)/);
    const token = [...state.accessTokens.values()].find((t) => t.kind === 'user' && !t.revoked)!;
    const scopes = panel.getByRole('list', { name: 'Permissions' });
    for (const scope of token.scopes) {
      expect(await scopes.getByRole('listitem').filter({ hasText: scope }).textContent()).toContain('✓');
    }

    const subscribed = [...state.subscriptions.values()].map((s) => s.event);
    expect(subscribed.length).toBeGreaterThan(0);
    for (const event of subscribed) {
      await panel.locator('ul.subs li').filter({ hasText: event }).filter({ hasText: 'active' }).waitFor();
    }

    // On the sandbox no tunnel is needed (it delivers to the local receiver), and the panel says so.
    await panel.getByText('Not needed: the sandbox delivers events to Greenroom directly').waitFor();

    const deliveries = panel.getByText(/\d[\d,]* accepted ·/);
    const accepted = async () =>
      Number((await deliveries.textContent())!.match(/([\d,]+) accepted/)![1]!.replace(/,/g, ''));
    await expect.poll(accepted, WAIT).toBeGreaterThan(0);
    expect(await textOf(deliveries)).toMatch(/accepted · \d+ duplicates · 0 rejected/);

    // A taller window for the artefact, so the counters show below the scopes and subscriptions.
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: viewport.width, height: 1160 });
    try {
      await deliveries.scrollIntoViewIfNeeded();
      await e2e.screenshot('connection-health');
    } finally {
      await page.setViewportSize(viewport);
    }
  });
});
