import { describe, expect, it } from 'vitest';
import { TOAST_MS, ToastsState } from '../../../../../renderer/src/lib/state/toasts.svelte';
import { manualClock } from '../../fake-api';

describe('ToastsState', () => {
  it('leaves by itself on the panel clock, a failure later than a success', () => {
    const clock = manualClock();
    const toasts = new ToastsState(clock);
    toasts.show({ text: '12 accepted' });
    toasts.show({ tone: 'error', text: '10 accepted, 2 failed', details: ['Already done.'] });
    clock.advance(TOAST_MS.ok - 1);
    expect(toasts.items.map((t) => t.text)).toEqual(['12 accepted', '10 accepted, 2 failed']);
    clock.advance(1);
    expect(toasts.items.map((t) => t.text)).toEqual(['10 accepted, 2 failed']);
    clock.advance(TOAST_MS.error - TOAST_MS.ok);
    expect(toasts.items).toEqual([]);
  });

  it('stays while its details are read, until closed', () => {
    const clock = manualClock();
    const toasts = new ToastsState(clock);
    const id = toasts.show({ tone: 'error', text: '2 failed', details: ['a'] });
    toasts.keep(id);
    clock.advance(60_000);
    expect(toasts.items).toHaveLength(1);
    toasts.dismiss(id);
    expect(toasts.items).toEqual([]);
  });

  it('shows at most four at once, dropping the oldest, and stops every timer on dispose', () => {
    const clock = manualClock();
    const toasts = new ToastsState(clock);
    for (let i = 1; i <= 6; i++) {
      toasts.show({ text: `r${i}` });
    }
    expect(toasts.items.map((t) => t.text)).toEqual(['r3', 'r4', 'r5', 'r6']);
    toasts.dispose();
    clock.advance(60_000);
    expect(toasts.items).toHaveLength(4);
  });
});
