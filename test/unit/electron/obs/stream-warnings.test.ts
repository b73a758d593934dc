import { describe, expect, it } from 'vitest';
import {
  DISK_LOW_MB,
  DROPPED_CLEAR_MS,
  StreamWarnings,
  WARNING_HOLD_MS,
  type WarningInputs,
} from '../../../../electron/obs/stream-warnings';
import type { ObsOutputView, ObsStatsView } from '../../../../shared/obs';

const output = (over: Partial<ObsOutputView> = {}): ObsOutputView => ({
  active: false,
  reconnecting: false,
  paused: false,
  durationMs: 0,
  bytes: 0,
  bitrateKbps: null,
  ...over,
});

function stats(
  over: { stream?: Partial<ObsOutputView>; record?: Partial<ObsOutputView> } & Omit<
    Partial<ObsStatsView>,
    'stream' | 'record'
  > = {},
): ObsStatsView {
  const { stream, record, ...rest } = over;
  return {
    at: 0,
    stream: output(stream),
    record: output(record),
    droppedFrames: 0,
    totalFrames: 0,
    droppedPctRecent: null,
    laggedFrames: 0,
    renderedFrames: 0,
    fps: 30,
    cpuPct: 1,
    memoryMb: 200,
    freeDiskMb: 80_000,
    ...rest,
  };
}

const streaming = (durationMs = 60_000) => stats({ stream: { active: true, durationMs } });

/** Feeds the rules one reading every 2 s from `from` to `to`, returning the kinds shown at each. */
function run(warnings: StreamWarnings, from: number, to: number, inputs: (now: number) => Omit<WarningInputs, 'now'>) {
  const shown: { now: number; kinds: string[] }[] = [];
  for (let now = from; now <= to; now += 2000) {
    shown.push({ now, kinds: warnings.update({ now, ...inputs(now) }).map((w) => w.kind) });
  }
  return shown;
}

const base = { connected: true, kick: { live: true }, kickDelayMs: null };

describe('stream-health warnings', () => {
  it('OBS streaming while Kick says offline: shown after 30 s, once, with its line; cleared when Kick goes live', () => {
    const logs: string[] = [];
    const w = new StreamWarnings((line) => logs.push(line));
    const offline = run(w, 0, 40_000, () => ({ ...base, stats: streaming(), kick: { live: false } }));
    expect(offline.find((r) => r.kinds.includes('obs-live-kick-offline'))!.now).toBe(WARNING_HOLD_MS);
    expect(w.current()).toEqual([
      {
        kind: 'obs-live-kick-offline',
        since: 0,
        line: 'OBS is streaming but Kick shows you offline — check the stream key and server in OBS.',
      },
    ]);
    expect(logs.filter((l) => l.includes('Kick shows you offline'))).toHaveLength(1);
    w.update({ now: 42_000, ...base, stats: streaming() });
    expect(w.current()).toEqual([]);
  });

  it('waits out the delay Kick shows on its events before blaming the key', () => {
    const w = new StreamWarnings(() => undefined);
    const rows = run(w, 0, 60_000, () => ({ ...base, stats: streaming(), kick: { live: false }, kickDelayMs: 20_000 }));
    expect(rows.find((r) => r.kinds.length > 0)!.now).toBe(50_000);
  });

  it('Kick live but OBS not streaming: only while connected, after 30 s', () => {
    const w = new StreamWarnings(() => undefined);
    const rows = run(w, 0, 30_000, () => ({ ...base, stats: stats() }));
    expect(rows.at(-2)!.kinds).toEqual([]);
    expect(rows.at(-1)!.kinds).toEqual(['kick-live-obs-off']);
    // OBS gone: the stale stats say nothing about now, so the warning goes.
    expect(w.update({ now: 32_000, ...base, connected: false, stats: stats() })).toEqual([]);
  });

  it('a condition that breaks off before 30 s starts its wait again', () => {
    const w = new StreamWarnings(() => undefined);
    run(w, 0, 20_000, () => ({ ...base, stats: stats() }));
    w.update({ now: 22_000, ...base, stats: streaming() });
    const rows = run(w, 24_000, 52_000, () => ({ ...base, stats: stats() }));
    expect(rows.every((r) => r.kinds.length === 0)).toBe(true);
    expect(w.update({ now: 54_000, ...base, stats: stats() })).toHaveLength(1);
  });

  it('dropped frames over 1% of the last 30 s: shown once the stream is 30 s old, kept through a dip, then cleared', () => {
    const logs: string[] = [];
    const w = new StreamWarnings((line) => logs.push(line));
    const dropping = (pct: number, durationMs = 60_000) =>
      stats({ stream: { active: true, durationMs }, droppedPctRecent: pct });
    expect(w.update({ now: 0, ...base, stats: dropping(5, 20_000) })).toEqual([]);
    expect(w.update({ now: 2000, ...base, stats: dropping(1) })).toEqual([]);
    expect(w.update({ now: 4000, ...base, stats: dropping(1.2) }).map((x) => x.kind)).toEqual(['dropped-frames']);
    // A short dip under the limit is the same episode: not shown again, not logged again.
    w.update({ now: 6000, ...base, stats: dropping(0.9) });
    expect(w.update({ now: 8000, ...base, stats: dropping(1.5) })[0]).toMatchObject({ since: 4000 });
    const rows = run(w, 10_000, 10_000 + DROPPED_CLEAR_MS, () => ({ ...base, stats: dropping(0.2) }));
    expect(rows.at(-2)!.kinds).toEqual(['dropped-frames']);
    expect(rows.at(-1)!.kinds).toEqual([]);
    expect(logs.filter((l) => l.includes('dropping frames'))).toHaveLength(1);
  });

  it(`disk under ${DISK_LOW_MB} MiB while recording: shown at once, not while only streaming`, () => {
    const w = new StreamWarnings(() => undefined);
    const low = { freeDiskMb: DISK_LOW_MB - 1 };
    expect(w.update({ now: 0, ...base, stats: stats({ ...low, stream: { active: true } }) })).toEqual([]);
    const shown = w.update({ now: 2000, ...base, stats: stats({ ...low, record: { active: true } }) });
    expect(shown.map((x) => x.kind)).toEqual(['disk-low']);
    expect(shown[0]!.line).toContain('Less than 2 GB');
    expect(
      w.update({ now: 4000, ...base, stats: stats({ freeDiskMb: DISK_LOW_MB, record: { active: true } }) }),
    ).toEqual([]);
  });

  it('says nothing about Kick while nobody is signed in', () => {
    const w = new StreamWarnings(() => undefined);
    const rows = run(w, 0, 60_000, () => ({ ...base, kick: null, stats: streaming() }));
    expect(rows.every((r) => r.kinds.length === 0)).toBe(true);
  });

  it('a new episode after the cause was gone is shown and logged again', () => {
    const logs: string[] = [];
    const w = new StreamWarnings((line) => logs.push(line));
    run(w, 0, 30_000, () => ({ ...base, stats: stats() }));
    w.update({ now: 32_000, ...base, stats: streaming() });
    run(w, 34_000, 64_000, () => ({ ...base, stats: stats() }));
    expect(w.current().map((x) => x.kind)).toEqual(['kick-live-obs-off']);
    expect(logs.filter((l) => l.includes('OBS is not streaming'))).toHaveLength(2);
  });
});
