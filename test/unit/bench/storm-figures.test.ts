import { describe, expect, it } from 'vitest';
import {
  appRssMb,
  jankyFramesPct,
  measuredStormFigures,
  residentByKind,
  stormFigures,
} from '../../../bench/lib/storm-figures';

describe('the storm’s janky frames', () => {
  it('counts the frames that took two frames of the display or more, as a share in percent', () => {
    // On time (16.6–16.9 with the rAF clock's jitter), then one frame dropped (33.3), and a long stall.
    const frames = [...Array<number>(96).fill(16.7), 16.6, 33.4, 33.2, 100];
    expect(jankyFramesPct(frames)).toBe(3);
  });

  it('reads an interval on the frame grid: 25.1 ms is two frames, 24.9 ms one', () => {
    expect(jankyFramesPct([25.1, 16.7, 16.7, 16.7])).toBe(25);
    expect(jankyFramesPct([24.9, 16.7, 16.7, 16.7])).toBe(0);
  });

  it('is NaN when no frame was seen, never a pass', () => {
    expect(jankyFramesPct([])).toBeNaN();
  });
});

describe('the app’s resident memory', () => {
  const status = (kb: number): string => `Name:\tnode\nVmPeak:\t 999999 kB\nVmRSS:\t ${kb} kB\nThreads:\t11\n`;

  it('reads VmRSS from the app process’s own status file, in MB', () => {
    const read: string[] = [];
    const mb = appRssMb(4242, (path) => {
      read.push(path);
      return status(102_400);
    });
    expect(mb).toBe(100);
    expect(read).toEqual(['/proc/4242/status']);
  });

  it('is NaN for a process without an id or one that is gone', () => {
    expect(appRssMb(undefined, () => status(1))).toBeNaN();
    expect(
      appRssMb(4242, () => {
        throw new Error('ENOENT');
      }),
    ).toBeNaN();
  });
});

describe('the app’s resident memory by kind', () => {
  const smaps = [
    '00400000-00500000 r-xp 00000000 fe:01 123 /usr/bin/node',
    'Size:               1024 kB',
    'Rss:                2048 kB',
    '01000000-02000000 rw-p 00000000 00:00 0                                  [heap]',
    'Rss:                 1536 kB',
    '7f0000000000-7f0004000000 rw-p 00000000 00:00 0 ',
    'Rss:                10240 kB',
    '7f1000000000-7f1000100000 rw-p 00000000 00:00 0',
    'Rss:                 1024 kB',
    '7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0                          [stack]',
    'Rss:                  100 kB',
    '7f2000000000-7f2000200000 rw-s 00000000 00:01 77 /memfd:sandbox (deleted)',
    'Rss:                 2048 kB',
  ].join('\n');

  it('adds each mapping’s resident size to its kind: files, malloc’s main arena, anonymous (shared memory too); small kinds as other', () => {
    const read: string[] = [];
    const kinds = residentByKind(4242, (path) => {
      read.push(path);
      return smaps;
    });
    expect(kinds).toBe('files 2.0, [heap] 1.5, anonymous 13.0, other 0.1');
    expect(read).toEqual(['/proc/4242/smaps']);
  });

  it('says "unreadable" for a process without an id or one that is gone', () => {
    expect(residentByKind(undefined, () => smaps)).toBe('unreadable');
    expect(
      residentByKind(4242, () => {
        throw new Error('ENOENT');
      }),
    ).toBe('unreadable');
  });
});

describe('the storm’s figures', () => {
  it('holds janky frames to 1% and the app’s memory growth to 30 MB beside the others', () => {
    const figures = stormFigures(24_000);
    expect(figures.find((f) => f.name === 'chat-janky-frames-pct')).toEqual({
      name: 'chat-janky-frames-pct',
      unit: '%',
      target: { op: '<=', value: 1 },
    });
    expect(figures.find((f) => f.name === 'chat-app-rss-growth-mb')?.target).toEqual({ op: '<=', value: 30 });
    expect(figures.find((f) => f.name === 'chat-delivered')).toMatchObject({ unit: 'of 24000' });
  });

  it('leaves a figure nobody measured NaN', () => {
    const measured = measuredStormFigures(100, { 'chat-frame-p95-ms': 16.7 });
    expect(measured[0]).toMatchObject({ name: 'chat-frame-p95-ms', value: 16.7 });
    expect(measured.find((f) => f.name === 'chat-app-rss-growth-mb')?.value).toBeNaN();
  });
});
