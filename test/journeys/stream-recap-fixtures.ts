/**
 * What the recap journey checks beyond the lists of `expectedRecap`: new and returning chatters, the figures
 * (messages, the busiest minute, bans and timeouts) and the CSV export's totals, each from the sandbox's own
 * record of what it fired ([history](../../docs/history.md#the-recap)).
 */
import type { HistoryRecapView } from '../../shared/history';
import type { KickEventPayloads } from '../../shared/kick/events';
import type { SandboxEvent } from '../../sandbox/state';
import { expectedRecap } from '../integration/app/history-app-fixtures';

const MINUTE_MS = 60_000;

type Payload<T extends keyof KickEventPayloads> = KickEventPayloads[T];
const of = <T extends keyof KickEventPayloads>(fired: SandboxEvent[], type: T): Payload<T>[] =>
  fired.filter((e) => e.type === type).map((e) => e.payload as Payload<T>);

type Chatter = { userId: number; username: string; messages: number };
const byName = (a: { username: string }, b: { username: string }) => a.username.localeCompare(b.username);

/** The chatters of `fired` (one stream's events), split by whether they were seen before it began. */
export function expectedChatters(fired: SandboxEvent[], seenBefore: ReadonlySet<number>) {
  const { chatters } = expectedRecap(fired);
  return {
    newChatters: chatters.filter((c) => !seenBefore.has(c.userId)).sort(byName),
    returningChatters: chatters.filter((c) => seenBefore.has(c.userId)).sort(byName),
  };
}

/** The same split from a recap read over the contract. */
export function recapChatters(recap: HistoryRecapView) {
  const plain = (list: Chatter[]) => list.map(({ userId, username, messages }) => ({ userId, username, messages }));
  return {
    newChatters: plain(recap.newChatters).sort(byName),
    returningChatters: plain(recap.returningChatters).sort(byName),
  };
}

/** Everyone who wrote in `fired`. */
export function chattersIn(fired: SandboxEvent[]): Set<number> {
  return new Set(of(fired, 'chat.message.sent').map((p) => p.sender.user_id!));
}

/** The figures a recap of the stream that began at `startedAtMs` must give for `fired`. */
export function expectedFigures(fired: SandboxEvent[], startedAtMs: number) {
  const perMinute = new Map<number, number>();
  for (const p of of(fired, 'chat.message.sent')) {
    // The sandbox always stamps its chat lines (Kick's field is optional).
    const minute = Math.floor((Date.parse(p.created_at!) - startedAtMs) / MINUTE_MS);
    perMinute.set(minute, (perMinute.get(minute) ?? 0) + 1);
  }
  let peak: { count: number; atMs: number } | null = null;
  for (const [minute, count] of [...perMinute.entries()].sort((a, b) => a[0] - b[0])) {
    if (!peak || count > peak.count) {
      peak = { count, atMs: startedAtMs + minute * MINUTE_MS };
    }
  }
  const bans = of(fired, 'moderation.banned');
  return {
    messages: of(fired, 'chat.message.sent').length,
    peakPerMinute: peak,
    bans: bans.filter((b) => b.metadata.expires_at === null).length,
    timeouts: bans.filter((b) => b.metadata.expires_at !== null).length,
  };
}

/** The figures of a recap, as `expectedFigures` gives them. */
export function recapFigures(recap: HistoryRecapView) {
  const { messages, peakPerMinute, bans, timeouts } = recap.figures;
  return { messages, peakPerMinute, bans, timeouts };
}

/** The CSV export's `total` rows: list name → [count, amount]. */
export function csvTotals(text: string): Record<string, [number, number]> {
  const totals: Record<string, [number, number]> = {};
  for (const line of text.split('\r\n')) {
    const [kind, name, , count, amount] = line.split(',');
    if (kind === 'total' && name) {
      totals[name] = [Number(count), Number(amount)];
    }
  }
  return totals;
}

/** The totals the CSV must give for `fired`, with `seenBefore` as in `expectedChatters`. */
export function expectedCsvTotals(fired: SandboxEvent[], seenBefore: ReadonlySet<number>) {
  const recap = expectedRecap(fired);
  const chatters = expectedChatters(fired, seenBefore);
  const sum = <T>(list: T[], f: (item: T) => number) => list.reduce((n, item) => n + f(item), 0);
  const lastStatus = new Map<string, string>();
  for (const p of of(fired, 'channel.reward.redemption.updated')) {
    lastStatus.set(p.id, p.status);
  }
  return {
    follower: [recap.followers.length, 0],
    new_subscriber: [recap.newSubscribers.length, sum(recap.newSubscribers, (s) => s.months)],
    renewed_subscriber: [recap.renewedSubscribers.length, sum(recap.renewedSubscribers, (s) => s.months)],
    gifter: [sum(recap.gifters, (g) => g.gifts), sum(recap.gifters, (g) => g.subs)],
    kicks: [sum(recap.kicks, (k) => k.gifts), sum(recap.kicks, (k) => k.kicks)],
    redemption: [lastStatus.size, [...lastStatus.values()].filter((s) => s === 'rejected').length],
    new_chatter: [sum(chatters.newChatters, (c) => c.messages), 0],
    returning_chatter: [sum(chatters.returningChatters, (c) => c.messages), 0],
  };
}
