/** OBS views for the panel's tests: connected, streaming and recording, and each connection state. */
import type {
  ObsConnectionState,
  ObsOutputView,
  ObsScenesView,
  ObsStatsView,
  ObsView,
  StreamWarningView,
} from '../../../shared/obs';

export const OBS_NOW = 1_700_000_000_000;

export function output(over: Partial<ObsOutputView> = {}): ObsOutputView {
  return { active: false, reconnecting: false, paused: false, durationMs: 0, bytes: 0, bitrateKbps: null, ...over };
}

export function stats(over: Partial<ObsStatsView> = {}): ObsStatsView {
  return {
    at: OBS_NOW,
    stream: output(),
    record: output(),
    droppedFrames: 0,
    totalFrames: 0,
    droppedPctRecent: null,
    laggedFrames: 0,
    renderedFrames: 0,
    fps: 30,
    cpuPct: 12.5,
    memoryMb: 300,
    freeDiskMb: 20_480,
    ...over,
  };
}

/** OBS streaming for 1:02:03 at 6,000 kb/s with 0.4% dropped, recording for 4:05. */
export function liveStats(over: Partial<ObsStatsView> = {}): ObsStatsView {
  return stats({
    stream: output({ active: true, durationMs: 3_723_000, bytes: 1e9, bitrateKbps: 6000 }),
    record: output({ active: true, durationMs: 245_000, bytes: 2e8 }),
    droppedFrames: 12,
    totalFrames: 3000,
    droppedPctRecent: 0.4,
    laggedFrames: 3,
    renderedFrames: 3100,
    ...over,
  });
}

export function scenes(over: Partial<ObsScenesView> = {}): ObsScenesView {
  return {
    current: 'Main',
    scenes: ['Main', 'Be right back', 'Ad break'],
    sources: [
      { sceneItemId: 1, name: 'Camera', enabled: true },
      { sceneItemId: 2, name: 'Alerts overlay', enabled: false },
    ],
    ...over,
  };
}

export const CONNECTED: ObsConnectionState = {
  kind: 'connected',
  obsVersion: '29.0.2',
  websocketVersion: '5.1.0',
  since: OBS_NOW - 60_000,
};

export function obsView(over: Partial<ObsView> = {}): ObsView {
  return {
    connection: CONNECTED,
    stats: stats(),
    scenes: scenes(),
    warnings: [],
    browserSource: false,
    ...over,
  };
}

export function warning(over: Partial<StreamWarningView> = {}): StreamWarningView {
  return {
    kind: 'obs-live-kick-offline',
    since: OBS_NOW - 40_000,
    line: 'OBS is streaming but Kick still says offline: check the stream key and server in OBS.',
    ...over,
  };
}
