/**
 * The alert queue's controls through the real app (docs/overlays.md#controlling-the-alert-queue): the
 * embedded sandbox delivers signed webhooks, the panel's requests go through `router.invoke` as both
 * transports send them, and an alert box is attached to the app's overlay hub as the panel server attaches
 * OBS's socket. Hostile input at every new channel is refused at its field and changes nothing.
 */
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { OverlaySocket } from '../../../electron/overlays/overlay-hub';
import { triggerEvent } from '../../../sandbox/triggers';
import { FIRST_VIEWER_USER_ID, MODERATOR_USER_ID, STREAMER_USER_ID } from '../../../sandbox/world';
import type { InvokeChannel } from '../../../shared/ipc-contract';
import type { AlertQueueView, OverlayFrame } from '../../../shared/overlays';
import { browser, call, fx, received, useSetup } from './create-app-sandbox-mode-fixtures';

useSetup();

/** OBS's alert box reduced to its socket: the frames it was sent. */
function alertBox(): { frames: OverlayFrame[]; shownIds: () => string[]; ended: () => string[] } {
  const frames: OverlayFrame[] = [];
  const socket: OverlaySocket = {
    send: (text) => frames.push(JSON.parse(text) as OverlayFrame),
    close: () => undefined,
    on: () => undefined,
  };
  fx.app.overlays.hub.attach(socket, 'alerts');
  return {
    frames,
    shownIds: () => frames.flatMap((f) => (f.type === 'alert' ? [f.alert.id] : [])),
    ended: () => frames.flatMap((f) => (f.type === 'alert-end' ? [f.id] : [])),
  };
}

async function refused(channel: InvokeChannel, args: unknown[]): Promise<string> {
  const result = await fx.app.router.invoke(channel, args);
  expect(result.ok, `${channel} ${JSON.stringify(args)}`).toBe(false);
  return result.ok ? '' : `${result.error.code}: ${result.error.message}`;
}

async function chat(text: string, userId: number): Promise<void> {
  // Each line differs, so the fence in `inChat` knows which one arrived.
  const content = `${text} ${sent.length}`;
  sent.push(content);
  const res = await request(`${fx.sandbox.urls.admin}/channels/${STREAMER_USER_ID}/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fx.sandbox.describe().adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ content, user_id: userId }),
  });
  expect(res.statusCode).toBe(201);
  await res.body.text();
}

const status = (): Promise<AlertQueueView> => call('alerts:status');

/** Resolves once the last `count` commands typed are in Greenroom's chat: each was heard by then. */
async function inChat(count: number): Promise<void> {
  const typed = sent.slice(-count);
  await expect
    .poll(async () => (await call('chat:history')).filter((m) => typed.includes(m.content)).length, WAIT)
    .toBe(typed.length);
}
const sent: string[] = [];
const WAIT = { timeout: 10_000 };

describe('the alert queue’s controls in the app', () => {
  let box: ReturnType<typeof alertBox>;

  it('signs in, and an alert box plays the first of three gifts with two waiting', async () => {
    await call('auth:start-login', {});
    await browser.settled();
    const overlays = structuredClone((await call('settings:get')).overlays);
    for (const template of Object.values(overlays.alerts)) {
      template.durationMs = 30_000;
    }
    await call('settings:update', { overlays });
    box = alertBox();
    triggerEvent(fx.sandbox.ctx, 'kicks.gifted', { count: 3 });
    await expect.poll(async () => (await status()).waiting, WAIT).toBe(2);
    expect(box.shownIds()).toHaveLength(1);
    expect((await status()).current?.id).toBe(box.shownIds()[0]);
    // Pushed to every panel, a burst at most four times a second: the last push is the state as it stands.
    await expect.poll(() => received['alerts:changed'].at(-1), WAIT).toMatchObject({ waiting: 2, boxesOpen: 1 });
  });

  it('refuses malformed control requests at their field, and nothing changes', async () => {
    const before = await status();
    for (const [channel, args] of [
      ['alerts:pause', [{ paused: 'yes' }]],
      ['alerts:pause', [{}]],
      ['alerts:skip', [{ id: 5 }]],
      ['alerts:skip', [{ id: '' }]],
      ['alerts:skip', [{ id: 'x'.repeat(201) }]],
      ['alerts:skip', [{ id: 'x', all: true }]],
      ['alerts:clear', [{ everything: true }]],
      ['alerts:replay', [{ feedItemId: '' }]],
      ['alerts:replay', [{ feedItemId: 'x'.repeat(201) }]],
      ['alerts:replay', [{ feedItemId: ['a'] }]],
      ['alerts:replay', [{}]],
    ] as const) {
      expect(await refused(channel, [...args])).toMatch(/^InvalidArgument: /);
    }
    expect(await status()).toEqual(before);
  });

  it('Skip takes the alert down in the box and plays the next; a Skip of one already gone skips nothing', async () => {
    const first = (await status()).current!.id;
    await call('alerts:skip', { id: first });
    expect(box.ended()).toEqual([first]);
    const second = box.shownIds()[1]!;
    expect((await status()).current?.id).toBe(second);
    const after = await call('alerts:skip', { id: first });
    expect(after.current?.id).toBe(second);
    expect(box.ended()).toEqual([first]);
  });

  it('takes Pause and Resume from a moderator in chat, never from a viewer', async () => {
    await chat('!pausealerts', FIRST_VIEWER_USER_ID);
    await chat('!pausealerts', MODERATOR_USER_ID);
    await expect.poll(async () => (await status()).paused, WAIT).toBe(true);
    expect((await status()).lastAction).toMatchObject({ what: 'pause', by: 'sandbox_mod' });
    await chat('!resumealerts', FIRST_VIEWER_USER_ID);
    await chat('!skipalert', FIRST_VIEWER_USER_ID);
    await inChat(2);
    expect((await status()).paused).toBe(true);
    expect((await status()).current).not.toBeNull();
    const paused = await call('alerts:pause', { paused: false });
    expect(paused).toMatchObject({ paused: false, lastAction: { what: 'resume', by: null } });
  });

  it('refuses Replay of a feed entry that raised no alert, and replays one that did, first in line', async () => {
    const chatId = (await call('chat:history')).at(-1)!.messageId;
    expect(await refused('alerts:replay', [{ feedItemId: chatId }])).toMatch(/no alert to replay/);
    expect(await refused('alerts:replay', [{ feedItemId: 'redemption-nope' }])).toMatch(/no alert to replay/);
    const gifts = (await call('feed:history')).filter((item) => item.kind === 'kicks');
    const replayed = await call('alerts:replay', { feedItemId: gifts[0]!.id });
    expect(replayed).toMatchObject({ waiting: 2, lastAction: { what: 'replay' } });
    await call('alerts:skip', {});
    expect(box.shownIds().at(-1)).toMatch(new RegExp(`^again-\\d+-${gifts[0]!.id}$`));
  });

  it('drops a gift whose event is older than the set age instead of playing it, and lists it', async () => {
    await call('alerts:clear');
    const shown = box.shownIds().length;
    const old = new Date(Date.now() - 10 * 60_000).toISOString();
    triggerEvent(fx.sandbox.ctx, 'kicks.gifted', { overrides: { created_at: old, 'sender.username': 'late_gifter' } });
    await expect.poll(async () => (await status()).tooOld.count, WAIT).toBe(1);
    const view = await status();
    expect(view.tooOld.items[0]).toMatchObject({ text: expect.stringContaining('late_gifter') });
    expect(view.tooOld.items[0]!.ageMs).toBeGreaterThanOrEqual(10 * 60_000);
    expect(box.shownIds()).toHaveLength(shown);
    expect((await call('alerts:dismiss-too-old')).tooOld).toEqual({ count: 0, lateCount: 0, items: [] });
  });

  it('refuses a set age outside 10 s to 1 hour, naming the limit, and keeps the one saved', async () => {
    const settings = await call('settings:get');
    for (const [maxAgeSec, limit] of [
      [5, 'at least 10 seconds'],
      [3601, 'at most 3600 seconds'],
      [12.5, 'whole number'],
      ['120', 'whole number'],
    ] as const) {
      const overlays = { ...settings.overlays, queue: { ...settings.overlays.queue, maxAgeSec } };
      const message = await refused('settings:update', [{ overlays }]);
      expect(message).toMatch(/maxAgeSec/);
      expect(message).toContain(limit);
    }
    expect((await call('settings:get')).overlays.queue.maxAgeSec).toBe(120);
    const overlays = { ...settings.overlays, queue: { maxAgeSec: 30, chatCommands: false } };
    await call('settings:update', { overlays });
    expect((await status()).maxAgeSec).toBe(30);
    // Commands off: a moderator's !pausealerts is just chat.
    await chat('!pausealerts', MODERATOR_USER_ID);
    await inChat(1);
    expect((await status()).paused).toBe(false);
  });

  it('Clear takes the alert down and empties the queue', async () => {
    triggerEvent(fx.sandbox.ctx, 'kicks.gifted', { count: 2 });
    await expect.poll(async () => (await status()).waiting, WAIT).toBe(1);
    const current = (await status()).current!.id;
    const cleared = await call('alerts:clear');
    expect(cleared).toMatchObject({ current: null, waiting: 0, lastAction: { what: 'clear', count: 2 } });
    expect(box.ended().at(-1)).toBe(current);
  });
});
