import { describe, expect, it } from 'vitest';
import { buildBadges } from '../../../../renderer/src/lib/badge-dom';
import { toBadgeViews } from '../../../../renderer/src/lib/badges';

describe('badges', () => {
  it('labels badges', () => {
    expect(toBadgeViews([{ text: 'Subscriber', type: 'subscriber', count: 3 }])[0]).toMatchObject({
      glyph: '3',
      label: 'Subscriber (3)',
    });
  });

  it('builds each badge as a labelled pill with its colour class, in Kick’s order', () => {
    const span = document.createElement('span');
    span.append(
      buildBadges(document, [
        { text: 'Broadcaster', type: 'broadcaster' },
        { text: 'Subscriber', type: 'subscriber', count: 6 },
        { text: '<i>odd</i>', type: 'new_kind' },
      ]),
    );
    const pills = [...span.children] as HTMLElement[];
    expect(pills.map((p) => p.className)).toEqual([
      'chat-badge broadcaster',
      'chat-badge subscriber',
      'chat-badge other',
    ]);
    expect(pills.map((p) => p.getAttribute('aria-label'))).toEqual(['Broadcaster', 'Subscriber (6)', '<i>odd</i>']);
    expect(pills.every((p) => p.getAttribute('role') === 'img' && p.title === p.getAttribute('aria-label'))).toBe(true);
    expect(pills.map((p) => p.textContent)).toEqual(['★', '6', '<']);
    expect(span.querySelector('i')).toBeNull();
  });
});
