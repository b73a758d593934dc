import { describe, expect, it } from 'vitest';
import type { Result } from '../../../../../shared/errors';
import { validateAdSeconds, AdsState } from '../../../../../renderer/src/lib/state/ads.svelte';
import { RewardFormState } from '../../../../../renderer/src/lib/state/reward-form.svelte';
import { StreamInfoState, validateTag } from '../../../../../renderer/src/lib/state/stream-info.svelte';
import { createFakeApi, manualClock, settle } from '../../fake-api';
import { channel, reward } from '../../fixtures';

describe('RewardFormState', () => {
  it('checks Kick limits, counting code points', () => {
    const form = new RewardFormState();
    form.title = '🎉'.repeat(50);
    form.cost = 1;
    expect(form.valid).toBe(true);
    form.title = '🎉'.repeat(51);
    expect(form.errors.title).toBe('Title: at most 50 characters (now 51).');
    form.title = 'ok';
    form.cost = 1.5;
    expect(form.errors.cost).toBeDefined();
    form.cost = null;
    expect(form.errors.cost).toBeDefined();
    form.cost = 10;
    form.backgroundColor = '#abc';
    expect(form.valid).toBe(true);
    form.backgroundColor = '#abcd';
    expect(form.errors.backgroundColor).toBeDefined();
  });

  it('patches only what changed', () => {
    const form = new RewardFormState(reward({ title: 'A', cost: 5, background_color: '#00E701' }));
    expect(form.patch()).toEqual({});
    form.backgroundColor = '#00e701';
    form.cost = 6;
    form.isEnabled = false;
    expect(form.patch()).toEqual({ cost: 6, isEnabled: false });
  });
});

describe('AdsState', () => {
  it('validates the length', () => {
    expect(validateAdSeconds(7)).toBeNull();
    expect(validateAdSeconds(300)).toBeNull();
    expect(validateAdSeconds(6)).not.toBeNull();
    expect(validateAdSeconds(301)).not.toBeNull();
    expect(validateAdSeconds(null)).not.toBeNull();
  });

  it('counts down on the injected clock and stops', async () => {
    const fake = createFakeApi();
    fake.ok('ads:run', { id: 'x', remaining_ad_breaks: 1 });
    const clock = manualClock();
    const ads = new AdsState(fake.api, clock);
    await ads.load();
    ads.seconds = 10;
    await ads.run();
    expect(ads.remainingSeconds).toBe(10);
    expect(ads.status?.remaining_ad_breaks).toBe(1);
    clock.advance(2500);
    expect(ads.remainingSeconds).toBe(8);
    clock.advance(7500);
    await settle();
    expect(ads.running).toBeNull();
    ads.dispose();
  });

  it('keeps the Conflict for explanation', async () => {
    const fake = createFakeApi();
    fake.fail('ads:run', 'Conflict', 'busy');
    const ads = new AdsState(fake.api, manualClock());
    await ads.run();
    expect(ads.explanation?.title).toBe('An ad break is already running');
    ads.dismissError();
    expect(ads.explanation).toBeNull();
  });
});

describe('StreamInfoState', () => {
  it('validates tags', () => {
    expect(validateTag('', [])).toMatch(/type a word/);
    expect(validateTag('x'.repeat(26), [])).toMatch(/at most 25/);
    expect(validateTag('A', ['a'])).toMatch(/already there/);
    expect(
      validateTag(
        'k',
        Array.from({ length: 10 }, (_, i) => `t${i}`),
      ),
    ).toMatch(/at most 10/);
  });

  it('debounces category search and ignores stale answers', async () => {
    const fake = createFakeApi();
    const clock = manualClock();
    const answers: ((v: Result<unknown>) => void)[] = [];
    fake.handle('stream:search-categories', () => new Promise((resolve) => answers.push(resolve)));
    const stream = new StreamInfoState(fake.api, clock);
    stream.setQuery('a');
    clock.advance(100);
    stream.setQuery('ab');
    clock.advance(300);
    expect(fake.argsOf('stream:search-categories')).toEqual([[{ query: 'ab' }]]);
    stream.setQuery('abc');
    clock.advance(300);
    answers[1]!({ ok: true, value: [{ id: 2, name: 'ABC', tags: [], thumbnail: '' }] });
    answers[0]!({ ok: true, value: [{ id: 1, name: 'AB', tags: [], thumbnail: '' }] });
    await settle();
    expect(stream.results.map((c) => c.name)).toEqual(['ABC']);
    stream.setQuery('');
    expect(stream.results).toEqual([]);
  });

  it('takes the channel main pushed after a change without losing drafts', async () => {
    const fake = createFakeApi();
    const stream = new StreamInfoState(fake.api, manualClock());
    await stream.load();
    stream.title = 'Draft';
    stream.applyPushed(channel({ stream: { ...channel().stream, viewer_count: 999 } }));
    expect(stream.viewers).toBe(999);
    expect(stream.title).toBe('Draft');
    expect(stream.changes).toEqual({ title: 'Draft' });
    stream.revert();
    expect(stream.dirty).toBe(false);
  });
});
