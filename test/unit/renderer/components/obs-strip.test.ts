import '@testing-library/svelte/vitest';
import { fireEvent, render, screen } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import { OBS_VIEW_NOT_SET_UP, type ObsView } from '../../../../shared/obs';
import ObsStrip from '../../../../renderer/src/components/ObsStrip.svelte';
import { ObsState } from '../../../../renderer/src/lib/state/obs.svelte';
import { createFakeApi, manualClock } from '../fake-api';
import { liveStats, OBS_NOW, obsView, warning } from '../obs-fixtures';

function setup(
  view: ObsView,
  kick: { live: boolean; viewers: number } | null = { live: true, viewers: 1234 },
  lostAtMs: number | null = null,
) {
  const obs = new ObsState(createFakeApi().api, manualClock(OBS_NOW));
  obs.apply(view);
  const onConnect = vi.fn();
  render(ObsStrip, { props: { obs, kick, lostAtMs, onConnect } });
  return { onConnect, strip: () => screen.queryByTestId('obs-strip') };
}

/** The strip's pieces that never wrap inside themselves, as a 340 px dock must fit each on a line. */
function pieces(): string[] {
  return [...document.querySelectorAll('[data-testid="obs-strip"] > .side')].map((el) =>
    el.textContent.replace(/\s+/g, ' ').trim(),
  );
}

describe('ObsStrip', () => {
  it('OBS not set up: only a small "Connect OBS" link, to Settings', async () => {
    const { onConnect, strip } = setup(OBS_VIEW_NOT_SET_UP);
    expect(strip()).toBeNull();
    await fireEvent.click(screen.getByRole('button', { name: 'Connect OBS' }));
    expect(onConnect).toHaveBeenCalledTimes(1);
    expect(document.body.textContent.trim()).toBe('Connect OBS');
  });

  it('streaming: Kick live with viewers, OBS time on air, bitrate, dropped share, the recording, the first warning', () => {
    setup(
      obsView({ stats: liveStats(), warnings: [warning(), warning({ kind: 'disk-low', line: 'Disk nearly full.' })] }),
    );
    expect(pieces()).toEqual(['Kick ● LIVE · 1,234', 'OBS ● 1:02:03', '6,000 kb/s', '0.4% dropped', 'REC 4:05']);
    expect(screen.getByRole('status').textContent).toBe(warning().line);
    expect(screen.queryByText('Disk nearly full.')).toBeNull();
    expect(screen.queryByText(/as of/)).toBeNull();
  });

  it('fits a 340 px dock: each piece is short enough for one line of it', () => {
    setup(
      obsView({ stats: liveStats({ stream: { ...liveStats().stream, durationMs: 36_000_000, bitrateKbps: 12_345 } }) }),
    );
    // 0.8rem in the dock is about 7 px a character: 24 characters is under 170 px, half of 340 px, so a
    // piece never needs a line wider than the dock and two usually share one.
    expect(pieces().length).toBe(5);
    for (const piece of pieces()) {
      expect(piece.length, piece).toBeLessThanOrEqual(24);
    }
  });

  it('marks more than 1% dropped', () => {
    setup(obsView({ stats: liveStats({ droppedPctRecent: 2.5 }) }));
    expect(screen.getByText('2.5% dropped').classList.contains('bad')).toBe(true);
  });

  it('says each connection state in a few words, and Kick offline', () => {
    setup(obsView({ connection: { kind: 'unreachable', since: OBS_NOW, nextTryAt: null, detail: 'closed' } }), {
      live: false,
      viewers: 0,
    });
    expect(pieces()).toEqual(['Kick offline', 'OBS not reachable']);
  });

  it('wrong password and connecting', () => {
    setup(obsView({ connection: { kind: 'wrong-password' }, stats: null }), null);
    expect(pieces()).toEqual(['OBS: wrong password']);
  });

  it('readings kept after OBS dropped say when they were read', () => {
    setup(
      obsView({
        connection: { kind: 'connecting', attempt: 2 },
        stats: liveStats({ at: new Date(2026, 0, 1, 20, 15).getTime() }),
      }),
    );
    expect(pieces()).toContain('OBS connecting…');
    expect(screen.getByText('as of 20:15')).toBeTruthy();
  });

  it('cut off from the app, everything shown is as of when the link dropped', () => {
    setup(obsView({ stats: liveStats() }), { live: true, viewers: 5 }, new Date(2026, 0, 1, 21, 5).getTime());
    expect(screen.getByText('as of 21:05')).toBeTruthy();
  });
});
