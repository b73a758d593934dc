import { describe, expect, it } from 'vitest';
import { formatFigure, reasonOf, unmeasured } from '../../../bench/lib/bench-line';

describe('a bench line', () => {
  it('prints value, unit, target and verdict, and what follows the verdict after a semicolon', () => {
    const line = formatFigure({
      name: 'chat-frame-p95-ms',
      value: 33.3,
      unit: 'ms',
      target: { op: '<=', value: 16.7 },
      detail: 'worst of 5 rounds, median 16.7 (rounds 16.7, 33.3, 16.7, 16.7, 16.7)',
    });
    expect(line).toBe(
      'bench chat-frame-p95-ms: 33.3 ms (target <= 16.7) short; worst of 5 rounds, median 16.7 (rounds 16.7, 33.3, 16.7, 16.7, 16.7)',
    );
  });

  it('prints a figure of a module that could not run as NaN and short, with the reason', () => {
    const [figure] = unmeasured(
      'chat-storm',
      [{ name: 'chat-delivered', unit: 'of 24000', target: { op: '>=', value: 24000 } }],
      'Chromium is not installed at /nowhere',
    );
    expect(formatFigure(figure!)).toBe(
      'bench chat-delivered: NaN of 24000 (target >= 24000) short; could not run: Chromium is not installed at /nowhere',
    );
  });

  it('gives a module that lists no figures one line under its own name', () => {
    const lines = unmeasured('overlay', undefined, 'port 8080 is taken').map(formatFigure);
    expect(lines).toEqual(['bench overlay: NaN (target >= 0) short; could not run: port 8080 is taken']);
  });

  it('keeps the reason to its first line: an app’s log tail goes to stderr', () => {
    expect(reasonOf(new Error('the app exited; its log ends:\nline 1\nline 2'))).toBe('the app exited; its log ends:');
    expect(reasonOf('plain')).toBe('plain');
    expect(reasonOf(new Error(''))).toBe('it stopped without saying why');
  });
});
