/**
 * Browser notifications, paced (renderer/src/lib/browser-notify.ts, panel-leader.ts): a burst shows its
 * first at once with one chime, then one "+N more" while it lasts, on the injected clock; only one panel of
 * a browser speaks, through Web Locks or, without them, local storage.
 */
import { describe, expect, it, vi } from 'vitest';
import { BrowserNotifier, NOTIFY_BURST_MS, type NotifyPage } from '../../../../renderer/src/lib/browser-notify';
import {
  type LeaderPage,
  type LockManagerLike,
  panelLeadership,
  STALE_MS,
} from '../../../../renderer/src/lib/panel-leader';
import { manualClock, settle } from '../fake-api';
import { feedItem } from '../fixtures';

const ALL_ON = { follows: true, subs: true, kicks: true, redemptions: true };
const follow = (i: number) => feedItem({ id: `f${i}`, kind: 'follow', text: `viewer${i} followed` });

/** One browser: its notifications (shared by its panels) and its storage, switched on and granted. */
function browser() {
  const shown: { title: string; body: string; tag: string }[] = [];
  const store = new Map<string, string>([['greenroom.browserNotifications', '1']]);
  const Notification = class {
    static permission = 'granted' as const;
    static requestPermission = () => Promise.resolve('granted' as const);
    onclick: (() => void) | null = null;
    constructor(title: string, options: { body: string; tag: string }) {
      shown.push({ title, ...options });
    }
  };
  const localStorage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
    removeItem: (k: string) => void store.delete(k),
  };
  const env: NotifyPage & LeaderPage = { Notification, localStorage };
  return { env, shown, localStorage };
}

/** Web Locks as a browser grants them: one holder per name, the next waiting one when it lets go. */
function fakeLocks(): LockManagerLike {
  const queue: (() => Promise<void> | void)[] = [];
  let held = false;
  const next = (): void => {
    const callback = queue.shift();
    if (!callback || held) {
      if (callback) {
        queue.unshift(callback);
      }
      return;
    }
    held = true;
    void Promise.resolve(callback()).then(() => {
      held = false;
      next();
    });
  };
  return {
    request(_name, callback) {
      queue.push(callback);
      next();
      return Promise.resolve();
    },
  };
}

describe('a burst of notifications', () => {
  it('300 follows: the first at once with one chime, then one "+299 more follows", then quiet', () => {
    const { env, shown } = browser();
    const clock = manualClock();
    const chime = vi.fn();
    const notifier = new BrowserNotifier({ clock, chime, leadership: { leading: true, dispose: vi.fn() }, page: env });
    for (let i = 0; i < 300; i++) {
      notifier.notify(follow(i), ALL_ON);
    }
    expect(shown).toEqual([{ title: 'New follower', body: 'viewer0 followed', tag: 'f0' }]);
    expect(chime).toHaveBeenCalledTimes(1);
    clock.advance(NOTIFY_BURST_MS);
    expect(shown.slice(1)).toEqual([
      { title: '+299 more follows', body: 'Latest: viewer299 followed', tag: 'f0.more' },
    ]);
    clock.advance(NOTIFY_BURST_MS * 3);
    expect(shown).toHaveLength(2);
    expect(chime).toHaveBeenCalledTimes(1);
    // The burst is over: the next follow is shown on its own again, with its chime.
    notifier.notify(follow(300), ALL_ON);
    expect(shown.at(-1)?.tag).toBe('f300');
    expect(chime).toHaveBeenCalledTimes(2);
  });

  it('a burst that keeps coming says its running count once a window, under one tag, without chiming', () => {
    const { env, shown } = browser();
    const clock = manualClock();
    const chime = vi.fn();
    const notifier = new BrowserNotifier({ clock, chime, leadership: { leading: true, dispose: vi.fn() }, page: env });
    for (let i = 0; i < 40; i++) {
      notifier.notify(follow(i), ALL_ON);
      clock.advance(500);
    }
    clock.advance(NOTIFY_BURST_MS * 2);
    expect(shown).toHaveLength(1 + 4);
    expect(new Set(shown.slice(1).map((n) => n.tag))).toEqual(new Set(['f0.more']));
    expect(shown.at(-1)?.title).toBe('+39 more follows');
    expect(chime).toHaveBeenCalledTimes(1);
  });

  it('a raid mixing follows, subs and KICKs chimes once, each kind shown first on its own', () => {
    const { env, shown } = browser();
    const clock = manualClock();
    const chime = vi.fn();
    const notifier = new BrowserNotifier({ clock, chime, leadership: { leading: true, dispose: vi.fn() }, page: env });
    notifier.notify(follow(1), ALL_ON);
    notifier.notify(feedItem({ id: 's1', kind: 'subscription', text: 'a sub' }), ALL_ON);
    notifier.notify(feedItem({ id: 'k1', kind: 'kicks', text: '100 KICKs' }), ALL_ON);
    notifier.notify(feedItem({ id: 'k2', kind: 'kicks', text: '50 KICKs' }), ALL_ON);
    expect(shown.map((n) => n.tag)).toEqual(['f1', 's1', 'k1']);
    expect(chime).toHaveBeenCalledTimes(1);
    clock.advance(NOTIFY_BURST_MS);
    expect(shown.at(-1)?.title).toBe('+1 more KICKs gift');
  });

  it('stops its timers and leaves the lead when the panel goes', () => {
    const { env, shown } = browser();
    const clock = manualClock();
    const dispose = vi.fn();
    const notifier = new BrowserNotifier({ clock, chime: vi.fn(), leadership: { leading: true, dispose }, page: env });
    notifier.notify(follow(1), ALL_ON);
    notifier.notify(follow(2), ALL_ON);
    notifier.dispose();
    clock.advance(NOTIFY_BURST_MS * 2);
    expect(shown).toHaveLength(1);
    expect(dispose).toHaveBeenCalledTimes(1);
  });
});

describe('one panel per browser speaks', () => {
  it('with Web Locks: only the lock holder shows and chimes; the next panel takes over when it closes', async () => {
    const { env, shown } = browser();
    const locks = fakeLocks();
    const page = { ...env, navigator: { locks } };
    const clock = manualClock();
    const chimes = [vi.fn(), vi.fn(), vi.fn()];
    const panels = chimes.map(
      (chime) => new BrowserNotifier({ clock, chime, leadership: panelLeadership(clock, page), page }),
    );
    await settle();
    panels.forEach((panel) => panel.notify(follow(1), ALL_ON));
    expect(shown).toHaveLength(1);
    expect(chimes.map((c) => c.mock.calls.length)).toEqual([1, 0, 0]);
    panels[0]!.dispose();
    await settle();
    clock.advance(NOTIFY_BURST_MS);
    panels.slice(1).forEach((panel) => panel.notify(follow(2), ALL_ON));
    expect(shown).toHaveLength(2);
    expect(chimes.map((c) => c.mock.calls.length)).toEqual([1, 1, 0]);
  });

  it('without Web Locks, local storage names the leader; a silent one is replaced', () => {
    const { localStorage } = browser();
    const clock = manualClock();
    const first = panelLeadership(clock, { localStorage });
    const second = panelLeadership(clock, { localStorage });
    expect([first.leading, second.leading]).toEqual([true, false]);
    clock.advance(STALE_MS * 2);
    // The first is still there (its heartbeat runs): it keeps the lead.
    expect([first.leading, second.leading]).toEqual([true, false]);
    first.dispose();
    expect(second.leading).toBe(true);
    // A leader whose page died without saying so: its heartbeat stops, and after STALE_MS another leads.
    const third = panelLeadership(clock, { localStorage });
    expect(third.leading).toBe(false);
    second.dispose();
    localStorage.setItem('greenroom.notificationsLeader', JSON.stringify({ id: 'gone', at: clock.now() }));
    expect(third.leading).toBe(false);
    clock.advance(STALE_MS);
    expect(third.leading).toBe(true);
  });
});
