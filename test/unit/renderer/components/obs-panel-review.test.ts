/**
 * What a new streamer found in the OBS tab, strip and Health: the keyboard focus stays on the scene or
 * source just used, the tab offers nothing that cannot work while OBS is away, times count on each second
 * between OBS's readings, and the strip's problems lead to Settings.
 */
import '@testing-library/svelte/vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import type { ObsView } from '../../../../shared/obs';
import HealthObs from '../../../../renderer/src/components/HealthObs.svelte';
import ObsPanel from '../../../../renderer/src/components/ObsPanel.svelte';
import ObsStrip from '../../../../renderer/src/components/ObsStrip.svelte';
import { obsConnectionWords } from '../../../../renderer/src/lib/obs-words';
import { ObsState } from '../../../../renderer/src/lib/state/obs.svelte';
import { createFakeApi, manualClock, settle } from '../fake-api';
import { health } from '../fixtures';
import { liveStats, OBS_NOW, obsView, output, scenes, stats } from '../obs-fixtures';

function panel(view: ObsView = obsView()) {
  const fake = createFakeApi();
  const clock = manualClock(OBS_NOW);
  const obs = new ObsState(fake.api, clock);
  obs.apply(view);
  render(ObsPanel, { props: { obs, api: fake.api, copy: () => Promise.resolve(true), onSettings: vi.fn() } });
  return { fake, obs, clock };
}

describe('the OBS tab by keyboard', () => {
  it('keeps the focus on the scene button while OBS switches, and after it says so', async () => {
    const { fake, obs } = panel();
    const held = fake.hold('obs:set-scene');
    const brb = within(screen.getByRole('list', { name: 'Scene' })).getByRole<HTMLButtonElement>('button', {
      name: 'Be right back',
    });
    brb.focus();
    await fireEvent.click(brb);
    // A disabled button would lose the focus to the page; busy is said with aria-disabled instead.
    expect(brb.disabled).toBe(false);
    expect(brb.getAttribute('aria-disabled')).toBe('true');
    await fireEvent.click(within(screen.getByRole('list', { name: 'Scene' })).getByRole('button', { name: 'Main' }));
    expect(fake.argsOf('obs:set-scene')).toHaveLength(1);
    held.release({ ok: true, value: null });
    await settle();
    obs.apply(obsView({ scenes: scenes({ current: 'Be right back' }) }));
    await settle();
    expect(document.activeElement).toBe(brb);
    expect(brb.getAttribute('aria-pressed')).toBe('true');
  });

  it('keeps the focus on the source checkbox while OBS shows it', async () => {
    const { fake, obs } = panel();
    const held = fake.hold('obs:set-source-visible');
    const box = screen.getByRole<HTMLInputElement>('checkbox', { name: /Alerts overlay/ });
    box.focus();
    await fireEvent.click(box);
    expect(box.disabled).toBe(false);
    held.release({ ok: true, value: null });
    await settle();
    const shown = scenes().sources.map((s) => ({ ...s, enabled: true }));
    obs.apply(obsView({ scenes: scenes({ sources: shown }) }));
    await settle();
    expect(document.activeElement).toBe(box);
    expect(box.checked).toBe(true);
  });
});

describe('the OBS tab with OBS away', () => {
  it('one state line with its fix; no setup form, no dead controls, no browser-source line', () => {
    panel(obsView({ connection: { kind: 'unreachable', since: OBS_NOW, nextTryAt: null, detail: 'x' } }));
    expect(screen.getByText('OBS not reachable.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Set up OBS for Kick/ })).toBeNull();
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(screen.queryByText(/Connect OBS first/)).toBeNull();
    expect(screen.queryByText(/no browser source/)).toBeNull();
  });
});

describe('times between readings', () => {
  it('counts the stream and the recording on each second from the last reading', async () => {
    const { obs, clock } = panel(
      obsView({
        stats: stats({ stream: output({ active: true, durationMs: 21_000 }), record: output({ active: true }) }),
      }),
    );
    const stop = obs.startTicking();
    const line = () => screen.getByText(/^Streaming /).textContent;
    const seen: string[] = [line()];
    for (let i = 0; i < 4; i++) {
      clock.advance(1000);
      await settle();
      seen.push(line());
    }
    stop();
    expect(seen).toEqual(['Streaming 0:21', 'Streaming 0:22', 'Streaming 0:23', 'Streaming 0:24', 'Streaming 0:25']);
  });

  it('counts the retry down one second at a time, and keeps "in 4 s" on one line', () => {
    const at = OBS_NOW + 5000;
    const state = { kind: 'unreachable', since: OBS_NOW, nextTryAt: at, detail: 'x' } as const;
    const fixes = [0, 1000, 2000, 3000].map((d) => obsConnectionWords(state, OBS_NOW + d).fix ?? '');
    expect(fixes.map((f) => /again (in \d+\u00a0s|now)\./.exec(f)?.[1])).toEqual([
      'in 5\u00a0s',
      'in 4\u00a0s',
      'in 3\u00a0s',
      'in 2\u00a0s',
    ]);
  });
});

describe('Health after OBS stopped answering', () => {
  it('says what OBS was doing when it stopped, not that it still is; memory rounded', async () => {
    const obs = new ObsState(createFakeApi().api, manualClock(OBS_NOW));
    obs.apply(
      obsView({
        connection: { kind: 'unreachable', since: OBS_NOW, nextTryAt: null, detail: 'x' },
        stats: liveStats({ memoryMb: 200.8203125 }),
      }),
    );
    render(HealthObs, { props: { obs, kick: null, lag: health().lag } });
    const region = screen.getByRole('region', { name: 'OBS' });
    const text = () => region.textContent.replace(/\s+/g, ' ');
    expect(text()).toContain('Was streaming (1:02:03) when OBS stopped answering');
    expect(text()).toContain('Was recording (4:05) when OBS stopped answering');
    expect(text()).not.toContain('Streaming for');
    await fireEvent.click(within(region).getByText('Details'));
    expect(text()).toContain('memory 201 MB');
  });
});

describe('the strip’s problems', () => {
  it.each([
    [{ kind: 'wrong-password' } as const, 'OBS: wrong password'],
    [{ kind: 'unreachable', since: OBS_NOW, nextTryAt: null, detail: 'x' } as const, 'OBS not reachable'],
  ])('%o is a button to Settings → OBS', async (connection, name) => {
    const obs = new ObsState(createFakeApi().api, manualClock(OBS_NOW));
    obs.apply(obsView({ connection }));
    const onConnect = vi.fn();
    render(ObsStrip, { props: { obs, kick: null, lostAtMs: null, onConnect } });
    const button = screen.getByRole('button', { name });
    button.focus();
    expect(document.activeElement).toBe(button);
    await fireEvent.click(button);
    expect(onConnect).toHaveBeenCalledTimes(1);
  });
});
