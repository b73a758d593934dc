/**
 * Kick's live chat connection in Health, in a streamer's words ([Settings](../../../docs/settings.md#kicks-live-chat-connection)):
 * one line for the state with what to do about it, and when Kick was last heard on it. The provider, the channels
 * and the close codes are for Details. Pure.
 */
import type { LiveSocketHealthView } from '../../../shared/views';
import { formatNumber } from '../../../shared/plural';
import { formatAgo, formatRelative } from './format';

export interface LiveSocketWords {
  title: string;
  tone: 'ok' | 'warn' | 'bad' | 'off';
  /** What the streamer can do, when there is something. */
  fix: string | null;
}

export function liveSocketWords(view: LiveSocketHealthView, now: number): LiveSocketWords {
  switch (view.state) {
    case 'connected':
      return { title: 'Connected: chat arrives the moment it is typed', tone: 'ok', fix: null };
    case 'connecting':
      return { title: 'Connecting…', tone: 'warn', fix: null };
    case 'waiting':
      return {
        title: `Connection lost; trying again ${view.retryAtMs === null ? 'shortly' : formatRelative(view.retryAtMs, now)}`,
        tone: 'warn',
        fix: 'Chat still arrives through Kick’s webhooks meanwhile, only later.',
      };
    case 'refused':
      return {
        title: 'Kick turned the connection away',
        tone: 'bad',
        fix: 'Chat arrives through Kick’s webhooks only. Switch the live chat connection off and on in Settings to try again.',
      };
    case 'needs-ids':
      return {
        title: 'Waiting for your channel’s two numbers',
        tone: 'warn',
        fix: 'Kick’s website would not tell Greenroom your channel id and chatroom id. Enter them once in Settings → Kick’s live chat connection.',
      };
    case 'off':
      return { title: 'Off', tone: 'off', fix: null };
  }
}

/**
 * "2 min ago", or that nothing came yet: when Kick last sent anything on the connection, a keep-alive included, so
 * it is not worded as a chat message.
 */
export function lastHeardWords(view: LiveSocketHealthView, now: number): string {
  return view.lastFrameAtMs === null ? 'nothing yet' : formatAgo(view.lastFrameAtMs, now);
}

/** A chat line's webhook this much later than the socket's copy is worth telling the streamer about. */
export const BEHIND_AFTER_MS = 60_000;

/**
 * How far Kick's webhooks trail the live connection, over the chat lines both brought
 * ([design notes](../../../docs/design-notes.md#chat-from-the-live-socket-first)); null until one line came both ways.
 * While lines shown here have waited over a minute for their webhook, that is said instead: the figures only
 * describe lines that caught up, so they would read "under a second" all through a backlog. `chatByWebhook`
 * false (chat messages not subscribed) means no webhook will come, so nothing is blamed on Kick.
 */
export function webhookTrailWords(view: LiveSocketHealthView, now: number, chatByWebhook = true): string | null {
  const trail = view.webhookTrail;
  const oldest = trail?.oldestAwaitedAtMs ?? null;
  if (chatByWebhook && trail?.awaiting && oldest !== null && now - oldest >= BEHIND_AFTER_MS) {
    const lines =
      trail.awaiting === 1
        ? '1 chat line shown here has'
        : `${formatNumber(trail.awaiting)} chat lines shown here have`;
    return `Kick’s webhooks are behind: ${lines} not come by webhook yet, the oldest ${formatAgo(oldest, now)}.`;
  }
  if (!trail || trail.samples === 0 || trail.p50Ms === null || trail.p95Ms === null) {
    return null;
  }
  return `Kick’s webhooks bring the same chat ${gap(trail.p50Ms)} later (${gap(trail.p95Ms)} at most for 95 in 100 lines).`;
}

function gap(ms: number): string {
  if (ms < 1_000) {
    return 'under a second';
  }
  if (ms < 90_000) {
    const seconds = Math.round(ms / 1_000);
    return `about ${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  }
  return `about ${Math.round(ms / 60_000)} minutes`;
}
