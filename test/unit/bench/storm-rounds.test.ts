import { describe, expect, it } from 'vitest';
import { combineRounds, inRounds } from '../../../bench/lib/storm-rounds';
import type { BenchResult } from '../../../bench/types';

const round = (latency: number, delivered: number, pauses: number, heap = 1): BenchResult[] => [
  { name: 'chat-latency-p99-ms', value: latency, unit: 'ms', target: { op: '<=', value: 50 } },
  { name: 'chat-heap-growth', value: heap, unit: 'x', target: { op: '<=', value: 1.1 } },
  { name: 'chat-delivered', value: delivered, unit: 'of 100', target: { op: '>=', value: 100 } },
  { name: 'chat-auto-pauses', value: pauses, unit: '', target: { op: '<=', value: 0 } },
];

const valueOf = (results: BenchResult[], name: string): number => results.find((r) => r.name === name)!.value;

describe('storm rounds', () => {
  it('holds a figure to its worst round, with the median and every round beside it', () => {
    const combined = combineRounds([round(40, 100, 0), round(1400, 100, 0), round(45, 100, 0)]);
    expect(valueOf(combined, 'chat-latency-p99-ms')).toBe(1400);
    expect(combined[0]).toMatchObject({
      unit: 'ms',
      target: { op: '<=', value: 50 },
      detail: 'worst of 3 rounds, median 45 (rounds 40, 1400, 45)',
    });
  });

  it('takes the lowest round as the worst against an at-least target', () => {
    const low = (value: number): BenchResult[] => [
      { name: 'webhook-ingest-ratio', value, unit: 'x', target: { op: '>=', value: 0.8 } },
    ];
    expect(valueOf(combineRounds([low(0.9), low(0.7), low(0.85)]), 'webhook-ingest-ratio')).toBe(0.7);
  });

  it('leaves one round’s figures as they were, with nothing beside them', () => {
    const [latency] = combineRounds([round(40, 100, 0)]);
    expect(latency).toEqual({ name: 'chat-latency-p99-ms', value: 40, unit: 'ms', target: { op: '<=', value: 50 } });
  });

  it('holds every round to delivering everything and never pausing by itself', () => {
    const combined = combineRounds([round(40, 100, 0), round(41, 99, 1), round(42, 100, 0)]);
    expect(valueOf(combined, 'chat-delivered')).toBe(99);
    expect(valueOf(combined, 'chat-auto-pauses')).toBe(1);
  });

  it('holds every round to showing no message twice: one round’s duplicate is not a median away', () => {
    const dupes = (n: number): BenchResult[] => [
      { name: 'chat-duplicates', value: n, unit: '', target: { op: '<=', value: 0 } },
    ];
    expect(valueOf(combineRounds([dupes(0), dupes(2), dupes(0)]), 'chat-duplicates')).toBe(2);
  });

  it('leaves a figure unmeasured when a round could not measure it', () => {
    const combined = combineRounds([round(40, 100, 0), round(41, 100, 0, Number.NaN), round(42, 100, 0)]);
    expect(valueOf(combined, 'chat-heap-growth')).toBeNaN();
  });

  it('runs the storm the given number of times and notes each round', async () => {
    const notes: string[] = [];
    let runs = 0;
    const combined = await inRounds(
      3,
      () => Promise.resolve(round(40 + runs++, 100, 0)),
      (line) => notes.push(line),
    );
    expect(runs).toBe(3);
    expect(notes).toHaveLength(3);
    expect(notes[2]).toMatch(/^round 3 of 3: chat-latency-p99-ms 42,/);
    expect(valueOf(combined, 'chat-latency-p99-ms')).toBe(42);
  });
});
