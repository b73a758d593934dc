import { describe, expect, it } from 'vitest';
import { OBS_VIEW_NOT_SET_UP } from '../../../../../shared/obs';
import { AppState } from '../../../../../renderer/src/lib/state/app.svelte';
import { OBS_STATS_STALE_MS, ObsState } from '../../../../../renderer/src/lib/state/obs.svelte';
import { createFakeApi, manualClock, settle } from '../../fake-api';
import { liveStats, OBS_NOW, obsView } from '../../obs-fixtures';

describe('ObsState', () => {
  it('reads obs:status at start, follows obs:changed, and reads again after the app was rebuilt', async () => {
    const fake = createFakeApi();
    fake.ok('obs:status', obsView());
    const app = new AppState(fake.api, { clock: manualClock(OBS_NOW) });
    const off = app.connect();
    await app.start();
    expect(app.obs.view?.connection.kind).toBe('connected');
    fake.emit('obs:changed', obsView({ connection: { kind: 'wrong-password' } }));
    expect(app.obs.view?.connection.kind).toBe('wrong-password');
    fake.ok('obs:status', OBS_VIEW_NOT_SET_UP);
    const before = fake.argsOf('obs:status').length;
    fake.emit('app:restarted', { message: 'Applied.' });
    await settle();
    expect(fake.argsOf('obs:status').length).toBe(before + 1);
    expect(app.obs.view?.connection.kind).toBe('not-set-up');
    off();
  });

  it('says how old the readings are once OBS drops, or once they stop moving while connected', () => {
    const clock = manualClock(OBS_NOW);
    const obs = new ObsState(createFakeApi().api, clock);
    const stop = obs.startTicking();
    obs.apply(obsView({ stats: liveStats({ at: OBS_NOW }) }));
    expect(obs.statsAsOf).toBeNull();
    clock.advance(OBS_STATS_STALE_MS + 5000);
    expect(obs.statsAsOf).toBe(OBS_NOW);
    obs.apply(obsView({ stats: liveStats({ at: clock.now() }) }));
    expect(obs.statsAsOf).toBeNull();
    obs.apply(
      obsView({
        connection: { kind: 'unreachable', since: clock.now(), nextTryAt: null, detail: 'closed' },
        stats: liveStats({ at: OBS_NOW + 1000 }),
      }),
    );
    expect(obs.statsAsOf).toBe(OBS_NOW + 1000);
    stop();
  });

  it('runs one action at a time; a refusal is kept in OBS’s words and goes when the connection changes', async () => {
    const fake = createFakeApi();
    const obs = new ObsState(fake.api, manualClock(OBS_NOW));
    obs.apply(obsView());
    const held = fake.hold('obs:set-scene');
    const first = obs.setScene('Be right back');
    expect(obs.pending).toBe('scene');
    expect(await obs.output({ output: 'stream', action: 'start' })).toBe(false);
    expect(fake.argsOf('obs:output')).toEqual([]);
    held.release({
      ok: false,
      error: { code: 'ObsRequestFailed', message: 'OBS: No scene was found by the name of Be right back.' },
    });
    expect(await first).toBe(false);
    expect(obs.pending).toBeNull();
    expect(obs.actionError?.text).toMatch(/OBS said: No scene was found by the name of Be right back\.$/);
    expect(obs.view?.scenes?.current).toBe('Main');
    obs.apply(obsView({ connection: { kind: 'unreachable', since: OBS_NOW, nextTryAt: null, detail: 'x' } }));
    expect(obs.actionError).toBeNull();
  });
});
