import { describe, expect, it } from 'vitest';
import type { LiveSocketHealthView } from '../../../../shared/views';
import { lastHeardWords, liveSocketWords, webhookTrailWords } from '../../../../renderer/src/lib/live-socket-words';

const NOW = 1_800_000_000_000;
const view = (over: Partial<LiveSocketHealthView>): LiveSocketHealthView => ({
  state: 'connected',
  provider: 'pusher',
  keySource: 'discovered',
  channels: ['chatrooms.1.v2'],
  connectedAtMs: NOW - 60_000,
  lastFrameAtMs: NOW - 120_000,
  retryAtMs: null,
  lastClose: null,
  problem: null,
  counters: { events: 3, unknown: 0, malformed: 0, reconnects: 0 },
  ...over,
});

describe('liveSocketWords', () => {
  it('says each state plainly, with what to do where there is something, and no internal names', () => {
    const lines = (['connected', 'connecting', 'waiting', 'refused', 'needs-ids', 'off'] as const).map((state) =>
      liveSocketWords(view({ state, retryAtMs: state === 'waiting' ? NOW + 4_000 : null }), NOW),
    );
    expect(lines.map((l) => l.title)).toEqual([
      'Connected: chat arrives the moment it is typed',
      'Connecting…',
      'Connection lost; trying again in less than a minute',
      'Kick turned the connection away',
      'Waiting for your channel’s two numbers',
      'Off',
    ]);
    expect(lines[3]!.fix).toContain('Settings');
    expect(lines[4]!.fix).toContain('Settings → Kick’s live chat connection');
    for (const words of lines) {
      expect(`${words.title} ${words.fix ?? ''}`).not.toMatch(/pusher|centrifug|chatrooms\.|needs-ids|4\d\d\d/i);
    }
  });

  it('says when Kick was last heard, or that it has not been', () => {
    expect(lastHeardWords(view({}), NOW)).toBe('2 min ago');
    expect(lastHeardWords(view({ lastFrameAtMs: null }), NOW)).toBe('nothing yet');
  });

  it('says a message newer than the panel’s ticking clock came less than a minute ago, never "in"', () => {
    expect(lastHeardWords(view({ lastFrameAtMs: NOW + 20_000 }), NOW)).toBe('less than a minute ago');
    expect(lastHeardWords(view({ lastFrameAtMs: NOW }), NOW)).toBe('less than a minute ago');
  });
});

describe('webhookTrailWords', () => {
  it('says nothing until a line came both ways, then how much later the webhooks bring it', () => {
    expect(webhookTrailWords(view({}), NOW)).toBeNull();
    expect(webhookTrailWords(view({ webhookTrail: { samples: 0, p50Ms: null, p95Ms: null } }), NOW)).toBeNull();
    expect(webhookTrailWords(view({ webhookTrail: { samples: 3, p50Ms: 400, p95Ms: 1_400 } }), NOW)).toBe(
      'Kick’s webhooks bring the same chat under a second later (about 1 second at most for 95 in 100 lines).',
    );
    expect(webhookTrailWords(view({ webhookTrail: { samples: 40, p50Ms: 600_000, p95Ms: 960_000 } }), NOW)).toBe(
      'Kick’s webhooks bring the same chat about 10 minutes later (about 16 minutes at most for 95 in 100 lines).',
    );
  });

  it('says the webhooks are behind while lines shown here have waited over a minute for theirs', () => {
    // Earlier lines caught up at once; now 12 are held, the oldest for 4 minutes.
    const held = { samples: 3, p50Ms: 400, p95Ms: 600, awaiting: 12, oldestAwaitedAtMs: NOW - 4 * 60_000 };
    expect(webhookTrailWords(view({ webhookTrail: held }), NOW)).toBe(
      'Kick’s webhooks are behind: 12 chat lines shown here have not come by webhook yet, the oldest 4 min ago.',
    );
    expect(webhookTrailWords(view({ webhookTrail: { ...held, awaiting: 1 } }), NOW)).toBe(
      'Kick’s webhooks are behind: 1 chat line shown here has not come by webhook yet, the oldest 4 min ago.',
    );
    // Under a minute is the ordinary trail; with chat not subscribed no webhook is awaited, so Kick is not blamed.
    const usual =
      'Kick’s webhooks bring the same chat under a second later (under a second at most for 95 in 100 lines).';
    expect(webhookTrailWords(view({ webhookTrail: { ...held, oldestAwaitedAtMs: NOW - 20_000 } }), NOW)).toBe(usual);
    expect(webhookTrailWords(view({ webhookTrail: held }), NOW, false)).toBe(usual);
    expect(
      webhookTrailWords(view({ webhookTrail: { ...held, samples: 0, p50Ms: null, p95Ms: null } }), NOW, false),
    ).toBeNull();
  });
});
