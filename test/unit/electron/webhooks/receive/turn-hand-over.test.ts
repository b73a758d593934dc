import { describe, expect, it } from 'vitest';
import { createTurnHandOver, type TurnHandOver } from '../../../../../electron/webhooks/receive/turn-hand-over';
import type { JournalRecord } from '../../../../../electron/webhooks/events/types';

const record = (n: number): JournalRecord => ({
  messageId: `m${n}`,
  subscriptionId: 's',
  type: 'chat.message.sent',
  version: '1',
  timestamp: '2026-11-26T00:00:00Z',
  receivedAtMs: n,
  bodyHash: `h${n}`,
  body: '{}',
});

/** A hand-over whose end of turn the test runs by hand. */
function harness() {
  const handed: string[] = [];
  const turnEnds: Array<() => void> = [];
  const handOver = createTurnHandOver(
    (r) => handed.push(r.messageId),
    (run) => turnEnds.push(run),
  );
  const endTurn = (): void => {
    for (const run of turnEnds.splice(0)) {
      run();
    }
  };
  return { handed, turnEnds, handOver, endTurn };
}

describe('createTurnHandOver', () => {
  it('hands a turn’s records over together at its end, in arrival order, with one scheduling', () => {
    const h = harness();
    for (let n = 0; n < 100; n++) {
      h.handOver.add(record(n));
    }
    expect(h.handed).toEqual([]);
    expect(h.turnEnds).toHaveLength(1);
    h.endTurn();
    expect(h.handed).toEqual(Array.from({ length: 100 }, (_, n) => `m${n}`));
  });

  it('flush hands over at once, and the turn’s end then hands nothing over twice', () => {
    const h = harness();
    h.handOver.add(record(1));
    h.handOver.add(record(2));
    h.handOver.flush();
    expect(h.handed).toEqual(['m1', 'm2']);
    h.endTurn();
    expect(h.handed).toEqual(['m1', 'm2']);
  });

  it('schedules again for the next turn, and a flush with nothing queued does nothing', () => {
    const h = harness();
    h.handOver.flush();
    h.handOver.add(record(1));
    h.endTurn();
    h.handOver.add(record(2));
    expect(h.turnEnds).toHaveLength(1);
    h.endTurn();
    expect(h.handed).toEqual(['m1', 'm2']);
  });

  it('a record added while a batch is handed over follows it, once', () => {
    const handed: string[] = [];
    const turnEnds: Array<() => void> = [];
    const handOver = createTurnHandOver(
      (r) => {
        handed.push(r.messageId);
        if (r.messageId === 'm1') {
          handOver.add(record(3));
          handOver.flush();
        }
      },
      (run) => turnEnds.push(run),
    );
    handOver.add(record(1));
    handOver.add(record(2));
    turnEnds.shift()!();
    for (const run of turnEnds.splice(0)) {
      run();
    }
    expect(handed).toEqual(['m1', 'm2', 'm3']);
  });

  it('a throw leaves the records not yet handed over queued for the next flush', () => {
    const handed: string[] = [];
    let failOnce = true;
    const handOver = createTurnHandOver(
      (r) => {
        if (r.messageId === 'm2' && failOnce) {
          failOnce = false;
          throw new Error('listener bug');
        }
        handed.push(r.messageId);
      },
      () => undefined,
    );
    handOver.add(record(1));
    handOver.add(record(2));
    handOver.add(record(3));
    expect(() => handOver.flush()).toThrow('listener bug');
    expect(handed).toEqual(['m1']);
    handOver.flush();
    expect(handed).toEqual(['m1', 'm3']);
  });

  it('uses setImmediate by default: nothing before the turn ends, everything after', async () => {
    const handed: string[] = [];
    const handOver = createTurnHandOver((r) => handed.push(r.messageId));
    handOver.add(record(1));
    await Promise.resolve();
    expect(handed).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(handed).toEqual(['m1']);
  });
});

describe('createTurnHandOver in slices', () => {
  /**
   * A hand-over whose records each take 1 ms on its clock, with a 4 ms slice; `during` runs inside `handOne`
   * after each record.
   */
  function sliced(sliceMs = 4, during?: (r: JournalRecord, handOver: TurnHandOver) => void) {
    let clockMs = 0;
    const handed: string[] = [];
    const turnEnds: Array<() => void> = [];
    const handOver: TurnHandOver = createTurnHandOver(
      (r) => {
        handed.push(r.messageId);
        clockMs += 1;
        during?.(r, handOver);
      },
      (run) => turnEnds.push(run),
      { sliceMs, now: () => clockMs },
    );
    const endTurn = (): void => {
      for (const run of turnEnds.splice(0)) {
        run();
      }
    };
    return { handed, turnEnds, handOver, endTurn };
  }

  it('a turn hands over for at most its slice and leaves the rest, in order, to the turns after', () => {
    const h = sliced();
    for (let n = 0; n < 10; n++) {
      h.handOver.add(record(n));
    }
    h.endTurn();
    expect(h.handed).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(h.turnEnds).toHaveLength(1);
    h.handOver.add(record(10));
    expect(h.turnEnds).toHaveLength(1);
    h.endTurn();
    h.endTurn();
    expect(h.handed).toEqual(Array.from({ length: 11 }, (_, n) => `m${n}`));
    expect(h.turnEnds).toHaveLength(0);
  });

  it('whenHanded settles once the hand-over reaches the record, and is null after', async () => {
    const h = sliced();
    const places = Array.from({ length: 6 }, (_, n) => h.handOver.add(record(n)));
    expect(places).toEqual([0, 1, 2, 3, 4, 5]);
    let fifth = false;
    void h.handOver.whenHanded(4)!.then(() => (fifth = true));
    h.endTurn();
    await Promise.resolve();
    expect(fifth).toBe(false);
    h.endTurn();
    await Promise.resolve();
    expect(h.handed).toHaveLength(6);
    expect(fifth).toBe(true);
    expect(h.handOver.whenHanded(0)).toBeNull();
    expect(h.handOver.whenHanded(5)).toBeNull();
    expect(() => h.handOver.whenHanded(6)).toThrow(RangeError);
  });

  it('whenHanded gives every caller for one place the same promise, and null once handed over', async () => {
    const h = sliced();
    for (let n = 0; n < 3; n++) {
      h.handOver.add(record(n));
    }
    const first = h.handOver.whenHanded(2);
    expect(h.handOver.whenHanded(2)).toBe(first);
    h.endTurn();
    await expect(first).resolves.toBeUndefined();
    expect(h.handOver.whenHanded(2)).toBeNull();
  });

  it('a flush from inside a sliced hand-over keeps the slice', () => {
    // As a late mark journaled by a listener does: nobody sees it, so the burst stays sliced.
    const h = sliced(4, (r, handOver) => {
      if (r.messageId === 'm1') {
        handOver.flush();
      }
    });
    for (let n = 0; n < 20; n++) {
      h.handOver.add(record(n));
    }
    h.turnEnds.shift()!();
    expect(h.handed).toEqual(['m0', 'm1', 'm2', 'm3']);
    expect(h.turnEnds).toHaveLength(1);
  });

  it('flush hands over everything queued, whatever the slice', () => {
    const h = sliced();
    for (let n = 0; n < 10; n++) {
      h.handOver.add(record(n));
    }
    h.handOver.flush();
    expect(h.handed).toHaveLength(10);
    h.endTurn();
    expect(h.handed).toHaveLength(10);
  });
});
