/**
 * The Health tab in a streamer's words: what each Kick permission lets Greenroom do, how each event type is
 * doing, and how late events arrive. Kick's own names (scopes such as `moderation:ban`, event types such as
 * `channel.followed`, p50/p95) stay behind the tab's Details, for a bug report or Kick's docs. Pure.
 */
import type { KickScope } from '../../../shared/kick/scopes';
import { formatNumber, plural } from '../../../shared/plural';
import { formatAgo } from './format';
import type { HealthView, SubscriptionView } from '../../../shared/views';

/** What each permission lets Greenroom do on Kick. */
export const SCOPE_WORDS: Record<KickScope, string> = {
  'user:read': 'See your Kick profile',
  'channel:read': "Read your channel's title and category",
  'channel:write': 'Change your title, category and tags',
  'channel:rewards:read': 'See your channel rewards and redemptions',
  'channel:rewards:write': 'Create rewards and accept or reject redemptions',
  'chat:write': 'Send chat messages',
  'streamkey:read': 'Show your stream key',
  'events:subscribe': 'Receive your chat, follows, subs and other events',
  'moderation:ban': 'Ban and time out viewers',
  'moderation:chat_message:manage': 'Delete chat messages',
  'kicks:read': 'See KICKs gifted to you',
  'ads:read': 'See your ad breaks',
  'ads:write': 'Run ad breaks',
};

/**
 * How one event type is doing. A subscription Kick holds only means Kick will send these: "Subscribed"
 * until one arrives, "Arriving" (with when) once one has; signed out, nothing is subscribed at all
 * ([design notes](../../../docs/design-notes.md#events-arriving-or-only-subscribed)).
 */
export function subscriptionWords(s: SubscriptionView, context: { signedIn: boolean; now: number }): string {
  if (!context.signedIn) {
    return 'Not subscribed: you are signed out';
  }
  switch (s.state) {
    case 'active':
      return typeof s.lastArrivalMs === 'number'
        ? `Arriving (last one ${formatAgo(s.lastArrivalMs, context.now)})`
        : 'Subscribed: none has arrived yet';
    case 'missing':
      return 'Not subscribed yet: Greenroom subscribes when you are signed in';
    case 'error':
      return `Kick refused to send these${s.error ? `: ${s.error}` : ''}`;
  }
}

/** The look of one event type's line: green only once events of it arrive. */
export function subscriptionTone(s: SubscriptionView, signedIn: boolean): 'arriving' | 'quiet' | 'missing' | 'error' {
  if (!signedIn || s.state === 'missing') {
    return 'missing';
  }
  if (s.state === 'error') {
    return 'error';
  }
  return typeof s.lastArrivalMs === 'number' ? 'arriving' : 'quiet';
}

/** `0.2 s`, `1.5 s`, `12 s`, `3 min`: a delay as a streamer reads it. */
export function delayWords(ms: number): string {
  if (ms < 10_000) {
    return `${(Math.max(ms, 0) / 1000).toFixed(1)} s`;
  }
  if (ms < 120_000) {
    return `${Math.round(ms / 1000)} s`;
  }
  return `${Math.round(ms / 60_000)} min`;
}

/** How late Kick's events reach Greenroom: typical and worst of the recent ones. */
export function lagWords(lag: HealthView['lag']): string {
  if (lag.p50Ms === null || lag.p95Ms === null) {
    return 'No events measured yet.';
  }
  return `Events usually arrive ${delayWords(lag.p50Ms)} after they happen, at worst ${delayWords(lag.p95Ms)} (the last ${plural(lag.samples, 'event')}).`;
}

/**
 * What became of the events Kick sent. Repeats and refusals are named only when there were some: "0 repeats"
 * read as a fault where there was none. A repeat is not blamed on Kick: most are the webhook copy of a line the
 * live socket brought first, or Kick trying again after an answer it did not get. Chat lines the live socket brought
 * first are received too, and said so: counted by their webhooks alone, a raid read "16 events
 * received · 41 arrived twice".
 */
export function deliveryWords(c: HealthView['counters']): string {
  const bySocket = c.fromLiveSocket ?? 0;
  const received = `${plural(c.accepted + bySocket, 'event')} received`;
  return [
    bySocket > 0 ? `${received} (${formatNumber(bySocket)} first by live chat)` : received,
    ...(c.duplicates > 0 ? [`${plural(c.duplicates, 'event')} arrived twice, shown once`] : []),
    ...(c.rejected > 0 ? [formatRefused(c.rejected)] : []),
  ].join(' · ');
}

function formatRefused(n: number): string {
  return `${plural(n, 'delivery', 'deliveries')} refused as not from Kick or damaged`;
}
