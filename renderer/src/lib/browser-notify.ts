/**
 * Notifications of follows, subs, KICKs and redemptions in a browser panel, through the browser's own
 * Notification API, with the chime ([panel in a browser](../../../docs/panel-in-a-browser.md#notifications-in-a-browser)).
 * The desktop window keeps main's native notifications (electron/main.ts), so nothing here runs there.
 *
 * Off until the streamer switches "Show notifications in this browser" on; only that click asks the browser
 * for permission (browsers ignore or punish a request made without a gesture). The choice is this
 * browser's, kept in its local storage; which kinds notify is the app's Notifications setting, the same
 * rule as the desktop's (shared/feed-notifications.ts). Bursts are paced and one panel per browser speaks
 * (`BrowserNotifier`); the pop-out chat and the compact companion stay quiet (App.svelte), as the desktop's
 * windows do.
 */
import {
  type DesktopNotification,
  notificationFor,
  type NotificationToggles,
} from '../../../shared/feed-notifications';
import { NOTIFY_BURST_MS, NotificationBursts } from '../../../shared/notification-bursts';
import type { FeedItem } from '../../../shared/views';
import type { ChimeFn } from './chime';
import type { Clock } from './clock';
import type { Leadership } from './panel-leader';

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

export { NOTIFY_BURST_MS };

/**
 * A browser panel's notifications, paced as the desktop's are (shared/notification-bursts.ts): the first of
 * a burst is shown at once with the chime, the rest said together every `NOTIFY_BURST_MS` without it. One
 * chime per burst, however many kinds it mixes. Only the panel leading its browser (panel-leader.ts)
 * notifies at all.
 */
export class BrowserNotifier {
  readonly #clock: Clock;
  readonly #chime: ChimeFn;
  readonly #page: NotifyPage;
  readonly #leader: Leadership;
  readonly #bursts: NotificationBursts;
  #lastChimeAt = Number.NEGATIVE_INFINITY;

  constructor(deps: { clock: Clock; chime: ChimeFn; leadership: Leadership; page?: NotifyPage }) {
    this.#clock = deps.clock;
    this.#chime = deps.chime;
    this.#leader = deps.leadership;
    this.#page = deps.page ?? currentPage();
    this.#bursts = new NotificationBursts({
      now: () => this.#clock.now(),
      setTimeout: (fn, ms) => this.#clock.setTimeout(fn, ms),
      canShow: () => this.#canShow(),
      show: (note, tag, first) => {
        this.#show(note, tag);
        const now = this.#clock.now();
        if (first && now - this.#lastChimeAt >= NOTIFY_BURST_MS) {
          this.#lastChimeAt = now;
          this.#chime();
        }
      },
    });
  }

  /** A feed item arrived: shown at once, gathered into its burst, or nothing. Returns whether one showed. */
  notify(item: FeedItem, toggles: NotificationToggles | undefined): boolean {
    const note = toggles ? notificationFor(item, toggles) : null;
    return note !== null && this.#bursts.offer(item, note);
  }

  dispose(): void {
    this.#bursts.dispose();
    this.#leader.dispose();
  }

  #canShow(): boolean {
    return this.#page.Notification !== undefined && browserNotifyStatus(this.#page) === 'on' && this.#leader.leading;
  }

  #show(note: DesktopNotification, tag: string): void {
    const api = this.#page.Notification!;
    const shown = new api(note.title, { body: note.body, tag });
    shown.onclick = () => this.#page.focus?.();
  }
}
