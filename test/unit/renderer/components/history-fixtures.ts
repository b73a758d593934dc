/** Stream history views for the panel's tests: a stream list, a recap and a viewer's story, as main sends them. */
import type {
  HistoryRecapView,
  HistoryStreamFigures,
  HistoryStreamItem,
  HistoryViewerStoryView,
} from '../../../../shared/history';

export const DAY = 86_400_000;
export const START = Date.parse('2026-11-20T18:00:00Z');

export function figures(over: Partial<HistoryStreamFigures> = {}): HistoryStreamFigures {
  return { durationMs: 2 * 3_600_000, messages: 1_200, chatters: 80, followers: 12, subs: 3, kicks: 500, ...over };
}

/** Two streams, newest first: the newer one compared with the older. */
export function streamList(): HistoryStreamItem[] {
  return [
    {
      startedAtMs: START,
      endedAtMs: START + 3 * 3_600_000,
      title: 'Ranked grind <b>bold</b>',
      category: 'Just Chatting',
      figures: figures({ durationMs: 3 * 3_600_000, messages: 1_500, followers: 9 }),
      comparedWithPrevious: { durationMs: 3_600_000, messages: 300, chatters: 0, followers: -3, subs: 0, kicks: 0 },
    },
    {
      startedAtMs: START - 7 * DAY,
      endedAtMs: START - 7 * DAY + 2 * 3_600_000,
      title: 'First stream',
      category: null,
      figures: figures(),
      comparedWithPrevious: null,
    },
  ];
}

export function recap(over: Partial<HistoryRecapView> = {}): HistoryRecapView {
  return {
    stream: {
      startedAtMs: START,
      endedAtMs: START + 3 * 3_600_000,
      seenFromMs: START,
      title: 'Ranked grind <b>bold</b>',
      category: 'Just Chatting',
      changes: [{ atMs: START + 3_600_000, title: 'Ranked grind, part 2', category: 'Just Chatting' }],
    },
    followers: [
      { userId: 1, username: 'fresh_fan', atMs: START + 60_000 },
      { userId: 2, username: 'second_fan', atMs: START + 120_000 },
    ],
    newSubscribers: [{ userId: 3, username: 'newsub', months: 1, atMs: START + 600_000 }],
    renewedSubscribers: [{ userId: 4, username: 'loyal', months: 14, atMs: START + 700_000 }],
    gifters: [
      { userId: 5, username: 'generous', subs: 10, gifts: 1 },
      { userId: null, username: null, subs: 2, gifts: 2 },
    ],
    kicks: [{ userId: 6, username: 'kicker', kicks: 1_000, gifts: 2 }],
    redemptions: [{ reward: 'Hydrate', count: 4, rejected: 1 }],
    newChatters: [{ userId: 7, username: 'newbie', messages: 3 }],
    returningChatters: [{ userId: 8, username: 'regular', messages: 42 }],
    figures: {
      messages: 1_500,
      peakPerMinute: { count: 88, atMs: START + 30 * 60_000 },
      bans: 1,
      timeouts: 2,
      greenroomActions: 3,
      automodActions: 5,
      adBreaks: null,
      worstWebhookLag: { ms: 4_200, type: 'channel.followed', atMs: START + 60_000 },
      chatPruned: false,
    },
    series: {
      startMs: START,
      bucketMs: 60_000,
      chat: [1, 5, 88, 2],
      follows: [1, 1, 0, 0],
      subs: [0, 0, 1, 1],
      kicks: [0, 1000, 0, 0],
    },
    thankYou: 'Gifted subs: generous (10)\nKICKs: kicker (1000)',
    ...over,
  };
}

export function story(over: Partial<HistoryViewerStoryView> = {}): HistoryViewerStoryView {
  return {
    userId: 42,
    username: 'troll',
    firstSeenMs: START - 30 * DAY,
    lastSeenMs: START,
    messages: 1_234,
    followedAtMs: START - 20 * DAY,
    subMonths: 3,
    giftedSubs: 5,
    kicks: 250,
    streams: 17,
    moderation: [],
    historySinceMs: START - 60 * DAY,
    ...over,
  };
}
