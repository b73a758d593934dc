/**
 * Journey (../../docs/chat-tools.md#the-rooms-modes-and-pinned-message): the built app, signed in against a
 * standalone sandbox that plays Kick's live socket, its panel in Chromium at an OBS dock's 340 px. The sandbox
 * sets chat modes, pins a message (a 500-character word too), unpins it and clears chat; the bar above chat
 * shows each without the dock scrolling sideways, the clear is one line in chat with every line kept, a cut
 * connection makes the bar say "as of", and switching the connection off takes the bar away.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOverlayWorld, screenshot, type OverlayWorld } from './overlay-fixtures';
import { waitUntilListening } from './live-socket-journey-fixtures';
import { newContext, openPanel, value } from './panel';

const WAIT = { timeout: 20_000 };
const DOCK = { width: 340, height: 720 };
const VIEWER = 100101;

describe("journey: the chat room's modes, pin and clear in a 340 px dock", () => {
  let world: OverlayWorld;
  let dock: Page;

  const bar = () => dock.getByRole('region', { name: 'Chat room' });
  const modes = () => bar().getByRole('list', { name: 'Chat modes' }).getByRole('listitem').allTextContents();
  const log = () => dock.getByRole('log', { name: 'Chat messages' });
  /** How far the dock scrolls sideways (0: everything fits). */
  const overflow = () =>
    dock.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');

  beforeAll(async () => {
    world = await startOverlayWorld();
    const connected = new Promise<void>((resolve) => {
      const off = world.panel.api.on('health:changed', (health) => {
        if (health.liveSocket?.state === 'connected') {
          off();
          resolve();
        }
      });
    });
    // Set explicitly, so this journey does not depend on the default.
    await value(world.panel.api.settings.update({ liveSocket: { enabled: true } }));
    await connected;
    // Subscribed too, not only connected: what the sandbox sends before its subscriptions reaches no socket.
    await waitUntilListening(world.sandbox.admin, WAIT.timeout);
    dock = await openPanel(await newContext(world.browser, DOCK), world.app);
    // The pointer off the chat log: hovering it pauses chat.
    await dock.mouse.move(1, 1);
  });
  afterAll(async () => {
    await world?.close();
  });

  it('shows no bar until Kick says a mode, then the modes that are on', async () => {
    expect(await bar().count()).toBe(0);
    await world.sandbox.admin.call('POST', '/live-socket/chatroom', {
      slow_mode: { enabled: true, message_interval: 10 },
      followers_mode: { enabled: true, min_duration: 15 },
    });
    await expect.poll(modes, WAIT).toEqual(['Slow 10s', 'Followers 15m+']);
    await world.sandbox.admin.call('POST', '/live-socket/chatroom', {
      slow_mode: { enabled: false },
      emotes_mode: { enabled: true },
    });
    await expect.poll(modes, WAIT).toEqual(['Followers 15m+', 'Emotes only']);
    expect(await overflow()).toBeLessThanOrEqual(0);
  });

  it('shows a pinned message above chat until it is unpinned, a 500-character word within the dock', async () => {
    const id = await world.sandbox.admin.chat('stream schedule: every night at 8', VIEWER);
    await log().locator(`article[data-message-id="${id}"]`).waitFor(WAIT);
    await world.sandbox.admin.call('POST', '/live-socket/pin', { message_id: id, duration_seconds: 1200 });
    const pinned = bar().getByRole('button', { name: 'Pinned message' });
    await pinned.getByText('stream schedule: every night at 8').waitFor(WAIT);
    expect(await pinned.textContent()).toMatch(/by \S+/);
    await screenshot(dock, 'room-state-dock');

    const long = await world.sandbox.admin.chat('w'.repeat(500), VIEWER);
    await log().locator(`article[data-message-id="${long}"]`).waitFor(WAIT);
    await world.sandbox.admin.call('POST', '/live-socket/pin', { message_id: long, duration_seconds: 60 });
    await pinned.getByText('w'.repeat(500)).waitFor(WAIT);
    expect(await overflow()).toBeLessThanOrEqual(0);
    // Two lines until opened, so a long pin never pushes chat out of a small dock.
    const closed = (await pinned.boundingBox())!.height;
    expect(closed).toBeLessThan(80);
    await pinned.click();
    // The pointer off chat again: when the pin goes, the log moves up under it, and a hovered log pauses.
    await dock.mouse.move(1, 1);
    await expect.poll(async () => (await pinned.boundingBox())!.height, WAIT).toBeGreaterThan(closed);
    expect(await overflow()).toBeLessThanOrEqual(0);

    await world.sandbox.admin.call('DELETE', '/live-socket/pin');
    await pinned.waitFor({ state: 'detached', ...WAIT });
  });

  it('says once in chat that a moderator cleared it, and keeps every line', async () => {
    const before = await world.sandbox.admin.chat('said before the clear', VIEWER);
    await log().locator(`article[data-message-id="${before}"]`).waitFor(WAIT);
    await world.sandbox.admin.call('POST', '/live-socket/clear');
    const line = log().getByRole('note').filter({ hasText: 'Chat was cleared by a moderator' });
    await line.waitFor(WAIT);
    expect(await line.count()).toBe(1);
    const after = await world.sandbox.admin.chat('said after the clear', VIEWER);
    await log().locator(`article[data-message-id="${after}"]`).waitFor(WAIT);
    expect(await log().locator(`article[data-message-id="${before}"]`).count()).toBe(1);
    // In time order: the line sits between the two messages.
    const order = await dock.evaluate<string[]>(
      `[...document.querySelectorAll('[role="log"] article[data-message-id], [role="log"] [data-cleared-id]')].map((el) => el.getAttribute('data-message-id') ?? 'cleared')`,
    );
    expect(order.slice(order.indexOf(before))).toEqual([before, 'cleared', after]);
  });

  it('says "as of" the drop after a cut connection, and goes when the connection is switched off', async () => {
    await world.sandbox.admin.call('POST', '/live-socket/drop', { code: 'cut' });
    await bar().getByTestId('room-as-of').waitFor(WAIT);
    expect(await bar().getByTestId('room-as-of').textContent()).toMatch(/as of \d\d:\d\d/);
    await value(world.panel.api.settings.update({ liveSocket: { enabled: false } }));
    await bar().waitFor({ state: 'detached', ...WAIT });
    // The clear line stays: it is part of the chat's record.
    expect(await log().getByRole('note').filter({ hasText: 'Chat was cleared by a moderator' }).count()).toBe(1);
  });
});
