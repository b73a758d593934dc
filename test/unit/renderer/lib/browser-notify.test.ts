import { describe, expect, it, vi } from 'vitest';
import {
  BrowserNotifier,
  browserNotifyStatus,
  disableBrowserNotify,
  enableBrowserNotify,
  type NotifyPage,
} from '../../../../renderer/src/lib/browser-notify';
import { manualClock } from '../fake-api';
import { feedItem } from '../fixtures';

const leading = { leading: true, dispose: () => undefined };

/** One notifier on `env`, as a full panel makes it. */
function notifier(env: NotifyPage, chime: () => void) {
  return new BrowserNotifier({ clock: manualClock(), chime, leadership: leading, page: env });
}

const ALL_ON = { follows: true, subs: true, kicks: true, redemptions: true };

function page(permission: 'default' | 'granted' | 'denied', answer: 'granted' | 'denied' = 'granted') {
  const shown: { title: string; body: string; tag: string }[] = [];
  const store = new Map<string, string>();
  const Notification = class {
    static permission = permission;
    static requestPermission = vi.fn(() => {
      Notification.permission = answer;
      return Promise.resolve(answer);
    });
    onclick: (() => void) | null = null;
    constructor(title: string, options: { body: string; tag: string }) {
      shown.push({ title, ...options });
    }
  };
  const env: NotifyPage = {
    Notification,
    localStorage: { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v) },
  };
  return { env, shown, Notification };
}

describe('browser-notify', () => {
  it('is off until switched on; switching on asks the browser once, then notifies with the chime', async () => {
    const { env, shown, Notification } = page('default');
    const chime = vi.fn();
    const follow = feedItem({ id: 'f9', kind: 'follow', text: 'pixelpanda followed' });
    const notifyInBrowser = (item: typeof follow, toggles: typeof ALL_ON, _chime: unknown, on: NotifyPage) =>
      notifier(on, chime).notify(item, toggles);
    expect(browserNotifyStatus(env)).toBe('off');
    expect(notifyInBrowser(follow, ALL_ON, chime, env)).toBe(false);
    expect(Notification.requestPermission).not.toHaveBeenCalled();
    expect(await enableBrowserNotify(env)).toBe('on');
    expect(Notification.requestPermission).toHaveBeenCalledTimes(1);
    expect(notifyInBrowser(follow, ALL_ON, chime, env)).toBe(true);
    expect(shown).toEqual([{ title: 'New follower', body: 'pixelpanda followed', tag: 'f9' }]);
    expect(chime).toHaveBeenCalledTimes(1);
    // The kinds follow the app's Notifications setting, as on the desktop.
    expect(notifyInBrowser(follow, { ...ALL_ON, follows: false }, chime, env)).toBe(false);
    expect(disableBrowserNotify(env)).toBe('off');
    expect(notifyInBrowser(follow, ALL_ON, chime, env)).toBe(false);
    expect(shown).toHaveLength(1);
  });

  it('says when the browser refuses, has none, or is the desktop window (which has its own)', async () => {
    const refused = page('default', 'denied');
    expect(await enableBrowserNotify(refused.env)).toBe('denied');
    expect(browserNotifyStatus({})).toBe('unsupported');
    expect(browserNotifyStatus({ ...page('granted').env, greenroom: {} })).toBe('desktop');
    const desktop = { ...page('granted').env, greenroom: {} };
    expect(await enableBrowserNotify(desktop)).toBe('desktop');
    expect(notifier(desktop, vi.fn()).notify(feedItem({ kind: 'follow' }), ALL_ON)).toBe(false);
  });
});
