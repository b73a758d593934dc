/**
 * The bar above chat and the cleared-chat line, in the chat view of the real App over the fake API: what
 * main reads back at start and what it pushes (`chat:room-changed`).
 */
import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import App from '../../../../renderer/src/App.svelte';
import type { RoomStateView } from '../../../../shared/room-state';
import { createFakeApi, type FakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { message, snapshot } from '../fixtures';

/** The chat view, with `before` setting main's answers before the panel starts. */
async function chatView(before: (fake: FakeApi) => void = () => {}) {
  const fake = createFakeApi();
  fake.ok('app:snapshot', snapshot());
  before(fake);
  const frames = manualFrames();
  const r = render(App, {
    props: { api: fake.api, view: 'chat', deps: { scheduler: frames.scheduler, clock: manualClock() } },
  });
  await settle();
  const push = async (...messages: ReturnType<typeof message>[]) => {
    for (const m of messages) {
      fake.emit('kick:event', { kind: 'chat', message: m });
    }
    frames.run();
    await settle();
  };
  return { fake, push, ...r };
}

const room = (over: Partial<RoomStateView> = {}): RoomStateView => ({
  modes: null,
  pinned: null,
  asOfMs: null,
  clears: [],
  ...over,
});
const bar = () => screen.queryByRole('region', { name: 'Chat room' });

describe('the chat room bar', () => {
  it('shows nothing while no mode is on and nothing is pinned', async () => {
    const { fake } = await chatView();
    expect(fake.argsOf('chat:room-state')).toHaveLength(1);
    expect(bar()).toBeNull();
    fake.emit(
      'chat:room-changed',
      room({ modes: { slow: null, followersOnly: null, subscribersOnly: false, emotesOnly: false } }),
    );
    await settle();
    expect(bar()).toBeNull();
  });

  it('names the modes that are on in a few words, with a sentence in the tooltip', async () => {
    const { fake } = await chatView();
    fake.emit(
      'chat:room-changed',
      room({
        modes: { slow: { seconds: 10 }, followersOnly: { minutes: 1440 }, subscribersOnly: true, emotesOnly: true },
      }),
    );
    await settle();
    const modes = within(bar()!).getAllByRole('listitem');
    expect(modes.map((m) => m.textContent?.trim())).toEqual([
      'Slow 10s',
      'Followers 1d+',
      'Subscribers only',
      'Emotes only',
    ]);
    expect(modes[0]!.title).toBe('Slow mode: each viewer can send one message every 10 seconds');
    fake.emit(
      'chat:room-changed',
      room({
        modes: { slow: { seconds: null }, followersOnly: { minutes: 0 }, subscribersOnly: false, emotesOnly: false },
      }),
    );
    await settle();
    expect(
      within(bar()!)
        .getAllByRole('listitem')
        .map((m) => m.textContent?.trim()),
    ).toEqual(['Slow mode', 'Followers only']);
  });

  it('shows the pinned message read at start, its emotes as images, and opens it on a click', async () => {
    await chatView((f) =>
      f.ok(
        'chat:room-state',
        room({
          pinned: {
            messageId: 'p1',
            content: 'rules [emote:37232:PeepoClap] <b>no html</b>',
            senderUsername: 'viewer_1',
            pinnedByUsername: 'streamer',
            pinnedAtMs: 0,
            expiresAtMs: null,
          },
        }),
      ),
    );
    const pinned = within(bar()!).getByRole('button', { name: 'Pinned message' });
    expect(pinned.textContent).toContain('viewer_1');
    expect(pinned.textContent).toContain('by streamer');
    expect(pinned.textContent).toContain('<b>no html</b>');
    expect(pinned.querySelector('b')).toBeNull();
    expect(within(pinned).getByRole('img', { name: 'PeepoClap' })).toBeTruthy();
    expect(pinned.getAttribute('aria-expanded')).toBe('false');
    await fireEvent.click(pinned);
    expect(pinned.getAttribute('aria-expanded')).toBe('true');
  });

  it('says "as of" when the connection dropped, and goes when main forgets', async () => {
    const { fake } = await chatView();
    const at = new Date(2026, 10, 27, 14, 2).getTime();
    fake.emit(
      'chat:room-changed',
      room({ modes: { slow: null, followersOnly: null, subscribersOnly: false, emotesOnly: true }, asOfMs: at }),
    );
    await settle();
    expect(screen.getByTestId('room-as-of').textContent?.trim()).toBe('as of 14:02');
    fake.emit('chat:room-changed', room());
    await settle();
    expect(bar()).toBeNull();
  });
});

describe('the cleared-chat line', () => {
  it('shows one line at the clear time among the messages, and none while searching', async () => {
    const { fake, push, container } = await chatView();
    await push(message({ messageId: 'a', sentAtMs: 1000 }), message({ messageId: 'b', sentAtMs: 3000 }));
    fake.emit('chat:room-changed', room({ clears: [{ id: 'c1', atMs: 2000, afterMessageId: 'a' }] }));
    await settle();
    const rows = [...container.querySelectorAll('[data-message-id], [data-cleared-id]')];
    expect(rows.map((r) => r.getAttribute('data-message-id') ?? `clear:${r.getAttribute('data-cleared-id')}`)).toEqual([
      'a',
      'clear:c1',
      'b',
    ]);
    const line = container.querySelector('[data-cleared-id="c1"]')!;
    expect(line.textContent).toContain('Chat was cleared by a moderator');
    // Every line stays: the clear is for viewers' chat.
    expect(container.querySelector('[data-message-id="a"]')).not.toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Search chat' }));
    await fireEvent.input(screen.getByRole('searchbox', { name: 'Search chat' }), { target: { value: 'hello' } });
    await settle();
    expect(container.querySelector('[data-message-id="a"]')).not.toBeNull();
    expect(container.querySelector('[data-cleared-id]')).toBeNull();
  });
});
