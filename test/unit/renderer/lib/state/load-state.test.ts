import { describe, expect, it } from 'vitest';
import { errResult, okResult, type Result } from '../../../../../shared/errors';
import { explainError } from '../../../../../renderer/src/lib/error-text';
import { formatClock } from '../../../../../renderer/src/lib/format';
import { LoadState } from '../../../../../renderer/src/lib/state/load-state.svelte';
import { manualClock } from '../../fake-api';

/** A call held open until the test settles it. */
function held<T>() {
  let settle!: (result: Result<T>) => void;
  const promise = new Promise<Result<T>>((resolve) => (settle = resolve));
  return { call: () => promise, settle };
}

/** A call that answers at once. */
function answer<T>(result: Result<T>) {
  return () => Promise.resolve(result);
}

const unauthorized = { code: 'Unauthorized' as const, message: 'Kick said no' };

describe('LoadState', () => {
  it('is loading while the call is open, then loaded with the value applied', async () => {
    const load = new LoadState();
    const pending = held<number>();
    const applied: number[] = [];
    const done = load.run(pending.call, (n) => applied.push(n));
    expect(load.loading).toBe(true);
    expect(load.loaded).toBe(false);
    expect(load.error).toBeNull();
    pending.settle(okResult(7));
    expect(await done).toBe(true);
    expect(applied).toEqual([7]);
    expect(load.loading).toBe(false);
    expect(load.loaded).toBe(true);
  });

  it('applies the value in the same step that sets the flags', async () => {
    const load = new LoadState();
    let seen: { loading: boolean; loaded: boolean } | null = null;
    await load.run(answer(okResult('x')), () => (seen = { loading: load.loading, loaded: load.loaded }));
    expect(seen).toEqual({ loading: false, loaded: true });
  });

  it('describes a failure, skips apply and says since when the value kept is as it is', async () => {
    const clock = manualClock();
    const load = new LoadState(clock);
    await load.run(answer(okResult(1)), () => {});
    const readAt = clock.now();
    expect(load.loadedAtMs).toBe(readAt);
    clock.advance(5 * 60_000);
    const applied: number[] = [];
    const ok = await load.run(answer(errResult<number>(unauthorized)), (n) => applied.push(n));
    expect(ok).toBe(false);
    expect(applied).toEqual([]);
    const plain = explainError(unauthorized);
    expect(load.error).toEqual({ ...plain, text: `${plain.text} What is shown is as of ${formatClock(readAt)}.` });
    expect(load.loading).toBe(false);
    expect(load.loaded).toBe(true);
    expect(load.loadedAtMs).toBe(readAt);
  });

  it('keeps only the newest of two overlapping loads, whichever answers last', async () => {
    const load = new LoadState();
    const older = held<string>();
    const newer = held<string>();
    const applied: string[] = [];
    const first = load.run(older.call, (v) => applied.push(v));
    const second = load.run(newer.call, (v) => applied.push(v));
    newer.settle(okResult('new'));
    expect(await second).toBe(true);
    older.settle(okResult('old'));
    expect(await first).toBe(false);
    expect(applied).toEqual(['new']);
    expect(load.loading).toBe(false);
  });

  it('ignores an answer that arrives after a reset, and is requested only once asked', async () => {
    const load = new LoadState();
    expect(load.requested).toBe(false);
    const pending = held<number>();
    const applied: number[] = [];
    const done = load.run(pending.call, (n) => applied.push(n));
    expect(load.requested).toBe(true);
    load.reset();
    expect(load.requested).toBe(false);
    pending.settle(okResult(3));
    expect(await done).toBe(false);
    expect(applied).toEqual([]);
    expect({ loading: load.loading, loaded: load.loaded }).toEqual({ loading: false, loaded: false });
  });

  it('is not loaded when the first call fails, and clears the error when the next one starts', async () => {
    const load = new LoadState();
    await load.run(answer(errResult(unauthorized)), () => {});
    expect(load.loaded).toBe(false);
    expect(load.error).not.toBeNull();
    const pending = held<number>();
    const done = load.run(pending.call, () => {});
    expect(load.error).toBeNull();
    pending.settle(okResult(1));
    await done;
  });

  it('shows and clears failures of other calls, and resets every flag', async () => {
    const load = new LoadState();
    await load.run(answer(okResult(1)), () => {});
    load.fail(unauthorized);
    expect(load.error).toEqual(explainError(unauthorized));
    load.clearError();
    expect(load.error).toBeNull();
    load.fail(unauthorized);
    load.reset();
    expect({ loading: load.loading, loaded: load.loaded, error: load.error }).toEqual({
      loading: false,
      loaded: false,
      error: null,
    });
  });
});
