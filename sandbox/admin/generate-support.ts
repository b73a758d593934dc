/**
 * Viewer support: follows, new and renewed subscriptions, gifted subs and KICKs. Each changes the state the
 * way kick.com would (follow list, subscriber counts and badges, the KICKs leaderboard) before it emits.
 */
import { followPayload, giftsPayload, KICK_GIFTS, kicksPayload, subscriptionPayload } from '../events/payloads';
import {
  activeViewers,
  badgeCount,
  chooseUser,
  type GenerateContext,
  overrideNumber,
  overrideString,
  overrideUserId,
  setBadge,
  TriggerInputError,
} from './generate-context';
import { readOverride } from './overrides';
import { chance, intBetween, pick, sample, weighted } from './random';
import { KICKS_MESSAGES } from './vocabulary';

function followKey(broadcasterUserId: number, userId: number): string {
  return `${broadcasterUserId}:${userId}`;
}

/** `channel.followed` from a viewer who does not follow yet (anyone once everyone does: Kick re-announces refollows). */
export function generateFollow(g: GenerateContext): void {
  const notFollowing = activeViewers(g.state, g.broadcasterUserId).filter(
    (id) => !g.state.follows.has(followKey(g.broadcasterUserId, id)),
  );
  const follower = chooseUser(g, 'follower', { pool: notFollowing.length > 0 ? notFollowing : undefined });
  g.state.follows.add(followKey(g.broadcasterUserId, follower));
  g.emit('channel.followed', followPayload(g.state, g.broadcasterUserId, follower));
}

function subscribe(g: GenerateContext, userId: number, months: number): void {
  g.channel.activeSubscribers += 1;
  setBadge(g.state.user(userId), g.broadcasterUserId, { text: 'Subscriber', type: 'subscriber', count: months });
}

/** `channel.subscription.new`: a viewer without a sub badge subscribes for the first time (duration 1). */
export function generateNewSubscription(g: GenerateContext): void {
  const pool = activeViewers(g.state, g.broadcasterUserId).filter(
    (id) => badgeCount(g.state.user(id), g.broadcasterUserId, 'subscriber') === 0,
  );
  const subscriber = chooseUser(g, 'subscriber', { pool: pool.length > 0 ? pool : undefined });
  const duration = overrideNumber(g, 'duration', 1);
  subscribe(g, subscriber, duration);
  g.emit(
    'channel.subscription.new',
    subscriptionPayload(g.state, g.broadcasterUserId, subscriber, duration, g.state.supportAtMs()),
  );
}

/** `channel.subscription.renewal`: a subscriber renews; `duration` is their cumulative months. */
export function generateRenewal(g: GenerateContext): void {
  const pool = activeViewers(g.state, g.broadcasterUserId).filter(
    (id) => badgeCount(g.state.user(id), g.broadcasterUserId, 'subscriber') > 0,
  );
  const subscriber = chooseUser(g, 'subscriber', { pool: pool.length > 0 ? pool : undefined });
  const held = badgeCount(g.state.user(subscriber), g.broadcasterUserId, 'subscriber');
  const duration = overrideNumber(g, 'duration', held > 0 ? held + 1 : intBetween(g.rng, 2, 24));
  subscribe(g, subscriber, duration);
  g.emit(
    'channel.subscription.renewal',
    subscriptionPayload(g.state, g.broadcasterUserId, subscriber, duration, g.state.supportAtMs()),
  );
}

/**
 * `channel.subscription.gifts`: a viewer (or, one time in five, an anonymous gifter) gifts 1–10 subs to
 * other viewers. Overrides: `gifter.is_anonymous`, `gifter.user_id`/`username`, and `giftees` (an array
 * whose length sets the count; entries naming `user_id` pick those viewers).
 */
export function generateGifts(g: GenerateContext): void {
  const anonymousOverride = readOverride(g.overrides, 'gifter.is_anonymous');
  const named = overrideUserId(g, 'gifter');
  const anonymous =
    anonymousOverride === true || (anonymousOverride === undefined && named === undefined && chance(g.rng, 0.2));
  const gifter = anonymous ? null : chooseUser(g, 'gifter');
  const wanted = readOverride(g.overrides, 'giftees');
  const count = Array.isArray(wanted)
    ? wanted.length
    : weighted(g.rng, [
        [1, 5],
        [5, 3],
        [10, 1],
        [intBetween(g.rng, 2, 4), 2],
      ]);
  const explicit = Array.isArray(wanted)
    ? wanted.map((entry: unknown) =>
        typeof entry === 'object' && entry !== null && typeof (entry as { user_id?: unknown }).user_id === 'number'
          ? (entry as { user_id: number }).user_id
          : null,
      )
    : [];
  const taken = new Set<number>(explicit.filter((id): id is number => id !== null));
  if (gifter !== null) {
    taken.add(gifter);
  }
  const pool = activeViewers(g.state, g.broadcasterUserId).filter((id) => !taken.has(id));
  const random = sample(g.rng, pool, count);
  const giftees = Array.from({ length: count }, (_, i) => explicit[i] ?? random.shift()).filter(
    (id): id is number => id !== undefined,
  );
  if (giftees.length === 0) {
    throw new TriggerInputError('giftees: no viewer is left to receive a gift', 409);
  }
  for (const id of giftees) {
    subscribe(g, id, Math.max(1, badgeCount(g.state.user(id), g.broadcasterUserId, 'subscriber')));
  }
  if (gifter !== null) {
    const user = g.state.user(gifter);
    const gifted = badgeCount(user, g.broadcasterUserId, 'sub_gifter') + giftees.length;
    setBadge(user, g.broadcasterUserId, { text: 'Sub Gifter', type: 'sub_gifter', count: gifted });
  }
  g.emit(
    'channel.subscription.gifts',
    giftsPayload(g.state, g.broadcasterUserId, gifter, giftees, g.state.supportAtMs()),
  );
}

/**
 * `kicks.gifted`: a viewer sends one of Kick's gifts (small ones far more often). Recorded in
 * `state.kicksGifts`, so `GET /kicks/leaderboard` moves. `gift.amount`, `gift.name`, `gift.message` and
 * `sender.*` overrides steer what is recorded.
 */
export function generateKicks(g: GenerateContext): void {
  const sender = chooseUser(g, 'sender');
  const base = weighted(
    g.rng,
    KICK_GIFTS.map((gift) => [gift, 1000 / gift.amount + 2] as const),
  );
  const gift = {
    name: overrideString(g, 'gift.name', base.name),
    type: overrideString(g, 'gift.type', base.type),
    tier: overrideString(g, 'gift.tier', base.tier),
    amount: overrideNumber(g, 'gift.amount', base.amount),
  };
  if (!Number.isInteger(gift.amount) || gift.amount < 1) {
    throw new TriggerInputError('overrides.gift.amount: must be a positive integer');
  }
  const message = overrideString(g, 'gift.message', pick(g.rng, KICKS_MESSAGES));
  // The leaderboard counts it from now; the webhook's time may run a few ms ahead in a burst (`supportAtMs`).
  g.state.kicksGifts.push({
    broadcasterUserId: g.broadcasterUserId,
    senderUserId: sender,
    amount: gift.amount,
    createdAtMs: g.state.now(),
  });
  g.emit('kicks.gifted', kicksPayload(g.state, g.broadcasterUserId, sender, gift, message, g.state.supportAtMs()));
}
