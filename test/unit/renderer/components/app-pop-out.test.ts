import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import App from '../../../../renderer/src/App.svelte';
import { createFakeApi, manualClock, manualFrames, settle } from '../fake-api';
import { feedItem } from '../fixtures';

type Opened = { closed: boolean; close(): void; focus(): void };

function setup(view: 'full' | 'chat' | 'compact' = 'full') {
  const fake = createFakeApi();
  const copied: string[] = [];
  const copy = (text: string) => {
    copied.push(text);
    return Promise.resolve(true);
  };
  const chimes: number[] = [];
  const clock = manualClock();
  const deps = { scheduler: manualFrames().scheduler, clock, copy, chime: () => chimes.push(1) };
  render(App, { props: { api: fake.api, view, deps } });
  return { fake, copied, chimes, clock };
}

/** `window.open` answering with a window, or with null as a pop-up blocker (or an OBS dock) does. */
function stubOpen(answer: 'window' | 'blocked') {
  const windows: Opened[] = [];
  const open = vi.spyOn(window, 'open').mockImplementation(() => {
    if (answer === 'blocked') {
      return null;
    }
    const opened: Opened = { closed: false, close: () => (opened.closed = true), focus: () => undefined };
    windows.push(opened);
    return opened as unknown as Window;
  });
  return { open, windows };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  delete (globalThis as { greenroom?: unknown }).greenroom;
  localStorage.clear();
});

describe('Pop out chat and the companion', () => {
  it('go through main in the desktop window', async () => {
    (globalThis as { greenroom?: unknown }).greenroom = {};
    const { open } = stubOpen('window');
    const { fake } = setup();
    await settle();
    await fireEvent.click(screen.getByRole('button', { name: 'Pop out chat' }));
    await fireEvent.click(screen.getByRole('button', { name: 'Toggle the compact companion window' }));
    expect(fake.sent.map((s) => s.channel)).toEqual(['window:pop-out-chat', 'window:toggle-companion']);
    expect(open).not.toHaveBeenCalled();
  });

  it('open the chat-only page in a new browser window, its address free of the token', async () => {
    const { open, windows } = stubOpen('window');
    const { fake } = setup();
    await settle();
    await fireEvent.click(screen.getByRole('button', { name: 'Pop out chat' }));
    const origin = window.location.origin;
    // The new window gets the token from this tab's session storage: none in its address, none in history.
    expect(open.mock.calls[0]?.[0]).toBe(`${origin}${window.location.pathname}#/chat`);
    expect(open.mock.calls[0]?.[1]).toBe('greenroom-chat');
    // A second click brings the same window forward rather than loading another.
    await fireEvent.click(screen.getByRole('button', { name: 'Pop out chat' }));
    expect(open).toHaveBeenCalledTimes(1);
    // The companion opens as the compact layout, and the same button closes it again.
    await fireEvent.click(screen.getByRole('button', { name: 'Toggle the compact companion window' }));
    expect(open.mock.calls[1]?.[0]).toBe(`${origin}${window.location.pathname}?compact=1`);
    expect(open.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('abc'))).toEqual([]);
    await fireEvent.click(screen.getByRole('button', { name: 'Toggle the compact companion window' }));
    expect(windows[1]?.closed).toBe(true);
    expect(fake.sent).toEqual([]);
    expect(screen.queryByRole('alert', { name: /did not open/ })).toBeNull();
  });

  it('says so when the browser blocks the window, with the link to open and copy', async () => {
    stubOpen('blocked');
    const { copied } = setup();
    await settle();
    await fireEvent.click(screen.getByRole('button', { name: 'Pop out chat' }));
    const notice = screen.getByRole('alert', { name: 'The chat window did not open' });
    expect(notice.textContent).toContain('blocks pop-ups');
    const link = within(notice).getByRole('link', { name: 'Open the chat window' });
    const url = `${window.location.origin}${window.location.pathname}?token=abc#/chat`;
    expect(link.getAttribute('href')).toBe(url);
    await fireEvent.click(within(notice).getByRole('button', { name: 'Copy Link' }));
    expect(copied).toEqual([url]);
    await fireEvent.click(within(notice).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('alert', { name: 'The chat window did not open' })).toBeNull();

    await fireEvent.click(screen.getByRole('button', { name: 'Toggle the compact companion window' }));
    expect(screen.getByRole('alert', { name: 'The companion window did not open' }).textContent).toContain(
      '?token=abc&compact=1',
    );
  });
});

/** The browser's Notification, granted, recording what it shows. */
function stubNotifications(permission: 'granted' | 'denied' | 'default' = 'granted') {
  const shown: { title: string; body: string; tag: string }[] = [];
  class FakeNotification {
    static permission = permission;
    static requestPermission = vi.fn(() => Promise.resolve(permission));
    onclick: (() => void) | null = null;
    constructor(title: string, options: { body: string; tag: string }) {
      shown.push({ title, ...options });
    }
  }
  vi.stubGlobal('Notification', FakeNotification);
  return { shown, FakeNotification };
}

describe('notifications in a browser', () => {
  beforeEach(() => localStorage.clear());

  it('shows a follow with the chime once the streamer switched them on; chat and the switch off show none', async () => {
    const { shown } = stubNotifications();
    const { fake, chimes } = setup();
    await settle();
    const follow = feedItem({ id: 'f1', kind: 'follow', text: 'pixelpanda followed' });
    fake.emit('kick:event', { kind: 'feed', item: follow });
    expect(shown).toEqual([]);
    localStorage.setItem('greenroom.browserNotifications', '1');
    fake.emit('kick:event', { kind: 'feed', item: follow });
    expect(shown).toEqual([{ title: 'New follower', body: 'pixelpanda followed', tag: 'f1' }]);
    expect(chimes).toHaveLength(1);
  });

  it('stays quiet in the pop-out chat and the compact companion', async () => {
    const { shown } = stubNotifications();
    localStorage.setItem('greenroom.browserNotifications', '1');
    const chat = setup('chat');
    const companion = setup('compact');
    await settle();
    chat.fake.emit('kick:event', { kind: 'feed', item: feedItem({ kind: 'follow' }) });
    companion.fake.emit('kick:event', { kind: 'feed', item: feedItem({ kind: 'follow' }) });
    expect(shown).toEqual([]);
    expect([...chat.chimes, ...companion.chimes]).toEqual([]);
  });

  it('300 follows: one notification and one chime, then one "+299 more follows"; a second panel stays quiet', async () => {
    const { shown } = stubNotifications();
    localStorage.setItem('greenroom.browserNotifications', '1');
    const first = setup();
    const second = setup();
    await settle();
    for (let i = 0; i < 300; i++) {
      const item = feedItem({ id: `f${i}`, kind: 'follow', text: `viewer${i} followed` });
      first.fake.emit('kick:event', { kind: 'feed', item });
      second.fake.emit('kick:event', { kind: 'feed', item });
    }
    expect(shown.map((n) => n.tag)).toEqual(['f0']);
    expect([first.chimes.length, second.chimes.length]).toEqual([1, 0]);
    first.clock.advance(10_000);
    second.clock.advance(10_000);
    expect(shown.map((n) => n.title)).toEqual(['New follower', '+299 more follows']);
    expect(first.chimes.length + second.chimes.length).toBe(1);
  });
});
