import { describe, expect, it } from 'vitest';
import { lagBannerText, whyNoEvents } from '../../../../renderer/src/lib/event-reach';
import { health } from '../fixtures';
import type { LiveSocketHealthView } from '../../../../shared/views';

const liveSocketHealth = (): LiveSocketHealthView => ({
  state: 'connected',
  provider: 'pusher',
  keySource: 'discovered',
  channels: [],
  connectedAtMs: 0,
  lastFrameAtMs: 0,
  retryAtMs: null,
  lastClose: null,
  problem: null,
  counters: { events: 0, unknown: 0, malformed: 0, reconnects: 0 },
});

describe('whyNoEvents', () => {
  it('is quiet while events can arrive, and before health is known', () => {
    expect(whyNoEvents(health(), true)).toBeNull();
    expect(whyNoEvents(null, true)).toBeNull();
    expect(whyNoEvents(health({ mode: 'sandbox', tunnel: { state: 'off' } }), true)).toBeNull();
  });

  it('names each reason on Kick', () => {
    const kick = (over: Parameters<typeof health>[0]) => whyNoEvents(health({ mode: 'kick', ...over }), true)?.text;
    expect(kick({ tunnel: { state: 'off' } })).toMatch(/tunnel is off/);
    expect(kick({ tunnel: { state: 'connecting', attempt: 2 } })).toMatch(/connecting/);
    expect(kick({ tunnel: { state: 'up', url: 'https://x.loca.lt', reachable: false } })).toMatch(/cannot reach/);
    expect(kick({ subscriptions: [{ type: 'channel.followed', state: 'active' }] })).toMatch(/not subscribed to chat/);
  });

  it('says nothing of the tunnel being off once events arrived anyway', () => {
    const arrived = [{ type: 'chat.message.sent', state: 'active' as const, lastArrivalMs: 1 }];
    expect(whyNoEvents(health({ mode: 'kick', tunnel: { state: 'off' }, subscriptions: arrived }), true)).toBeNull();
    const never = [{ type: 'chat.message.sent', state: 'active' as const, lastArrivalMs: null }];
    expect(whyNoEvents(health({ mode: 'kick', tunnel: { state: 'off' }, subscriptions: never }), true)?.text).toMatch(
      /tunnel is off/,
    );
  });

  it('does not say no chat can arrive while the live chat connection brings it', () => {
    const socket = (state: 'connected' | 'waiting') => ({ liveSocket: { ...liveSocketHealth(), state } });
    const off = whyNoEvents(health({ mode: 'kick', tunnel: { state: 'off' }, ...socket('connected') }), true);
    expect(off?.text).toBe(
      "Chat arrives over Kick's live chat connection, but follows, subs, KICKs and redemptions cannot: the tunnel is off, so Kick has no address to deliver them to.",
    );
    expect(off?.action).toMatch(/Turn the tunnel on/);
    // Not connected right now: nothing arrives, as before.
    const down = whyNoEvents(health({ mode: 'kick', tunnel: { state: 'off' }, ...socket('waiting') }), true);
    expect(down?.text).toMatch(/^No events can arrive/);
    const unsubscribed = whyNoEvents(
      health({ subscriptions: [{ type: 'channel.followed', state: 'active' }], ...socket('connected') }),
      true,
    );
    expect(unsubscribed?.text).toBe(
      "Chat arrives over Kick's live chat connection only: Greenroom is not subscribed to chat messages on Kick.",
    );
    // Nothing to say still says nothing.
    expect(whyNoEvents(health(socket('connected')), true)).toBeNull();
  });
});

describe('lagBannerText', () => {
  it('rounds to minutes from a minute on, says seconds below, and is null unless delayed', () => {
    const lag = (delayMs: number | null, state: 'delayed' | 'normal' = 'delayed') =>
      lagBannerText(health({ lag: { samples: 9, p50Ms: 45_000, p95Ms: 50_000, state, delayMs } }));
    expect(lag(14 * 60_000 + 20_000)).toMatch(/^Kick is delaying events by 14 min/);
    expect(lag(45_000)).toMatch(/by 45 s/);
    expect(lag(null)).toMatch(/by 45 s/);
    expect(lag(600_000, 'normal')).toBeNull();
  });

  it('says chat is live while the live chat connection brings it', () => {
    const text = lagBannerText(
      health({
        lag: { samples: 9, p50Ms: 600_000, p95Ms: 610_000, state: 'delayed', delayMs: 600_000 },
        liveSocket: { ...liveSocketHealth(), state: 'connected' },
      }),
    );
    expect(text).toBe(
      "Kick is delaying events by 10 min: chat arrives live over Kick's live chat connection; alerts arrive that late. Nothing is lost.",
    );
  });
});
