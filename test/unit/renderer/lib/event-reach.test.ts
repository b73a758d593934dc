import { describe, expect, it } from 'vitest';
import { lagBannerText, whyNoEvents } from '../../../../renderer/src/lib/event-reach';
import { health } from '../fixtures';

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
});
