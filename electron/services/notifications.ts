/**
 * Which feed items deserve a desktop notification. The rule is shared with the browser panel's
 * notifications, so it lives in shared/feed-notifications.ts; the Electron shell shows what it returns.
 */
export { type DesktopNotification, notificationFor } from '../../shared/feed-notifications';
