/**
 * Names for the viewers in the redemption queue. Kick's redemptions listing carries only
 * `redeemer.user_id`, and a panel opened later (a reload, a second dock) has seen no events, so names are
 * resolved in main: first from what main has seen (chat and the feed), then from Kick's users endpoint,
 * a few at a time and at most a bounded number per listing, remembered in a bounded cache so a refresh does
 * not ask Kick again.
 */
import type { KickUser } from '../../shared/kick/resources';

/** Names looked up at Kick per listing: the rest stay unnamed until an event or a later listing names them. */
const LOOKUPS_MAX = 25;
const LOOKUPS_PARALLEL = 5;
/** Names remembered from lookups. */
const CACHE_MAX = 2000;

export interface RedeemerNamesDeps {
  fetchUser: (userId: number) => Promise<KickUser | null>;
  /** A viewer's name from what main has seen, or null. */
  knownUsername?: (userId: number) => string | null;
  /** Called once per listing when some lookups failed (without user:read, or Kick unreachable). */
  onLookupFailed: (error: unknown) => void;
}

export class RedeemerNames {
  readonly #deps: RedeemerNamesDeps;
  /** Names Kick's users endpoint gave (insertion order, oldest dropped first). */
  readonly #lookedUp = new Map<number, string>();

  constructor(deps: RedeemerNamesDeps) {
    this.#deps = deps;
  }

  /** Names for the user ids that have one; failures are skipped (the queue still lists them, unnamed). */
  async resolve(userIds: number[]): Promise<Map<number, string>> {
    const names = new Map<number, string>();
    const unknown: number[] = [];
    for (const id of new Set(userIds)) {
      const name = this.#deps.knownUsername?.(id) ?? this.#lookedUp.get(id);
      if (name) {
        names.set(id, name);
      } else {
        unknown.push(id);
      }
    }
    let failed: unknown = null;
    const todo = unknown.slice(0, LOOKUPS_MAX);
    // A few at a time, so a long queue of unknown viewers does not burst into Kick's rate limit.
    for (let start = 0; start < todo.length; start += LOOKUPS_PARALLEL) {
      await Promise.all(
        todo.slice(start, start + LOOKUPS_PARALLEL).map(async (id) => {
          try {
            const user = await this.#deps.fetchUser(id);
            if (user?.name) {
              names.set(id, user.name);
              this.#remember(id, user.name);
            }
          } catch (error) {
            failed = error;
          }
        }),
      );
    }
    if (failed !== null) {
      this.#deps.onLookupFailed(failed);
    }
    return names;
  }

  #remember(userId: number, name: string): void {
    this.#lookedUp.delete(userId);
    this.#lookedUp.set(userId, name);
    if (this.#lookedUp.size > CACHE_MAX) {
      const oldest = this.#lookedUp.keys().next();
      if (!oldest.done) {
        this.#lookedUp.delete(oldest.value);
      }
    }
  }
}
