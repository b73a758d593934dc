import { describe, expect, it } from 'vitest';
import {
  bitrateKbps,
  droppedShare,
  OBS_POLL_INTERVAL_MS,
  ObsMonitor,
  SCENES_COALESCE_MS,
  SCENES_MIN_INTERVAL_MS,
} from '../../../../electron/obs/obs-monitor';
import type { ObsLink } from '../../../../electron/obs/obs-link';
import { FakeObs } from '../../../helpers/fake-obs';
import { flush, harness, type Harness, TARGET } from './obs-connection-fixtures';

async function connected(): Promise<Harness & { monitor: ObsMonitor; changes: () => number }> {
  const h = harness();
  let changes = 0;
  const monitor = new ObsMonitor({
    connection: h.connection,
    now: () => h.clock.now,
    setTimer: h.scheduler.setTimer,
    log: (line) => h.logs.push(line),
    onChange: () => changes++,
  });
  h.connection.configure(TARGET);
  await flush();
  await flush();
  return Object.assign(h, { monitor, changes: () => changes });
}

const count = (h: Harness, type: string): number => h.obs.requests.filter((r) => r.type === type).length;

describe('the OBS monitor maths', () => {
  it('turns byte counts into kilobits a second, and refuses a pair it cannot compare', () => {
    expect(
      bitrateKbps({ at: 0, bytes: 0, skipped: 0, total: 0 }, { at: 2000, bytes: 1_500_000, skipped: 0, total: 0 }),
    ).toBe(6000);
    expect(bitrateKbps(null, { at: 2000, bytes: 10, skipped: 0, total: 0 })).toBeNull();
    // A new stream's counters restart at zero: no negative bitrate.
    expect(
      bitrateKbps({ at: 0, bytes: 900, skipped: 0, total: 0 }, { at: 2000, bytes: 10, skipped: 0, total: 0 }),
    ).toBeNull();
  });

  it('takes the dropped share over the last 30 s only', () => {
    const s = (at: number, skipped: number, total: number) => ({ at, bytes: 0, skipped, total });
    // 60 dropped long ago, then none: the old drops are outside the window.
    const samples = [s(0, 0, 0), s(10_000, 60, 300), s(40_000, 60, 1200), s(50_000, 60, 1500)];
    expect(droppedShare(samples, 30_000)).toBe(0);
    // From the reading at the window's start (10 s before the newest at 40 s is 10 s): 30 of 900.
    expect(droppedShare([s(0, 0, 0), s(10_000, 0, 300), s(40_000, 30, 1200)], 30_000)).toBeCloseTo(3.333, 2);
    expect(droppedShare([s(0, 0, 0)], 30_000)).toBeNull();
    expect(droppedShare([s(0, 0, 0), s(2000, 0, 0)], 30_000)).toBeNull();
  });
});

describe('the OBS monitor', () => {
  it('reads stats, scenes and the source kinds at connect, then every 2 s', async () => {
    const h = await connected();
    expect(h.monitor.stats()).toMatchObject({
      at: h.clock.now,
      stream: { active: false, bitrateKbps: null },
      fps: 30,
      cpuPct: 0.4,
      memoryMb: 200,
      freeDiskMb: 80_000,
    });
    expect(h.monitor.scenes()).toEqual({ current: 'Scene', scenes: ['Scene'], sources: [] });
    expect(h.monitor.browserSource()).toBe(false);
    expect([...h.scheduler.pending.values()].map((t) => t.ms)).toEqual([OBS_POLL_INTERVAL_MS]);
    h.fire(OBS_POLL_INTERVAL_MS);
    await flush();
    expect(count(h, 'GetStats')).toBe(2);
    expect(h.monitor.stats()!.at).toBe(h.clock.now);
  });

  it('reports the bitrate, dropped and lagged frames of a running stream', async () => {
    const h = await connected();
    await h.connection.call('StartStream');
    await flush();
    await flush();
    expect(h.monitor.stats()!.stream).toMatchObject({ active: true, bitrateKbps: null });
    for (let i = 0; i < 16; i++) {
      h.obs.tick({
        ms: 2000,
        streamBytes: 1_500_000,
        streamFrames: 60,
        droppedFrames: i < 2 ? 6 : 0,
        renderedFrames: 60,
        laggedFrames: 1,
      });
      h.fire(OBS_POLL_INTERVAL_MS);
      await flush();
    }
    const stats = h.monitor.stats()!;
    expect(stats.stream.bitrateKbps).toBe(6000);
    expect(stats.stream.durationMs).toBe(32_000);
    expect(stats).toMatchObject({ droppedFrames: 12, totalFrames: 960, laggedFrames: 16, renderedFrames: 16 * 60 });
    // The last 30 s hold 6 of the 12 drops (the first reading's fell out of the window), over 900 frames.
    expect(stats.droppedPctRecent).toBeCloseTo((6 / 900) * 100, 5);
  });

  it('reads again at once when a stream or recording starts, never two polls at a time', async () => {
    const h = await connected();
    const before = count(h, 'GetStats');
    await h.connection.call('StartRecord');
    await flush();
    await flush();
    expect(count(h, 'GetStats')).toBe(before + 1);
    expect(h.monitor.stats()!.record.active).toBe(true);
    expect([...h.scheduler.pending.values()].filter((t) => t.ms === OBS_POLL_INTERVAL_MS)).toHaveLength(1);
    // A burst of requests to read now while one poll is under way is one more poll, after it.
    h.monitor.pollSoon();
    h.monitor.pollSoon();
    h.monitor.pollSoon();
    await flush();
    await flush();
    expect(count(h, 'GetStats')).toBe(before + 3);
  });

  it('keeps the last stats with their time when OBS goes away, and forgets the scenes', async () => {
    const h = await connected();
    const at = h.monitor.stats()!.at;
    h.clock.now += 5000;
    h.obs.kill();
    expect(h.monitor.stats()!.at).toBe(at);
    expect(h.monitor.scenes()).toBeNull();
    // No poll is left waiting: only the reconnect.
    expect([...h.scheduler.pending.values()].map((t) => t.ms)).toEqual([1000]);
  });

  it('reads the scenes once for a burst of scene events, and shows a toggled source at once', async () => {
    const h = await connected();
    await h.connection.call('CreateScene', { sceneName: 'BRB' });
    await h.connection.call('CreateInput', { sceneName: 'Scene', inputName: 'Cam', inputKind: 'color_source_v3' });
    await h.connection.call('CreateInput', { sceneName: 'Scene', inputName: 'Text', inputKind: 'text_ft2_source_v2' });
    await flush();
    const reads = count(h, 'GetSceneList');
    // The scenes were read at connect, a moment ago: the next read waits for the least interval between reads.
    h.fire(SCENES_MIN_INTERVAL_MS);
    await flush();
    expect(count(h, 'GetSceneList')).toBe(reads + 1);
    const scenes = h.monitor.scenes()!;
    expect(scenes.scenes).toEqual(['Scene', 'BRB']);
    // Top of OBS's list first: the source added last is on top.
    expect(scenes.sources.map((s) => s.name)).toEqual(['Text', 'Cam']);
    const cam = scenes.sources[1]!;
    await h.connection.call('SetSceneItemEnabled', {
      sceneName: 'Scene',
      sceneItemId: cam.sceneItemId,
      sceneItemEnabled: false,
    });
    await flush();
    expect(h.monitor.scenes()!.sources[1]).toEqual({ ...cam, enabled: false });
    expect(count(h, 'GetSceneList')).toBe(reads + 1);
    // Long after the last read, a change is read as soon as the burst it starts is over.
    h.clock.now += SCENES_MIN_INTERVAL_MS;
    await h.connection.call('SetCurrentProgramScene', { sceneName: 'BRB' });
    await flush();
    h.fire(SCENES_COALESCE_MS);
    await flush();
    expect(h.monitor.currentScene()).toBe('BRB');
    expect(h.monitor.scenes()!.sources).toEqual([]);
  });

  it('logs a stats request OBS refuses once, not at every poll', async () => {
    const h = await connected();
    for (let i = 0; i < 3; i++) {
      h.obs.failNext('GetStats', 500, 'busy');
      h.fire(OBS_POLL_INTERVAL_MS);
      await flush();
    }
    expect(h.logs.filter((line) => line.includes('could not read the stats'))).toHaveLength(1);
    expect(h.connection.state().kind).toBe('connected');
  });

  it('stops polling when stopped', async () => {
    const h = await connected();
    h.monitor.stop();
    expect(h.scheduler.pending.size).toBe(0);
    expect(h.changes()).toBeGreaterThan(0);
  });

  it('counts a poll OBS never answers as the connection lost, and keeps the last stats', async () => {
    const obs = new FakeObs();
    let frozen = false;
    // OBS frozen (stopped, not closed): the socket stays open and nothing answers.
    const link = (): ObsLink => {
      const real = obs.link();
      return { ...real, call: (...args) => (frozen ? new Promise(() => undefined) : real.call(...args)) };
    };
    const h = harness({ linkFactory: link }, obs);
    const monitor = new ObsMonitor({
      connection: h.connection,
      now: () => h.clock.now,
      setTimer: h.scheduler.setTimer,
      log: () => undefined,
      onChange: () => undefined,
      pollTimeoutMs: 4000,
    });
    h.connection.configure(TARGET);
    await flush();
    await flush();
    const at = monitor.stats()!.at;
    frozen = true;
    h.fire(OBS_POLL_INTERVAL_MS);
    h.fire(4000);
    await flush();
    expect(h.connection.state()).toMatchObject({ kind: 'unreachable', detail: expect.stringContaining('4000 ms') });
    expect(monitor.stats()!.at).toBe(at);
    monitor.stop();
  });
});
