import { describe, expect, it } from 'vitest';
import { isLate, LATE_DIGEST_LIST_MAX, LateEpisodes, lateDigestText } from '../../../shared/late-events';

const MIN = 60_000;
const entry = (id: string, happenedAtMs = 0) => ({ id, text: `${id} happened`, happenedAtMs });

describe('isLate', () => {
  it('is late only past the age, measured from when Kick says it happened', () => {
    expect(isLate(0, 2 * MIN, 120)).toBe(false);
    expect(isLate(0, 2 * MIN + 1, 120)).toBe(true);
    expect(isLate(10 * MIN, 20 * MIN, 300)).toBe(true);
    expect(isLate(10 * MIN, 14 * MIN, 300)).toBe(false);
  });

  it('acts on an event with no readable time, or one from a clock ahead of ours', () => {
    expect(isLate(null, 10 * MIN, 120)).toBe(false);
    expect(isLate(Number.NaN, 10 * MIN, 120)).toBe(false);
    expect(isLate(20 * MIN, 10 * MIN, 120)).toBe(false);
  });
});

describe('LateEpisodes', () => {
  it('keeps one digest for an episode, counting and listing each late event', () => {
    const episodes = new LateEpisodes();
    const first = episodes.note(entry('a'), true, 10 * MIN, 120);
    const second = episodes.note(entry('b'), true, 10 * MIN + 5000, 120);
    expect(second?.id).toBe(first?.id);
    expect(second).toMatchObject({ count: 2, startedAtMs: 10 * MIN });
    expect(second?.entries.map((e) => e.id)).toEqual(['a', 'b']);
    // The returned digest is a copy: the caller keeping it does not see later changes.
    expect(first?.count).toBe(1);
  });

  it('ends the episode when an event arrives on time, so the next late one opens a new digest', () => {
    const episodes = new LateEpisodes();
    const first = episodes.note(entry('a'), true, 10 * MIN, 120);
    expect(episodes.note(entry('b'), false, 10 * MIN + 1000, 120)).toBeNull();
    const next = episodes.note(entry('c'), true, 10 * MIN + 2000, 120);
    expect(next?.id).not.toBe(first?.id);
    expect(next?.count).toBe(1);
  });

  it('ends the episode after the age passes with nothing late', () => {
    const episodes = new LateEpisodes();
    const first = episodes.note(entry('a'), true, 10 * MIN, 120);
    expect(episodes.note(entry('b'), true, 12 * MIN, 120)?.id).toBe(first?.id);
    const later = episodes.note(entry('c'), true, 14 * MIN + 1, 120);
    expect(later?.id).not.toBe(first?.id);
  });

  it('lists at most the limit and counts on past it', () => {
    const episodes = new LateEpisodes();
    let last = null;
    for (let i = 0; i < LATE_DIGEST_LIST_MAX + 5; i++) {
      last = episodes.note(entry(`e${i}`), true, 10 * MIN + i, 120);
    }
    expect(last?.count).toBe(LATE_DIGEST_LIST_MAX + 5);
    expect(last?.entries).toHaveLength(LATE_DIGEST_LIST_MAX);
  });
});

describe('lateDigestText', () => {
  it('counts in words', () => {
    expect(lateDigestText(1)).toBe("1 event arrived late while Kick's webhooks were behind");
    expect(lateDigestText(3)).toBe("3 events arrived late while Kick's webhooks were behind");
  });
});
