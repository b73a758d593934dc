/**
 * A redemption alerts once, on its first delivery: Kick delivers the same redemption again when it is
 * accepted or rejected (docs/overlays.md#alerts). Remembers the last 10,000 redemption ids.
 */
import type { AlertSource } from '../services/alert-source';

const REMEMBERED = 10_000;

export class RedemptionsSeen {
  readonly #ids = new Set<string>();

  /** True for anything but a redemption already seen; notes the redemption as seen. */
  isFirst(source: AlertSource): boolean {
    if (source.redemptionId === undefined) {
      return true;
    }
    if (this.#ids.has(source.redemptionId)) {
      return false;
    }
    this.#ids.add(source.redemptionId);
    if (this.#ids.size > REMEMBERED) {
      this.#ids.delete(this.#ids.values().next().value!);
    }
    return true;
  }
}
