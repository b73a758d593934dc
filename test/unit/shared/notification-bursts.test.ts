/**
 * The one pacing rule for feed notifications, on the desktop and in a browser
 * ([panel in a browser](../../../docs/panel-in-a-browser.md#notifications-in-a-browser)).
 */
import { describe, expect, it } from 'vitest';
import { type DesktopNotification, notificationFor } from '../../../shared/feed-notifications';
import { NOTIFY_BURST_MS, NotificationBursts } from '../../../shared/notification-bursts';
import type { FeedItem } from '../../../shared/views';
import { feedItem } from '../renderer/fixtures';

const ALL_ON = { follows: true, subs: true, kicks: true, redemptions: true };

function setup(canShow = () => true) {
  let now = 0;
  const timers: { at: number; fn: () => void; cancelled: boolean }[] = [];
  const shown: { title: string; body: string; tag: string; first: boolean }[] = [];
  const bursts = new NotificationBursts({
    now: () => now,
    setTimeout: (fn, ms) => {
      const timer = { at: now + ms, fn, cancelled: false };
      timers.push(timer);
      return () => (timer.cancelled = true);
    },
    canShow,
    show: (note: DesktopNotification, tag, first) => shown.push({ title: note.title, body: note.body, tag, first }),
  });
  const advance = (ms: number) => {
    now += ms;
    for (const timer of timers.filter((t) => !t.cancelled && t.at <= now)) {
      timer.cancelled = true;
      timer.fn();
    }
  };
  const offer = (item: FeedItem) => bursts.offer(item, notificationFor(item, ALL_ON)!);
  return { bursts, shown, advance, offer, timers };
}

const follow = (i: number) => feedItem({ id: `f${i}`, kind: 'follow', text: `viewer${i} followed` });

describe('NotificationBursts', () => {
  it('says a raid of 300 follows in two notifications, not 300', () => {
    const { shown, advance, offer } = setup();
    expect(offer(follow(0))).toBe(true);
    for (let i = 1; i < 300; i++) {
      expect(offer(follow(i))).toBe(false);
    }
    advance(NOTIFY_BURST_MS);
    expect(shown.map((n) => [n.title, n.first])).toEqual([
      ['New follower', true],
      ['+299 more follows', false],
    ]);
    expect(shown[1]!.body).toContain('viewer299');
    // A quiet window ends the burst: the next follow is shown at once again.
    advance(NOTIFY_BURST_MS);
    expect(offer(follow(300))).toBe(true);
    expect(shown).toHaveLength(3);
  });

  it('keeps kinds apart: a sub during a follow wave is shown at once', () => {
    const { shown, offer } = setup();
    offer(follow(0));
    offer(follow(1));
    expect(offer(feedItem({ id: 's1', kind: 'subscription', text: 'a sub' }))).toBe(true);
    expect(shown.map((n) => n.title)).toEqual(['New follower', 'New subscriber']);
  });

  it('shows nothing while it may not, and leaves no timer behind once disposed', () => {
    let allowed = false;
    const { shown, offer, bursts, timers } = setup(() => allowed);
    expect(offer(follow(0))).toBe(false);
    allowed = true;
    offer(follow(1));
    bursts.dispose();
    expect(shown).toHaveLength(1);
    expect(timers.every((t) => t.cancelled)).toBe(true);
  });
});
