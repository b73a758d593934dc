/**
 * Channel management, through the panel server in Debian's Chromium against the
 * embedded sandbox (one Greenroom, signed in once): the redemption queue (accept, reject several and all,
 * a failure with Kick's reason), the rewards manager (create with the form's limits, edit, pause/resume,
 * delete, another app's reward read-only), ads (enroll, a running break's countdown, a second break's
 * Conflict), stream info (title, category autocomplete, tags), the KICKs leaderboard and connection
 * health. Every test checks the sandbox's state as well as what the panel shows, and saves a screenshot.
 *
 * This file: “channel management in the panel, against the sandbox”; “channel management in the panel, against the sandbox”.
 */
import { describe, expect, it } from 'vitest';
import { triggerEvent } from '../../sandbox/triggers';
import { flushDeliveries } from './harness';
import { STREAMER_USER_ID } from './sign-in';
import { WAIT, fx, openTab, textOf, useSetup, userId } from './channel-management-fixtures';

useSetup();

describe('channel management in the panel, against the sandbox', () => {
  it("enrolls in ads while offline, runs a break with a countdown once live, and every panel counts it down from Kick's status", async () => {
    const ads = fx.state.adsFor(STREAMER_USER_ID);
    const channel = fx.state.channels.get(STREAMER_USER_ID)!;
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
    const live = await fetch(`${fx.e2e.sandbox.urls.admin}/channels/${STREAMER_USER_ID}/live`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${fx.e2e.sandbox.describe().adminToken}` },
      body: JSON.stringify({ is_live: true }),
    });
    expect(live.status).toBe(200);
    await flushDeliveries(fx.e2e.sandbox);
    await fx.page.getByText(/● LIVE · \d/).waitFor({ timeout: WAIT.timeout });

    // A 30-second break: Kick records it and the panel counts it down.
    await panel.getByLabel('Length (s)').fill('30');
    await panel.getByRole('button', { name: 'Run ad break' }).click();
    await fx.page.getByRole('alertdialog').getByRole('button', { name: 'Start the ad break' }).click();
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
    await fx.e2e.screenshot('ads-countdown');

    // Another view of the panel (an OBS dock opened now) knows the running break from Kick's status: it
    // counts it down too, and offers no second break until it ends.
    const dock = await fx.e2e.context.newPage();
    try {
      await dock.goto(fx.e2e.launched.panel!.url);
      const dockAds = await openTab('Ads', dock);
      const dockTimer = dockAds.getByRole('timer', { name: 'Ad break time left' });
      await dockTimer.waitFor(WAIT);
      expect(await dockTimer.textContent()).toMatch(/Ad break running: 0:[0-3]\d left of 30 s/);
      expect(await dockAds.getByRole('button', { name: 'Run ad break' }).isDisabled()).toBe(true);
      await fx.e2e.screenshot('ads-second-panel', dock);
    } finally {
      await dock.close();
      await fx.page.bringToFront();
    }
    expect(ads.breaks).toHaveLength(1);
    // A reload of the first view keeps the countdown.
    await fx.page.reload();
    const reloaded = await openTab('Ads');
    await reloaded.getByRole('timer', { name: 'Ad break time left' }).waitFor(WAIT);
  });

  it('changes the title, picks a category through the autocomplete and edits tags; shows live status and viewers', async () => {
    const channel = fx.state.channels.get(STREAMER_USER_ID)!;
    if (!channel.isLive) {
      triggerEvent(fx.e2e.sandbox.ctx, 'livestream.status.updated', { overrides: { is_live: true } });
      await flushDeliveries(fx.e2e.sandbox);
    }
    // Start from another category so picking Just Chatting is a real change.
    const minecraft = [...fx.state.categories.values()].find((c) => c.name === 'Minecraft')!;
    const justChatting = [...fx.state.categories.values()].find((c) => c.name === 'Just Chatting')!;
    channel.categoryId = minecraft.id;
    channel.customTags = ['English', 'Chill'];

    const panel = await openTab('Stream');
    await panel.getByRole('button', { name: 'Refresh' }).click();
    await panel.getByText('Current: Minecraft').waitFor();
    await panel.getByText('● LIVE').waitFor();
    await panel.getByText(`${channel.viewerCount.toLocaleString('en-US')} viewers`).waitFor();

    // A 300-character paste is kept whole, counted against the limit and refused at the field, never cut.
    const title = panel.getByLabel('Title', { exact: true });
    const field = await title.elementHandle();
    const pasted = 'x'.repeat(300);
    await field.fill(pasted);
    expect(await field.inputValue()).toBe(pasted);
    await panel.getByText('300/200 characters').waitFor();
    await panel.getByText('Title: at most 200 characters (now 300).').waitFor();
    expect(await panel.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    // Two hundred emoji are two hundred characters to the panel and to main alike: saved, not refused.
    const emoji = '🎮'.repeat(200);
    await title.fill(emoji);
    await panel.getByText('200/200 characters').waitFor();
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => channel.streamTitle, WAIT).toBe(emoji);
    await title.fill('Greenroom e2e: building the control room');
    await panel.getByText('40/200 characters').waitFor();

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
    await fx.e2e.screenshot('stream-info');
  });

  it('shows the KICKs leaderboard for lifetime, this month and this week with the top gifters', async () => {
    // An old gift counts for lifetime only; three fresh ones (random senders and amounts) for every period.
    fx.state.kicksGifts.push({
      broadcasterUserId: STREAMER_USER_ID,
      senderUserId: userId('quietquasar'),
      amount: 25_000,
      createdAtMs: fx.state.now() - 400 * 86_400_000,
    });
    const since = fx.state.kicksGifts.length;
    triggerEvent(fx.e2e.sandbox.ctx, 'kicks.gifted', { count: 3 });
    const fresh = fx.state.kicksGifts.slice(since);
    expect(fresh).toHaveLength(3);

    const ranked = (gifts: typeof fresh) => {
      const totals = new Map<number, number>();
      for (const g of gifts) {
        totals.set(g.senderUserId, (totals.get(g.senderUserId) ?? 0) + g.amount);
      }
      return [...totals]
        .sort(([a, x], [b, y]) => y - x || a - b)
        .map(([id, amount], i) => `${i + 1}${fx.state.user(id)!.username}${amount.toLocaleString('en-US')}`);
    };
    const recent = ranked(fresh);
    const lifetime = ranked(fx.state.kicksGifts.filter((g) => g.broadcasterUserId === STREAMER_USER_ID));
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
    await fx.e2e.screenshot('kicks-leaderboard');
  });
});

describe('channel management in the panel, against the sandbox', () => {
  it('shows connection health in plain words, with scopes, subscriptions and counters behind Details', async () => {
    triggerEvent(fx.e2e.sandbox.ctx, 'channel.followed', { count: 2 });
    await flushDeliveries(fx.e2e.sandbox);
    const panel = await openTab('Health');
    await panel.getByRole('button', { name: 'Refresh' }).click();

    await panel.getByText(/Signed in as sandbox_streamer/).waitFor();
    expect(await panel.getByText(/Signed in as/).textContent()).toMatch(
      /renews the sign-in by itself, next in \d+ (min|h)/,
    );
    // Every permission in words; Kick's scope names only behind Details.
    expect(await panel.getByRole('list', { name: 'Permissions' }).textContent()).not.toMatch(/[a-z]+:[a-z]+/);
    const token = [...fx.state.accessTokens.values()].find((t) => t.kind === 'user' && !t.revoked)!;
    for (const details of await panel.getByText('Details', { exact: true }).all()) {
      await details.click();
    }
    const scopes = panel.getByRole('list', { name: "Kick's permission names" });
    for (const scope of token.scopes) {
      expect(await scopes.getByRole('listitem').filter({ hasText: scope }).textContent()).toContain('granted');
    }

    const subscribed = [...fx.state.subscriptions.values()].map((s) => s.event);
    expect(subscribed.length).toBeGreaterThan(0);
    // Subscribed, and "Arriving" only once a follow came.
    await panel
      .getByRole('list', { name: 'Events arriving' })
      .getByText(/^New followers: (Subscribed: none has arrived yet|Arriving \(last one)/)
      .waitFor();
    const codes = panel.getByRole('list', { name: 'Event subscriptions' });
    for (const event of subscribed) {
      await codes.getByRole('listitem').filter({ hasText: event }).filter({ hasText: 'active' }).waitFor();
    }

    // On the sandbox no tunnel is needed (it delivers to the local receiver), and the panel says so.
    await panel.getByText('Yes: the sandbox delivers events to Greenroom directly, no tunnel needed').waitFor();

    const deliveries = panel.getByTestId('deliveries');
    const received = async () =>
      Number((await deliveries.textContent())!.match(/([\d,]+) events? received/)![1]!.replace(/,/g, ''));
    await expect.poll(received, WAIT).toBeGreaterThan(0);
    // Counts of nothing are left out: no "0 repeats", no "0 deliveries refused".
    expect(await textOf(deliveries)).toMatch(
      /^[\d,]+ events? received( \([1-9][\d,]* first by live chat\))?( · [1-9][\d,]* events? arrived twice, shown once)?$/,
    );
    expect(await textOf(deliveries)).not.toMatch(/\b0 |refused/);

    // The picture shows what a streamer sees first: the Details closed again.
    for (const details of await panel.getByText('Details', { exact: true }).all()) {
      await details.click();
    }
    // A taller window for the artefact, so the counters show below the scopes and subscriptions.
    const viewport = fx.page.viewportSize()!;
    await fx.page.setViewportSize({ width: viewport.width, height: 1160 });
    try {
      await deliveries.scrollIntoViewIfNeeded();
      await fx.e2e.screenshot('connection-health');
    } finally {
      await fx.page.setViewportSize(viewport);
    }
  });
});
