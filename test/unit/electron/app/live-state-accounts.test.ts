/**
 * An ask of Kick under way when the streamer signs out or another account signs in: its answer is about a
 * channel that is no longer the signed-in one, so nothing believes it — the bot's timers never run on it.
 */
import { describe, expect, it } from 'vitest';
import { channel, flush, liveSetup, STREAMER } from './live-state-fixtures';

const OTHER = 200002;

describe('live state: an answer that comes back after the account changed', () => {
  it("A's live answer arriving after A signed out is dropped", async () => {
    const s = liveSetup();
    s.live.refresh();
    s.signOut();
    await s.answer(channel(true));
    expect(s.live.isLive()).toBe(false);
    expect(s.live.facts()).toMatchObject({ confirmed: false });
  });

  it('then B signs in and Kick does not answer B: still not live, and B starts from nothing', async () => {
    const s = liveSetup();
    s.live.refresh();
    s.signOut();
    await s.answer(channel(true));
    s.signIn(OTHER);
    expect(s.waiting()).toBe(1);
    expect(s.live.isLive()).toBe(false);
    expect(s.live.facts()).toMatchObject({ live: false, confirmed: false, title: '' });
    expect(s.live.view()).toBeNull();
    // Kick answers B at last: B's own channel is believed.
    await s.answer(channel(false, { id: OTHER }));
    expect(s.live.facts()).toMatchObject({ live: false, confirmed: true });
  });

  it('A is live and confirmed, then B signs in straight away: A is not carried over to B', async () => {
    const s = liveSetup();
    s.live.refresh();
    await s.answer(channel(true));
    expect(s.live.isLive()).toBe(true);
    s.signIn(OTHER);
    expect(s.live.isLive()).toBe(false);
    expect(s.pushed.at(-1)).toBeNull();
  });

  it("an ask A sent before B signed in, answered after: dropped, and B's own ask still goes", async () => {
    const s = liveSetup();
    s.live.refresh();
    s.signIn(OTHER);
    // A's answer names A's channel; it was right for A, but B is signed in now.
    await s.answer(channel(true));
    expect(s.live.isLive()).toBe(false);
    expect(s.logs).toEqual([]);
    await flush();
    expect(s.waiting()).toBe(1);
    await s.answer(channel(true, { id: OTHER }));
    expect(s.live.isLive()).toBe(true);
  });

  it('a failed ask from before the sign-out schedules no retry', async () => {
    const s = liveSetup();
    s.live.refresh();
    s.signOut();
    await s.fail(new Error('socket hang up'));
    s.timers.advance(120_000);
    expect(s.reads()).toBe(1);
    expect(s.logs).toEqual([]);
  });

  it('the same broadcaster signing in again keeps the last figures to show and asks Kick', async () => {
    const s = liveSetup();
    s.live.refresh();
    await s.answer(channel(true));
    s.signOut();
    s.signIn(STREAMER);
    expect(s.live.view()).toMatchObject({ stream: { is_live: true }, signedIn: true });
    expect(s.live.isLive()).toBe(false);
    expect(s.reads()).toBe(2);
  });
});
