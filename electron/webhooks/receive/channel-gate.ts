/**
 * Whose delivery is this? Kick signs every app's deliveries with one key, so a valid signature proves only
 * that Kick sent it, not that it was sent for us: any Kick developer can point their own app's real, signed
 * deliveries at a streamer's webhook URL. A delivery is acted on only when its `Kick-Event-Subscription-Id`
 * is one Greenroom holds and its payload's `broadcaster.user_id` is the channel Greenroom acts for
 * ([design notes](../../../docs/design-notes.md#only-the-signed-in-channels-events)).
 *
 * Pure and synchronous: the subscription reconciler tells it what it holds, the service saves that in the
 * data dir so a restart knows it before the first list, and the receiver asks it about each delivery.
 *
 * Until the channel is known, or while the held subscriptions are not yet listed in this run (or a
 * reconcile that may add one is under way), an id it does not hold is `undecided`: the receiver waits
 * for the next change and answers 503 if none comes in time, so such a delivery is neither dropped nor
 * acted on before it can be judged.
 */

/** What the gate knows, as the data dir keeps it between runs. */
export interface HeldSubscriptions {
  broadcasterUserId: number;
  subscriptionIds: string[];
}

/**
 * `own`: act on it. `other-channel`: the payload names another broadcaster (or none). `other-subscription`:
 * our channel, but a subscription Greenroom does not hold (another app's, or one it deleted).
 * `undecided`: ask again after {@link ChannelGate.nextChange}.
 */
export type Judgement = 'own' | 'other-channel' | 'other-subscription' | 'undecided';

export interface ChannelGate {
  judge(subscriptionId: string, broadcasterUserId: unknown): Judgement;
  /** Resolves at the next change that may decide an `undecided` delivery. */
  nextChange(): Promise<void>;
  /** The channel Greenroom now acts for (sign-in). Another channel than before forgets what was held. */
  setOwner(broadcasterUserId: number): void;
  /** The channel as known now (from this run's sign-in, or saved by the last run); null before either. */
  owner(): number | null;
  /** A reconcile began: until it ends, an id not held waits for its outcome. */
  reconcileStarted(): void;
  /**
   * A reconcile for `broadcasterUserId` ended; `held` is every subscription it leaves in place, or null when
   * Kick could not be listed (what was held stays held).
   */
  reconcileEnded(broadcasterUserId: number, held: readonly string[] | null): void;
  /** What to save for the next run; null before the channel is known. */
  snapshot(): HeldSubscriptions | null;
}

/** A gate that starts from what the last run saved (null on a first run). */
export function createChannelGate(saved: HeldSubscriptions | null): ChannelGate {
  let owner: number | null = saved?.broadcasterUserId ?? null;
  let held = new Set<string>(saved?.subscriptionIds ?? []);
  /** A list for `owner` has come back in this run: an id not held now is not ours. */
  let listed = false;
  let reconciling = 0;
  let change: { promise: Promise<void>; resolve: () => void } | null = null;

  const changed = (): void => {
    const waiting = change;
    change = null;
    waiting?.resolve();
  };

  return {
    judge(subscriptionId, broadcasterUserId) {
      if (owner === null) {
        return 'undecided';
      }
      // Kick sends the id as an integer; a string, even of our id, is not what Kick sends for our channel.
      if (broadcasterUserId !== owner) {
        return 'other-channel';
      }
      if (held.has(subscriptionId)) {
        return 'own';
      }
      return listed && reconciling === 0 ? 'other-subscription' : 'undecided';
    },
    nextChange() {
      if (!change) {
        let resolve: () => void = () => undefined;
        const promise = new Promise<void>((r) => (resolve = r));
        change = { promise, resolve };
      }
      return change.promise;
    },
    setOwner(broadcasterUserId) {
      if (broadcasterUserId !== owner) {
        owner = broadcasterUserId;
        held = new Set();
        listed = false;
      }
      changed();
    },
    owner: () => owner,
    reconcileStarted() {
      reconciling++;
    },
    reconcileEnded(broadcasterUserId, ids) {
      reconciling = Math.max(0, reconciling - 1);
      if (broadcasterUserId === owner && ids !== null) {
        held = new Set(ids);
        listed = true;
      }
      changed();
    },
    snapshot: () => (owner === null ? null : { broadcasterUserId: owner, subscriptionIds: [...held].sort() }),
  };
}
