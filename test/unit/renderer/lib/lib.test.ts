import { describe, expect, it } from 'vitest';
import { toBadgeViews } from '../../../../renderer/src/lib/badges';
import { emoteUrl, mentionsName, parseContent, plainContent } from '../../../../renderer/src/lib/chat-content';
import { readableNameColour } from '../../../../renderer/src/lib/colour';
import { explainAdError, explainRedemptionFailure } from '../../../../renderer/src/lib/error-text';
import { formatCountdown, formatMinutes, formatRelative } from '../../../../renderer/src/lib/format';
import { pickView } from '../../../../renderer/src/lib/route';
import { computeWindow, rowOffsets } from '../../../../renderer/src/lib/virtual-window';

describe('chat content', () => {
  it('splits text, emotes and mentions', () => {
    expect(parseContent('hi [emote:12:Kappa] @Bob and @me!', 'bob')).toEqual([
      { kind: 'text', text: 'hi ' },
      { kind: 'emote', id: '12', name: 'Kappa' },
      { kind: 'text', text: ' ' },
      { kind: 'mention', text: '@Bob', self: true },
      { kind: 'text', text: ' and ' },
      { kind: 'mention', text: '@me', self: false },
      { kind: 'text', text: '!' },
    ]);
    expect(parseContent('<b>not html</b>', null)).toEqual([{ kind: 'text', text: '<b>not html</b>' }]);
  });

  it('detects mentions as whole words', () => {
    expect(mentionsName('hey bob!', 'bob')).toBe(true);
    expect(mentionsName('hey @BOB', 'bob')).toBe(true);
    expect(mentionsName('bobby', 'bob')).toBe(false);
    expect(mentionsName('x', null)).toBe(false);
  });

  it('builds emote URLs and plain text', () => {
    expect(emoteUrl('http://127.0.0.1:5/', '9')).toBe('http://127.0.0.1:5/emotes/9/fullsize');
    expect(plainContent('a [emote:1:Pog] b')).toBe('a Pog b');
  });
});

describe('virtual window', () => {
  it('renders only rows in view plus overscan', () => {
    const offsets = rowOffsets(1000, () => 20);
    const w = computeWindow(offsets, 1000, 2000, 400, 5);
    expect(w.start).toBe(95);
    expect(w.end).toBe(126);
    expect(w.padTop).toBe(1900);
    expect(w.padTop + (w.end - w.start) * 20 + w.padBottom).toBe(20000);
    expect(
      computeWindow(
        rowOffsets(0, () => 20),
        0,
        0,
        400,
        5,
      ).end,
    ).toBe(0);
  });

  it('uses measured heights', () => {
    const offsets = rowOffsets(4, (i) => (i === 1 ? 100 : 10));
    expect([...offsets]).toEqual([0, 10, 110, 120, 130]);
    expect(computeWindow(offsets, 4, 50, 10, 0)).toMatchObject({ start: 1, end: 2 });
  });
});

describe('small helpers', () => {
  it('formats', () => {
    expect([1, 5, 10, 60, 1440, 10080, 90].map(formatMinutes)).toEqual(['1m', '5m', '10m', '1h', '1d', '1w', '90m']);
    expect(formatCountdown(65)).toBe('1:05');
    expect(formatRelative(3_600_000 * 3, 0)).toBe('in 3 h');
    expect(formatRelative(0, 300_000)).toBe('5 min ago');
  });

  it('lifts dark name colours and rejects junk', () => {
    expect(readableNameColour('#000000')).not.toBe('#000000');
    expect(readableNameColour('#ffcc00')).toBe('#ffcc00');
    expect(readableNameColour('red; background: url(x)')).toBeNull();
  });

  it('labels badges', () => {
    expect(toBadgeViews([{ text: 'Subscriber', type: 'subscriber', count: 3 }])[0]).toMatchObject({
      glyph: '3',
      label: 'Subscriber (3)',
    });
  });

  it('explains errors by code', () => {
    expect(explainAdError({ code: 'Conflict', message: 'x' }, { action: 'run', live: true }).title).toMatch(
      /already running/,
    );
    expect(explainRedemptionFailure('NOT_OWNED')).toMatch(/another app/);
  });

  it('picks the view from the address', () => {
    expect(pickView({ hash: '#/chat', search: '' })).toBe('chat');
    expect(pickView({ hash: '', search: '?compact=1&token=x' })).toBe('compact');
    expect(pickView({ hash: '', search: '' })).toBe('full');
  });
});
