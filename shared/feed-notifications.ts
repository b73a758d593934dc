/**
 * Which feed items deserve a notification: follows, subs (new, renewed, gifted), KICKs and new
 * redemptions, each switchable in the settings. Pure and shared, so the desktop app's notifications
 * (electron/main.ts) and a browser panel's (renderer/src/lib/browser-notify.ts) say the same thing.
 */
import type { FeedItem, SettingsView } from './views';

export type NotificationToggles = SettingsView['notifications'];

/** One notification, for the shell (or the browser) to show. */
export interface DesktopNotification {
  title: string;
  body: string;
  /** The feed item it is about, so clicking it can focus that entry. */
  itemId: string;
}

/** The notification for a feed item, or null when it gets none (kind not notified, or switched off). */
export function notificationFor(item: FeedItem, toggles: NotificationToggles): DesktopNotification | null {
  const title = titleFor(item, toggles);
  return title === null ? null : { title, body: item.text, itemId: item.id };
}

/** What a burst of notifications is grouped by: a wave of follows is one burst, subs in it another. */
export type NotificationCategory = 'follows' | 'subs' | 'kicks' | 'redemptions';

/** The burst a feed item's notification belongs to, or null when it gets none. */
export function notificationCategory(item: FeedItem): NotificationCategory | null {
  switch (item.kind) {
    case 'follow':
      return 'follows';
    case 'subscription':
    case 'renewal':
    case 'gifted-subs':
      return 'subs';
    case 'kicks':
      return 'kicks';
    case 'redemption':
      return 'redemptions';
    default:
      return null;
  }
}

const NOUNS: Record<NotificationCategory, [string, string]> = {
  follows: ['follow', 'follows'],
  subs: ['sub', 'subs'],
  kicks: ['KICKs gift', 'KICKs gifts'],
  redemptions: ['redemption', 'redemptions'],
};

/**
 * The one notification that stands for the rest of a burst ("+12 more follows"), after the first was shown
 * on its own; its body is the latest of them.
 */
export function burstSummary(
  category: NotificationCategory,
  more: number,
  latest: DesktopNotification,
): DesktopNotification {
  const [one, many] = NOUNS[category];
  return { title: `+${more} more ${more === 1 ? one : many}`, body: `Latest: ${latest.body}`, itemId: latest.itemId };
}

function titleFor(item: FeedItem, toggles: NotificationToggles): string | null {
  switch (item.kind) {
    case 'follow':
      return toggles.follows ? 'New follower' : null;
    case 'subscription':
      return toggles.subs ? 'New subscriber' : null;
    case 'renewal':
      return toggles.subs ? 'Sub renewed' : null;
    case 'gifted-subs':
      return toggles.subs ? 'Gifted subs' : null;
    case 'kicks':
      return toggles.kicks ? 'KICKs' : null;
    case 'redemption':
      // Only a redemption waiting for the streamer; its later accept/reject is their own doing.
      return toggles.redemptions && item.redemption?.status === 'pending'
        ? `Redemption: ${item.redemption.rewardTitle || 'a reward'}`
        : null;
    default:
      return null;
  }
}
