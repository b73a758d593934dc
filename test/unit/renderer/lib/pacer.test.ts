import { describe, expect, it } from 'vitest';
import { Pacer } from '../../../../renderer/src/lib/pacer';
import { manualClock } from '../fake-api';

describe('Pacer', () => {
  it('runs the first call at once and collapses a burst into one run of the newest, at the interval’s end', () => {
    const clock = manualClock();
    const pacer = new Pacer(250, clock);
    const ran: number[] = [];
    pacer.run(() => ran.push(1));
    expect(ran).toEqual([1]);
    for (let i = 2; i <= 20; i++) {
      clock.advance(10);
      pacer.run(() => ran.push(i));
    }
    expect(ran).toEqual([1]);
    clock.advance(60);
    expect(ran).toEqual([1, 20]);
  });

  it('runs at once again after a quiet spell', () => {
    const clock = manualClock();
    const pacer = new Pacer(250, clock);
    const ran: string[] = [];
    pacer.run(() => ran.push('a'));
    clock.advance(300);
    pacer.run(() => ran.push('b'));
    expect(ran).toEqual(['a', 'b']);
  });

  it('drops a pending run when disposed', () => {
    const clock = manualClock();
    const pacer = new Pacer(250, clock);
    const ran: string[] = [];
    pacer.run(() => ran.push('a'));
    pacer.run(() => ran.push('b'));
    pacer.dispose();
    clock.advance(500);
    expect(ran).toEqual(['a']);
  });
});
