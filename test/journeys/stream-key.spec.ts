/**
 * Journey: the built app and two panels in Chromium. The key is
 * masked; Copy puts it on the clipboard without showing it; Reveal asks first; streamer mode never shows
 * it. Main sends it only as the answer to the panel that asked (`stream:key`): asserted on the WebSocket
 * frames of both panels, across a push of the channel (`stream:changed`) to every panel, and on the app's
 * own output (never logged).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPanel, value } from './panel';
import { screenshot, startOverlayWorld, type OverlayWorld } from './overlay-fixtures';

const WAIT = { timeout: 15_000 };

interface Watched {
  page: Page;
  frames: string[];
}

describe('journey: the stream key', () => {
  let world: OverlayWorld;
  let key: string;
  let asker: Watched;
  let bystander: Watched;

  const watchedPanel = async (): Promise<Watched> => {
    const context = await world.browser.newContext({ viewport: { width: 1100, height: 800 }, colorScheme: 'dark' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const frames: string[] = [];
    context.on('page', (page) =>
      page.on('websocket', (socket) => socket.on('framereceived', (frame) => frames.push(String(frame.payload)))),
    );
    const page = await openPanel(context, world.app);
    return { page, frames };
  };

  beforeAll(async () => {
    world = await startOverlayWorld();
    key = (await value(world.panel.api.stream.key())).key;
    expect(key.length).toBeGreaterThan(8);
    asker = await watchedPanel();
    bystander = await watchedPanel();
    await asker.page.getByRole('tab', { name: 'Stream', exact: true }).click();
    await bystander.page.getByRole('tab', { name: 'Stream', exact: true }).click();
  });

  afterAll(async () => {
    await world?.close();
  });

  it('is masked, and Copy copies it without showing it', async () => {
    const section = asker.page.getByRole('region', { name: 'Stream key' });
    await section.getByTestId('stream-key').waitFor(WAIT);
    expect(await section.getByTestId('stream-key').textContent()).toMatch(/^•+$/);
    await screenshot(asker.page, 'stream-key-masked');
    await section.getByRole('button', { name: 'Copy key' }).click();
    await section.getByText('Stream key copied.').waitFor(WAIT);
    expect(await asker.page.evaluate('navigator.clipboard.readText()')).toBe(key);
    expect(await asker.page.content()).not.toContain(key);
    // Its server URL beside it, under a label that names it as the key's does.
    await section.getByRole('button', { name: 'Copy URL' }).click();
    await section.getByText('Server URL copied.').waitFor(WAIT);
    expect(await asker.page.evaluate('navigator.clipboard.readText()')).toMatch(/^rtmps?:\/\//);
  });

  it('is revealed only after a confirm', async () => {
    // The settings file is from an earlier Greenroom (version 2), which turns streamer mode on (migration v4).
    expect((await value(world.panel.api.settings.get())).streamerMode).toBe(true);
    await value(world.panel.api.settings.update({ streamerMode: false }));
    const section = asker.page.getByRole('region', { name: 'Stream key' });
    await section.getByRole('button', { name: 'Reveal' }).click();
    expect(await asker.page.content()).not.toContain(key);
    await asker.page
      .getByRole('alertdialog', { name: 'Reveal the stream key?' })
      .getByRole('button', { name: /Reveal for/ })
      .click();
    await expect.poll(() => section.getByTestId('stream-key').textContent(), WAIT).toBe(key);
    await section.getByRole('button', { name: 'Hide' }).click();
    expect(await section.getByTestId('stream-key').textContent()).toMatch(/^•+$/);
  });

  it('is never shown in streamer mode', async () => {
    await value(world.panel.api.settings.update({ streamerMode: true }));
    const section = asker.page.getByRole('region', { name: 'Stream key' });
    await section.getByText('Hidden: streamer mode is on.').waitFor(WAIT);
    expect(await section.getByRole('button', { name: 'Reveal' }).count()).toBe(0);
    await value(world.panel.api.settings.update({ streamerMode: false }));
  });

  it('reaches only the panel that asked, as an answer, and is never pushed or logged', async () => {
    // A change of the channel is pushed to every panel (stream:changed): it must not carry the key.
    const pushes = bystander.frames.length;
    await value(world.panel.api.stream.update({ title: 'Stream key journey' }));
    await expect.poll(() => bystander.frames.slice(pushes).some((f) => f.includes('stream:changed')), WAIT).toBe(true);

    expect(bystander.frames.length).toBeGreaterThan(0);
    expect(bystander.frames.filter((frame) => frame.includes(key))).toEqual([]);
    const carrying = asker.frames.filter((frame) => frame.includes(key));
    expect(carrying.length).toBeGreaterThan(0);
    for (const frame of carrying) {
      expect((JSON.parse(frame) as { type: string }).type).toBe('result');
    }
    const output = [...world.app.stdout.lines, ...world.app.stderr.lines].join('\n');
    expect(output).not.toContain(key);
  });
});
