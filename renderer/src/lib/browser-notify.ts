/**
 * Notifications of follows, subs, KICKs and redemptions in a browser panel, through the browser's own
 * Notification API, with the chime ([panel in a browser](../../../docs/panel-in-a-browser.md#notifications-in-a-browser)).
 * The desktop window keeps main's native notifications (electron/main.ts), so nothing here runs there.
 *
 * Off until the streamer switches "Show notifications in this browser" on; only that click asks the browser
 * for permission (browsers ignore or punish a request made without a gesture). The choice is this
 * browser's, kept in its local storage; which kinds notify is the app's Notifications setting, the same
 * rule as the desktop's (shared/feed-notifications.ts).
 */
import { notificationFor, type NotificationToggles } from '../../../shared/feed-notifications';
import type { FeedItem } from '../../../shared/views';
import type { ChimeFn } from './chime';

/** The slice of the browser's Notification constructor used here. */
export interface NotificationApi {
  readonly permission: 'default' | 'denied' | 'granted';
  requestPermission(): Promise<'default' | 'denied' | 'granted'>;
  new (title: string, options: { body: string; tag: string }): { onclick: (() => void) | null };
}

/** The page globals this reads; a parameter so tests pass their own. */
export interface NotifyPage {
  greenroom?: unknown;
  Notification?: NotificationApi;
  localStorage?: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  focus?(): void;
}

/**
 * `desktop`: the desktop window, which has its own; `unsupported`: this browser (or OBS dock) has no
 * notifications; `denied`: blocked in the browser's site settings; `off` / `on`: the switch.
 */
export type BrowserNotifyStatus = 'desktop' | 'unsupported' | 'denied' | 'off' | 'on';

const WANTED_KEY = 'greenroom.browserNotifications';

const currentPage = (): NotifyPage => globalThis as unknown as NotifyPage;

export function browserNotifyStatus(page: NotifyPage = currentPage()): BrowserNotifyStatus {
  if (page.greenroom !== undefined) {
    return 'desktop';
  }
  if (!page.Notification) {
    return 'unsupported';
  }
  if (page.Notification.permission === 'denied') {
    return 'denied';
  }
  const wanted = page.localStorage?.getItem(WANTED_KEY) === '1';
  return wanted && page.Notification.permission === 'granted' ? 'on' : 'off';
}

/** Switches them on: asks the browser's permission (call it from the click). Resolves with the new status. */
export async function enableBrowserNotify(page: NotifyPage = currentPage()): Promise<BrowserNotifyStatus> {
  const api = page.Notification;
  if (page.greenroom !== undefined || !api) {
    return browserNotifyStatus(page);
  }
  const permission = api.permission === 'granted' ? 'granted' : await api.requestPermission();
  if (permission === 'granted') {
    page.localStorage?.setItem(WANTED_KEY, '1');
  }
  return browserNotifyStatus(page);
}

export function disableBrowserNotify(page: NotifyPage = currentPage()): BrowserNotifyStatus {
  page.localStorage?.setItem(WANTED_KEY, '0');
  return browserNotifyStatus(page);
}

/**
 * Shows the notification a feed item deserves, with the chime, when the switch is on. Tagged with the
 * item's id, so two panels of one browser (a tab and a dock) show it once. Returns whether it showed one.
 */
export function notifyInBrowser(
  item: FeedItem,
  toggles: NotificationToggles | undefined,
  chime: ChimeFn,
  page: NotifyPage = currentPage(),
): boolean {
  const api = page.Notification;
  const note = toggles ? notificationFor(item, toggles) : null;
  if (!note || !api || browserNotifyStatus(page) !== 'on') {
    return false;
  }
  const shown = new api(note.title, { body: note.body, tag: note.itemId });
  shown.onclick = () => page.focus?.();
  chime();
  return true;
}
