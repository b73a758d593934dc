import { describe, expect, it } from 'vitest';
import { DEFAULT_OVERLAY_SETTINGS, type AlertView } from '../../../../shared/overlays';
import { type AlertProgress, AlertQueue } from '../../../../electron/overlays/alert-queue';
import type { AlertSource } from '../../../../electron/overlays/alert-source';

const gift = (i: number, count = 1): AlertSource => ({
  id: `m${i}`,
  kind: 'gifted-subs',
  fields: { user: `gifter${i}`, count: String(count) },
  amount: count,
  receivedAtMs: 1_000 + i,
});

function setup(stored: AlertProgress | null = null, templates = DEFAULT_OVERLAY_SETTINGS.alerts) {
  const shown: AlertView[] = [];
  const disk = { progress: stored };
  const make = () =>
    new AlertQueue({
      clock: { now: () => 2_000 },
      templates: () => templates,
      mediaUrl: (name) => `/overlay/media/${name}`,
      progress: { read: () => disk.progress, write: (p) => (disk.progress = p) },
      onShow: (alert) => shown.push(alert),
      log: () => undefined,
    });
  return { shown, disk, make };
}

describe('the alert queue', () => {
  it('plays alerts one at a time in arrival order, each after the previous is done', () => {
    const { shown, make } = setup();
    const queue = make();
    queue.endReplay();
    queue.setAudience(1);
    for (let i = 0; i < 3; i++) {
      queue.offer(gift(i, 5));
    }
    expect(shown.map((a) => a.id)).toEqual(['m0']);
    expect(shown[0]!.text).toBe('gifter0 gifted 5 subs!');
    queue.done('m1'); // not the current one: ignored
    queue.done('m0');
    queue.done('m1');
    expect(shown.map((a) => a.id)).toEqual(['m0', 'm1', 'm2']);
    expect(queue.waiting()).toBe(0);
  });

  it('waits for an alert overlay to be open', () => {
    const { shown, make } = setup();
    const queue = make();
    queue.endReplay();
    queue.offer(gift(0));
    expect(shown).toEqual([]);
    queue.setAudience(1);
    expect(shown.map((a) => a.id)).toEqual(['m0']);
  });

  it('after a restart plays what was not shown yet, and repeats nothing shown', () => {
    const { shown, disk, make } = setup();
    const first = make();
    first.endReplay();
    first.setAudience(1);
    for (let i = 0; i < 6; i++) {
      first.offer(gift(i));
    }
    first.done('m0');
    first.done('m1'); // m2 is on screen when Greenroom stops
    expect(disk.progress).toEqual({ lastShownId: 'm2', lastShownAtMs: 1_002 });

    const restarted = make();
    for (let i = 0; i < 6; i++) {
      restarted.replay(gift(i));
    }
    restarted.endReplay();
    restarted.setAudience(1);
    restarted.done('m3');
    restarted.done('m4');
    expect(shown.map((a) => a.id)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5']);
  });

  it('on its first start does not play the journal’s history', () => {
    const { shown, make } = setup(null);
    const queue = make();
    queue.replay(gift(0));
    queue.endReplay();
    queue.setAudience(1);
    expect(shown).toEqual([]);
  });

  it('skips alerts below the template minimum, and a template switched off', () => {
    const templates = structuredClone(DEFAULT_OVERLAY_SETTINGS.alerts);
    templates['gifted-subs'].minAmount = 5;
    templates.follow.enabled = false;
    const { shown, make } = setup(null, templates);
    const queue = make();
    queue.endReplay();
    queue.setAudience(1);
    queue.offer({ id: 'f', kind: 'follow', fields: { user: 'a' }, amount: 1, receivedAtMs: 1_500 });
    queue.offer(gift(1, 2));
    queue.offer(gift(2, 10));
    expect(shown.map((a) => a.id)).toEqual(['m2']);
  });

  it('alerts a redemption once, not again when it is accepted', () => {
    const { shown, make } = setup();
    const queue = make();
    queue.endReplay();
    queue.setAudience(1);
    const redemption = (id: string): AlertSource => ({
      id,
      kind: 'redemption',
      fields: { user: 'v', reward: 'Hydrate' },
      amount: 1,
      receivedAtMs: 1_500,
      redemptionId: 'r1',
    });
    queue.offer(redemption('pending'));
    queue.done('pending');
    queue.offer(redemption('accepted'));
    expect(shown.map((a) => a.id)).toEqual(['pending']);
  });

  it('never records a test alert as shown', () => {
    const { shown, disk, make } = setup();
    const queue = make();
    queue.endReplay();
    queue.setAudience(1);
    queue.test('kicks');
    expect(shown[0]!.text).toBe('TestViewer sent 100 KICKs!');
    expect(disk.progress).toBeNull();
  });
});
