import { describe, expect, it } from 'vitest';
import {
  bitrateWords,
  diskWords,
  droppedPct,
  explainObsError,
  formatDuration,
  formatPct,
  frameWords,
  obsConnectionWords,
  outputWords,
} from '../../../../renderer/src/lib/obs-words';
import { liveStats, OBS_NOW, output, stats } from '../obs-fixtures';

describe('obsConnectionWords: each state in the streamer’s words, with its fix', () => {
  it('not set up: points to Settings and to OBS’s WebSocket Server Settings', () => {
    const w = obsConnectionWords({ kind: 'not-set-up' }, OBS_NOW);
    expect(w.title).toBe('OBS is not connected yet.');
    expect(w.fix).toMatch(/^Connect it in Settings → OBS: in OBS, turn on Tools → WebSocket Server Settings/);
    expect(w.tone).toBe('quiet');
  });

  it('connecting: says so, and which try once it is not the first', () => {
    expect(obsConnectionWords({ kind: 'connecting', attempt: 1 }, OBS_NOW).title).toBe('Connecting to OBS…');
    expect(obsConnectionWords({ kind: 'connecting', attempt: 3 }, OBS_NOW).title).toBe('Connecting to OBS… (try 3)');
    expect(obsConnectionWords({ kind: 'connecting', attempt: 3 }, OBS_NOW).fix).toBeNull();
  });

  it('connected: names OBS’s and the websocket’s versions, nothing to fix', () => {
    const w = obsConnectionWords(
      { kind: 'connected', obsVersion: '29.0.2', websocketVersion: '5.1.0', since: OBS_NOW },
      OBS_NOW,
    );
    expect(w.title).toBe('Connected to OBS — OBS 29.0.2, websocket 5.1.0.');
    expect(w.fix).toBeNull();
    expect(w.tone).toBe('ok');
  });

  it('wrong password: where in OBS to copy it from', () => {
    const w = obsConnectionWords({ kind: 'wrong-password' }, OBS_NOW);
    expect(w.title).toBe('OBS refused the password.');
    expect(w.fix).toBe(
      'Copy it from OBS: Tools → WebSocket Server Settings → Show Connect Info, paste it in Settings → OBS and save.',
    );
    expect(w.short).toBe('OBS: wrong password');
  });

  it('not reachable: open OBS and enable its server; when Greenroom tries again; the cause stays out', () => {
    const w = obsConnectionWords(
      {
        kind: 'unreachable',
        since: OBS_NOW - 5000,
        nextTryAt: OBS_NOW + 4200,
        detail: 'connect ECONNREFUSED 127.0.0.1:4455',
      },
      OBS_NOW,
    );
    expect(w.short).toBe('OBS not reachable');
    expect(w.fix).toMatch(/^Open OBS and enable Tools → WebSocket Server Settings → Enable WebSocket server;/);
    expect(w.fix).toMatch(/Greenroom tries again in 5\u00a0s\.$/);
    expect(`${w.title} ${w.fix}`).not.toMatch(/ECONNREFUSED|4455/);
    const noRetry = obsConnectionWords({ kind: 'unreachable', since: 0, nextTryAt: null, detail: 'x' }, OBS_NOW);
    expect(noRetry.fix).not.toMatch(/tries again/);
  });
});

describe('OBS’s figures as the strip and Health show them', () => {
  it('durations, bitrate and shares', () => {
    expect(formatDuration(7_900)).toBe('0:07');
    expect(formatDuration(723_000)).toBe('12:03');
    expect(formatDuration(3_723_000)).toBe('1:02:03');
    expect(formatDuration(-5)).toBe('0:00');
    expect(bitrateWords(output({ active: true, bitrateKbps: 6000 }))).toBe('6,000 kb/s');
    expect(bitrateWords(output({ active: true }))).toBeNull();
    expect(formatPct(0.04)).toBe('0.0%');
    expect(formatPct(0.44)).toBe('0.4%');
    expect(formatPct(12.6)).toBe('13%');
  });

  it('dropped frames: the last 30 s when known, else since the stream began', () => {
    expect(droppedPct(liveStats())).toBe(0.4);
    expect(droppedPct(liveStats({ droppedPctRecent: null, droppedFrames: 30, totalFrames: 1000 }))).toBe(3);
    expect(droppedPct(stats())).toBeNull();
    expect(frameWords(12, 3400)).toBe('12 of 3,400 (0.4%)');
    expect(frameWords(0, 0)).toBe('0 of 0');
  });

  it('free disk and each output’s state', () => {
    expect(diskWords(20_480)).toBe('20.0 GB free');
    expect(diskWords(830)).toBe('830 MB free');
    expect(diskWords(null)).toBe('not known');
    expect(outputWords(output(), 'stream')).toBe('Not streaming');
    expect(outputWords(output(), 'record')).toBe('Not recording');
    expect(outputWords(output({ active: true, durationMs: 3_723_000 }), 'stream')).toBe('Streaming for 1:02:03');
    expect(outputWords(output({ active: true, reconnecting: true, durationMs: 5000 }), 'stream')).toBe(
      'Streaming for 0:05, reconnecting to the server',
    );
    expect(outputWords(output({ active: true, paused: true, durationMs: 245_000 }), 'record')).toBe(
      'Recording paused at 4:05',
    );
  });

  it('a request OBS refused keeps OBS’s own reason beside Greenroom’s words', () => {
    const shown = explainObsError({
      code: 'ObsRequestFailed',
      message: 'OBS: No source was found by the name of Camera.',
    });
    expect(shown.text).toMatch(/^OBS could not do this\..* OBS said: No source was found by the name of Camera\.$/);
    expect(explainObsError({ code: 'ObsNotConnected', message: 'x' }).text).toMatch(
      /^Greenroom is not connected to OBS/,
    );
  });
});
