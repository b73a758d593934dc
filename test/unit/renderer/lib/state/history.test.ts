import { describe, expect, it } from 'vitest';
import { HistoryState } from '../../../../../renderer/src/lib/state/history.svelte';
import { createFakeApi, manualClock, settle } from '../../fake-api';
import { START, recap, story, streamList } from '../../components/history-fixtures';

const ready = { state: 'ready' as const, message: null, detail: null, chatDays: 90, liveStreamId: null };

describe('HistoryState', () => {
  it('keeps the newest card’s story when an older read ends after it', async () => {
    const fake = createFakeApi();
    const held = fake.hold('history:viewer');
    const history = new HistoryState(fake.api, manualClock());
    const first = history.loadStory(1);
    const second = history.loadStory(2);
    held.release({ ok: true, value: story({ userId: 2, username: 'second' }) });
    await Promise.all([first, second]);
    expect(history.story?.userId).toBe(2);
    expect(history.story?.story?.username).toBe('second');
  });

  it('a recap read for a stream no longer open is not shown over the one that is', async () => {
    const fake = createFakeApi();
    const held = fake.hold('history:recap');
    const history = new HistoryState(fake.api, manualClock());
    const a = history.open(START - 1000);
    const b = history.open(START);
    held.release({ ok: true, value: recap() });
    await Promise.all([a, b]);
    expect(history.openId).toBe(START);
    expect(history.recap?.stream.startedAtMs).toBe(START);
  });

  it('a failed read of the list keeps the streams read before and says so', async () => {
    const fake = createFakeApi();
    fake.ok('history:streams', streamList());
    const history = new HistoryState(fake.api, manualClock());
    await history.load();
    fake.fail('history:streams', 'Internal', 'database is locked');
    history.apply({ what: 'streams', status: ready, endedStreamId: null });
    await settle();
    expect(history.streams).toHaveLength(2);
    expect(history.loadState.error?.text).toContain('Something went wrong inside Greenroom');
  });

  it('reads nothing on a push before the view was shown, and the open recap follows the live stream', async () => {
    const fake = createFakeApi();
    fake.ok('history:recap', recap());
    const history = new HistoryState(fake.api, manualClock());
    history.apply({ what: 'streams', status: { ...ready, liveStreamId: START }, endedStreamId: null });
    await settle();
    expect(fake.calls).toEqual([]);
    await history.load();
    await history.open(START);
    history.apply({ what: 'streams', status: { ...ready, liveStreamId: START }, endedStreamId: null });
    await settle();
    expect(fake.argsOf('history:recap')).toHaveLength(2);
    // Another stream's news leaves the open recap alone.
    history.apply({ what: 'streams', status: { ...ready, liveStreamId: START + 1 }, endedStreamId: null });
    await settle();
    expect(fake.argsOf('history:recap')).toHaveLength(2);
  });
});
