import { describe, expect, it } from 'vitest';
import { createTrayPainter, type TrayStatus } from '../../../../electron/shell/tray-status';
import type { AccountView, HealthView } from '../../../../shared/views';

const account = { signedIn: true, accountLabel: 'streamer' } as AccountView;

function health(accepted: number, tunnel: 'up' | 'down' = 'up'): HealthView {
  return {
    tunnel: tunnel === 'up' ? { state: 'up' } : { state: 'down', reason: 'offline' },
    subscriptions: [],
    lag: { state: 'ok' },
    counters: { accepted, duplicates: 0, rejected: 0 },
  } as unknown as HealthView;
}

describe('tray painter', () => {
  it('redraws only when the colour or tooltip changes, not per health change', () => {
    const drawn: TrayStatus[] = [];
    const paint = createTrayPainter((status) => drawn.push(status));
    for (let i = 0; i < 500; i++) {
      paint({ mode: 'kick', account, health: health(i) });
    }
    expect(drawn).toEqual([{ level: 'ok', tooltip: 'Greenroom: streamer, events flowing' }]);
    paint({ mode: 'kick', account, health: health(501, 'down') });
    paint({ mode: 'kick', account, health: health(502, 'down') });
    expect(drawn.map((s) => s.level)).toEqual(['ok', 'warn']);
  });
});
