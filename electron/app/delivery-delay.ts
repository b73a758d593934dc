/**
 * An event whose payload has no time of its own (a follow) says when it happened only by
 * `Kick-Event-Message-Timestamp`, and Kick stamps that when it *sends*: a follow held ten minutes in Kick's
 * queue looks on time. While Kick delivers late, such an event is judged by how late Kick delivers right
 * now, the figure Health shows, measured on the events that do carry their own time (chat lines, whose
 * live-socket copy came first, among them). [Late events](../../docs/design-notes.md#late-events) says why.
 */

/**
 * Whether an event is late by Kick's current delivery delay: only when its time is Kick's send time alone
 * (`happenedAtMs` is the header's `sentAtMs`), and the delay (read only then) is past the "late" age.
 */
export function lateByDeliveryDelay(
  happenedAtMs: number | null,
  sentAtMs: number | null,
  deliveryDelayMs: () => number | null,
  lateAfterSec: number,
): boolean {
  return deliveryLatenessMs(happenedAtMs, sentAtMs, deliveryDelayMs, lateAfterSec) !== null;
}

/**
 * How late such an event came, when `lateByDeliveryDelay` finds it late: the delay it was judged by, so what
 * shows it (the alert box's list of alerts not played) says "10 min late", not the second its header shows.
 * Null when it is not late by the delay.
 */
export function deliveryLatenessMs(
  happenedAtMs: number | null,
  sentAtMs: number | null,
  deliveryDelayMs: () => number | null,
  lateAfterSec: number,
): number | null {
  if (happenedAtMs === null || happenedAtMs !== sentAtMs) {
    return null;
  }
  const delay = deliveryDelayMs();
  return delay !== null && Number.isFinite(delay) && delay > lateAfterSec * 1000 ? delay : null;
}
