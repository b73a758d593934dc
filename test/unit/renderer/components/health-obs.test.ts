import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { OBS_VIEW_NOT_SET_UP, type ObsView } from '../../../../shared/obs';
import HealthObs from '../../../../renderer/src/components/HealthObs.svelte';
import { ObsState } from '../../../../renderer/src/lib/state/obs.svelte';
import { createFakeApi, manualClock } from '../fake-api';
import { health } from '../fixtures';
import { liveStats, OBS_NOW, obsView, warning } from '../obs-fixtures';

function setup(view: ObsView, kick: { live: boolean; viewers: number } | null = { live: true, viewers: 42 }) {
  const obs = new ObsState(createFakeApi().api, manualClock(OBS_NOW));
  obs.apply(view);
  render(HealthObs, { props: { obs, kick, lag: health().lag } });
  const region = screen.getByRole('region', { name: 'OBS' });
  return { region, text: () => region.textContent.replace(/\s+/g, ' ') };
}

describe('HealthObs', () => {
  it('each connection state in the streamer’s words, with its fix', () => {
    const cases: [ObsView['connection'], string, RegExp | null][] = [
      [{ kind: 'not-set-up' }, 'OBS is not connected yet.', /^Connect it in Settings → OBS/],
      [{ kind: 'connecting', attempt: 1 }, 'Connecting to OBS…', null],
      [
        { kind: 'connected', obsVersion: '29.0.2', websocketVersion: '5.1.0', since: OBS_NOW },
        'Connected to OBS — OBS 29.0.2, websocket 5.1.0.',
        null,
      ],
      [
        { kind: 'wrong-password' },
        'OBS refused the password.',
        /Tools → WebSocket Server Settings → Show Connect Info/,
      ],
      [
        { kind: 'unreachable', since: OBS_NOW, nextTryAt: OBS_NOW + 2000, detail: 'connect ECONNREFUSED' },
        'OBS not reachable.',
        /^Open OBS and enable Tools → WebSocket Server Settings/,
      ],
    ];
    for (const [connection, title, fix] of cases) {
      const { region } = setup(obsView({ connection }));
      expect(within(region).getByTestId('obs-connection').textContent).toBe(title);
      const fixLine = region.querySelector('.fix');
      if (fix) {
        expect(fixLine?.textContent).toMatch(fix);
      } else {
        expect(fixLine).toBeNull();
      }
      document.body.innerHTML = '';
    }
  });

  it('both sides together: Kick live with viewers and lag beside OBS’s outputs, frames, FPS, CPU and disk', () => {
    const { region } = setup(obsView({ stats: liveStats(), warnings: [warning()] }));
    const [kick, obs] = [...region.querySelectorAll('dl')].map((dl) =>
      Object.fromEntries(
        [...dl.querySelectorAll('dt')].map((dt) => [dt.textContent.trim(), dt.nextElementSibling!.textContent.trim()]),
      ),
    );
    expect(kick).toEqual({ Stream: 'Live', Viewers: '42', 'Events arrive': '0.2 s late' });
    expect(obs).toEqual({
      Stream: 'Streaming for 1:02:03',
      Bitrate: '6,000 kb/s',
      Recording: 'Recording for 4:05',
      'Dropped frames': '12 of 3,000 (0.4%)',
      'Lagged frames': '3 of 3,100 (0.1%)',
      FPS: '30.0',
      'CPU (OBS)': '12.5%',
      'Disk for recordings': '20.0 GB free',
    });
    expect(screen.getByRole('list', { name: 'Stream warnings' }).textContent).toBe(warning().line);
  });

  it('keeps the internal names behind Details', async () => {
    const { region } = setup(
      obsView({
        connection: {
          kind: 'unreachable',
          since: OBS_NOW,
          nextTryAt: null,
          detail: 'connect ECONNREFUSED 127.0.0.1:4455',
        },
      }),
    );
    const details = region.querySelector('details')!;
    const outside = region.textContent.replace(details.textContent, '');
    expect(outside).not.toMatch(/ECONNREFUSED|obs:changed|unreachable/);
    expect(details.textContent).toMatch(/obs:changed.*unreachable/s);
    expect(details.textContent).toContain('connect ECONNREFUSED 127.0.0.1:4455');
    await fireEvent.click(within(region).getByText('Details'));
  });

  it('readings kept after OBS dropped say when they were read', () => {
    const at = new Date(2026, 0, 1, 20, 15).getTime();
    const { text } = setup(
      obsView({
        connection: { kind: 'unreachable', since: at, nextTryAt: null, detail: 'x' },
        stats: liveStats({ at }),
      }),
    );
    expect(text()).toContain('As of 20:15: OBS has not reported since.');
  });

  it('not set up: no figures, only how to connect', () => {
    const { text } = setup(OBS_VIEW_NOT_SET_UP);
    expect(text()).not.toMatch(/Dropped frames|Viewers/);
  });
});
