import { describe, expect, it } from 'vitest';
import { AuthError, KickApiError } from '../../../../electron/kick/kick-errors';
import { channel, flush, liveSetup, statusEvent } from './live-state-fixtures';

describe('live state: Kick wins over the journal', () => {
  it('after a restart while offline: the journal says live, Kick says offline, and offline it is', async () => {
    const s = liveSetup();
    s.live.onEvent(statusEvent(true, s.timers.now - 3_600_000), false);
    expect(s.live.facts()).toMatchObject({ live: true, confirmed: false });
    expect(s.live.isLive()).toBe(false); // the journal alone is never acted on
    s.live.refresh();
    await s.answer(channel(false));
    expect(s.live.facts()).toMatchObject({ live: false, confirmed: true, startedAtMs: null });
    expect(s.live.isLive()).toBe(false);
    expect(s.pushed.map((view) => view?.stream.is_live)).toEqual([false]);
  });

  it('keeps what Kick said when the journal is replayed after its answer', async () => {
    const s = liveSetup();
    s.live.refresh();
    await s.answer(channel(false));
    s.live.onEvent(statusEvent(true, s.timers.now - 60_000), false);
    expect(s.live.facts().live).toBe(false);
  });

  it('believes Kick when it says live, with its start time', async () => {
    const s = liveSetup();
    s.live.refresh();
    await s.answer(channel(true, { startedAtMs: 900_000 }));
    expect(s.live.isLive()).toBe(true);
    expect(s.live.facts()).toMatchObject({ startedAtMs: 900_000, title: 'Ranked grind', category: 'Valorant' });
    expect(s.live.view()).toMatchObject({ signedIn: true, asOfMs: s.timers.now, stream: { viewer_count: 1445 } });
  });
});

describe('live state: events between asks', () => {
  it('a live-status event changes it at once, and the panels hear it', async () => {
    const s = liveSetup();
    s.live.refresh();
    await s.answer(channel(false));
    s.timers.advance(10_000);
    s.live.onEvent(statusEvent(true, s.timers.now), true);
    expect(s.live.isLive()).toBe(true);
    expect(s.pushed.map((view) => view?.stream.is_live)).toEqual([false, true]);
  });

  it('an answer asked for before a newer event does not undo the event', async () => {
    const s = liveSetup();
    s.live.refresh();
    s.timers.advance(100);
    s.live.onEvent(statusEvent(true, s.timers.now), true);
    await s.answer(channel(false)); // asked before the stream went live
    expect(s.live.isLive()).toBe(true);
    expect(s.live.view()?.stream.is_live).toBe(true);
  });

  it('an answer asked for before a new title and category does not bring the old ones back', async () => {
    const s = liveSetup();
    s.live.refresh();
    s.timers.advance(100);
    const metadata = statusEvent(true, s.timers.now);
    Object.assign(metadata, {
      type: 'livestream.metadata.updated',
      payload: { metadata: { title: 'Just chatting', category: { id: 0, name: '', thumbnail: '' } } },
    });
    s.live.onEvent(metadata, true);
    await s.answer(channel(true)); // 'Ranked grind' in Valorant, as it was when asked
    expect(s.live.facts()).toMatchObject({ title: 'Just chatting', category: '' });
  });

  it('an answer asked for after the event wins', async () => {
    const s = liveSetup();
    s.live.onEvent(statusEvent(true, s.timers.now), true);
    s.timers.advance(100);
    s.live.refresh();
    await s.answer(channel(false));
    expect(s.live.isLive()).toBe(false);
  });
});

describe('live state: asking Kick', () => {
  it('asks once per burst: one ask now and one more after it, whatever the burst', async () => {
    const s = liveSetup();
    for (let i = 0; i < 5; i++) {
      s.live.refresh();
    }
    expect(s.reads()).toBe(1);
    await s.answer(channel(false));
    expect(s.reads()).toBe(2);
    await s.answer(channel(true));
    await s.live.settled();
    expect(s.reads()).toBe(2);
    expect(s.live.isLive()).toBe(true);
  });

  it('asks again with growing waits after a failure, until Kick answers; says so once', async () => {
    const s = liveSetup();
    s.live.onEvent(statusEvent(true, s.timers.now - 60_000), false);
    s.live.refresh();
    await s.fail(new KickApiError('Network', 'fetchChannel: could not reach Kick', { operation: 'fetchChannel' }));
    expect(s.live.facts()).toMatchObject({ live: true, confirmed: false }); // as it was
    s.timers.advance(999);
    expect(s.reads()).toBe(1);
    s.timers.advance(1);
    expect(s.reads()).toBe(2);
    await s.fail(new KickApiError('Timeout', 'fetchChannel: Kick did not answer in time', { operation: 'x' }));
    s.timers.advance(1_999);
    expect(s.reads()).toBe(2);
    s.timers.advance(1);
    expect(s.reads()).toBe(3);
    await s.answer(channel(false));
    expect(s.live.facts()).toMatchObject({ live: false, confirmed: true });
    s.timers.advance(60_000);
    expect(s.reads()).toBe(3); // reachable again: no more asks until something changes
    expect(s.logs).toEqual([
      'live status: could not ask Kick (Network: fetchChannel: could not reach Kick); asking again until it answers',
    ]);
  });

  it('waits at most the longest wait between asks', async () => {
    const s = liveSetup();
    s.live.refresh();
    for (let i = 0; i < 6; i++) {
      await s.fail(new KickApiError('ServerError', 'down', { operation: 'fetchChannel' }));
      s.timers.advance(8_000);
    }
    expect(s.reads()).toBe(7);
  });

  it.each([
    ['no stream', { ...channel(true), stream: undefined }],
    ['is_live not a boolean', { ...channel(true), stream: { ...channel(true).stream, is_live: 'true' } }],
    ['viewers negative', { ...channel(true), stream: { ...channel(true).stream, viewer_count: -1 } }],
    ['another channel', channel(true, { id: 999 })],
    ['not an object', 'LIVE'],
  ])('refuses an answer with %s, keeps what it knew and asks again', async (_name, answer) => {
    const s = liveSetup();
    s.live.refresh();
    await s.answer(channel(false));
    s.live.refresh();
    await s.answer(answer);
    expect(s.live.facts()).toMatchObject({ live: false, confirmed: true });
    expect(s.logs[0]).toMatch(/^live status: could not ask Kick \(ServerError: fetchChannel: Kick's answer is not/);
    s.timers.advance(1_000);
    expect(s.reads()).toBe(3);
  });

  it('a panel read goes through it: the answer is checked, believed and pushed', async () => {
    const s = liveSetup();
    const read = s.live.ask(() => Promise.resolve(channel(true)));
    await expect(read).resolves.toMatchObject({ stream: { is_live: true }, signedIn: true });
    expect(s.live.isLive()).toBe(true);
    await expect(s.live.ask(() => Promise.resolve(channel(true, { id: 5 })))).rejects.toMatchObject({
      code: 'ServerError',
    });
    expect(s.pushed).toHaveLength(1);
  });
});

describe('live state: signed out', () => {
  it('is never live, asks nothing, and tells the panels the figures are as of the last answer', async () => {
    const s = liveSetup();
    s.live.refresh();
    await s.answer(channel(true));
    const answeredAt = s.timers.now;
    s.timers.advance(25 * 60_000);
    s.signOut();
    expect(s.live.isLive()).toBe(false);
    expect(s.pushed.at(-1)).toMatchObject({ signedIn: false, asOfMs: answeredAt, stream: { is_live: true } });
    s.live.refresh();
    expect(s.reads()).toBe(1);
  });

  it('does not keep asking when the ask failed because the sign-in ended', async () => {
    const s = liveSetup();
    s.live.refresh();
    await s.fail(new AuthError('RefreshRejected', 'sign in again: refresh token rejected'));
    s.timers.advance(120_000);
    expect(s.reads()).toBe(1);
    expect(s.logs).toEqual([]);
  });

  it('pushes nothing and asks nothing once stopped', async () => {
    const s = liveSetup();
    s.live.refresh();
    s.live.stop();
    await s.answer(channel(true));
    await flush();
    s.live.refresh();
    expect(s.reads()).toBe(1);
    expect(s.pushed).toEqual([]);
  });
});
