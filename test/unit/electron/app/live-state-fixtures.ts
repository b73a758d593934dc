/**
 * What the live-state tests share: a live state on hand-run timers, with a Kick whose answers the test gives
 * one by one, and Kick's events and channel answers as they arrive.
 */
import { LiveState } from '../../../../electron/app/live-state';
import type { KickEvent } from '../../../../electron/webhooks/events/types';
import type { ChannelView } from '../../../../shared/views';
import { ManualTimers } from '../chat-bot/chat-bot-fixtures';

export const STREAMER = 100001;
const ZERO_TIME = '0001-01-01T00:00:00Z';

/** Kick's channel answer (without the key), live or not. */
export function channel(live: boolean, options: { startedAtMs?: number; viewers?: number; id?: number } = {}) {
  return {
    broadcaster_user_id: options.id ?? STREAMER,
    slug: 'streamer',
    channel_description: '',
    banner_picture: '',
    stream_title: live ? 'Ranked grind' : 'Offline title',
    category: { id: 1, name: 'Valorant', thumbnail: '' },
    stream: {
      is_live: live,
      is_mature: false,
      language: 'en',
      viewer_count: live ? (options.viewers ?? 1445) : 0,
      start_time: live ? new Date(options.startedAtMs ?? 1_000_000).toISOString() : ZERO_TIME,
      thumbnail: '',
      custom_tags: [],
      url: '',
    },
    active_subscribers_count: 0,
    canceled_subscribers_count: 0,
  } satisfies ChannelView;
}

let next = 0;
/** A `livestream.status.updated` event as the bus delivers it. */
export function statusEvent(live: boolean, receivedAtMs: number): KickEvent {
  next += 1;
  return {
    kind: 'known',
    type: 'livestream.status.updated',
    version: 1,
    messageId: `live-${next}`,
    subscriptionId: 's',
    timestamp: '',
    receivedAtMs,
    payload: {
      broadcaster: { user_id: STREAMER, username: 'streamer' },
      is_live: live,
      title: 'From the event',
      started_at: new Date(receivedAtMs).toISOString(),
      ended_at: live ? null : new Date(receivedAtMs).toISOString(),
    },
  } as unknown as KickEvent;
}

/** A live state whose Kick answers only when the test says so (`answer`, `fail`). */
export function liveSetup() {
  const timers = new ManualTimers();
  const logs: string[] = [];
  const pushed: (ChannelView | null)[] = [];
  const pending: { resolve: (view: unknown) => void; reject: (error: unknown) => void }[] = [];
  let reads = 0;
  let userId: number | null = STREAMER;
  const live = new LiveState({
    read: () => {
      reads++;
      return new Promise<ChannelView | null>((resolve, reject) =>
        pending.push({ resolve: resolve as (view: unknown) => void, reject }),
      );
    },
    broadcasterUserId: () => userId,
    now: () => timers.now,
    setTimer: timers.set,
    log: (line) => logs.push(line),
    retry: { initialMs: 1_000, maxMs: 8_000 },
    random: () => 0,
  });
  live.onChange((view) => pushed.push(view));
  /** Lets the oldest ask finish with `view` (anything: Kick's answer is checked, not trusted). */
  const answer = async (view: unknown): Promise<void> => {
    pending.shift()!.resolve(view);
    await flush();
  };
  const fail = async (error: unknown): Promise<void> => {
    pending.shift()!.reject(error);
    await flush();
  };
  return {
    live,
    timers,
    logs,
    pushed,
    answer,
    fail,
    reads: () => reads,
    waiting: () => pending.length,
    signOut: () => {
      userId = null;
      live.signedOut();
    },
    /** Another (or the same) broadcaster signs in, as the account service reports it. */
    signIn: (id: number) => {
      userId = id;
      live.signedIn(id);
    },
  };
}

/** Lets promise callbacks run (the ask's answer, then the loop's next turn). */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await Promise.resolve();
  }
}
