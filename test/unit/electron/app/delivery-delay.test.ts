/**
 * Judging an event that carries no time of its own (a follow) by Kick's current delivery delay
 * (electron/app/delivery-delay.ts), alone and through the late gate the app uses.
 */
import { describe, expect, it } from 'vitest';
import { lateByDeliveryDelay } from '../../../../electron/app/delivery-delay';
import { createLateGate } from '../../../../electron/app/late-gate';
import { Feed } from '../../../../electron/services/feed';
import type { KickEvent } from '../../../../electron/webhooks/events/types';
import { followPayload, subscriptionPayload } from '../../../../sandbox/events/payloads';
import { STREAMER_USER_ID } from '../../../../sandbox/world';
import { event, PIXELPANDA, world } from '../services/event-views-fixtures';

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const header = (ms: number) => new Date(ms).toISOString().replace('.000', '');

/** A follow Kick sent (and stamped) at `sentAtMs`, received one second later. */
function follow(sentAtMs: number): KickEvent {
  const payload = followPayload(world(), STREAMER_USER_ID, PIXELPANDA + 1);
  return { ...event('channel.followed', payload, header(sentAtMs)), receivedAtMs: sentAtMs + 1000 };
}

function sub(createdAtMs: number, sentAtMs: number): KickEvent {
  const payload = {
    ...subscriptionPayload(world(), STREAMER_USER_ID, PIXELPANDA, 1),
    created_at: new Date(createdAtMs).toISOString(),
  };
  return { ...event('channel.subscription.new', payload, header(sentAtMs)), receivedAtMs: sentAtMs + 1000 };
}

function gate(delayMs: number | null) {
  let asked = 0;
  const late = createLateGate({
    settings: { values: () => ({ lateAfterSec: 120 }) as never },
    feed: new Feed(),
    events: { emit: () => undefined } as never,
    deliveryDelayMs: () => {
      asked++;
      return delayMs;
    },
  });
  return { judge: (e: KickEvent) => late.judge(e), lateness: (e: KickEvent) => late.lateness(e), asked: () => asked };
}

describe('lateByDeliveryDelay', () => {
  it('judges an event known only by its send time by the delay, past the late age only', () => {
    expect(lateByDeliveryDelay(T0, T0, () => 600_000, 120)).toBe(true);
    expect(lateByDeliveryDelay(T0, T0, () => 120_000, 120)).toBe(false);
    expect(lateByDeliveryDelay(T0, T0, () => null, 120)).toBe(false);
    expect(lateByDeliveryDelay(T0, T0, () => Number.NaN, 120)).toBe(false);
  });

  it('leaves an event with its own time to that time, without asking for the delay', () => {
    let asked = 0;
    const delay = () => (asked++, 600_000);
    expect(lateByDeliveryDelay(T0 - 5000, T0, delay, 120)).toBe(false);
    expect(lateByDeliveryDelay(null, null, delay, 120)).toBe(false);
    expect(asked).toBe(0);
  });
});

describe('the late gate with Kick ten minutes behind', () => {
  it('marks a follow late, though its header says it was just sent', () => {
    const behind = gate(600_000);
    expect(behind.judge(follow(T0))).toBe(true);
    // On time, the same follow is not late.
    expect(gate(2_000).judge(follow(T0))).toBe(false);
    expect(gate(null).judge(follow(T0))).toBe(false);
  });

  it('still judges a sub by its own created_at, whatever the delay says', () => {
    const behind = gate(600_000);
    expect(behind.judge(sub(T0, T0 + 1000))).toBe(false);
    expect(behind.judge(sub(T0 - 600_000, T0))).toBe(true);
    expect(behind.asked()).toBe(0);
  });

  it('says how late by what it judged: the delay for a follow, its own time for a sub', () => {
    const behind = gate(600_000);
    // The follow's header says it was sent a second ago; the delay it was judged by is the ten minutes.
    expect(behind.lateness(follow(T0))).toBe(600_000);
    expect(behind.lateness(sub(T0 - 300_000, T0))).toBe(301_000);
    expect(behind.lateness(sub(T0, T0 + 1000))).toBeNull();
    expect(gate(2_000).lateness(follow(T0))).toBeNull();
  });
});
