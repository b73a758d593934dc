/**
 * Kick chat badges (`identity.badges`: `{ text, type, count? }`) as short labelled pills. Kick serves no
 * badge images we may load under the CSP, so each type gets a glyph and a colour class; the full text is
 * the accessible name.
 */
import type { KickBadge } from '../../../shared/kick/events';

export interface BadgeView {
  glyph: string;
  label: string;
  tone: 'broadcaster' | 'moderator' | 'vip' | 'og' | 'founder' | 'subscriber' | 'gifter' | 'verified' | 'other';
}

const KNOWN: Record<string, Pick<BadgeView, 'glyph' | 'tone'>> = {
  broadcaster: { glyph: '★', tone: 'broadcaster' },
  moderator: { glyph: '⚔', tone: 'moderator' },
  vip: { glyph: '◆', tone: 'vip' },
  og: { glyph: 'OG', tone: 'og' },
  founder: { glyph: 'F', tone: 'founder' },
  subscriber: { glyph: 'S', tone: 'subscriber' },
  sub_gifter: { glyph: 'G', tone: 'gifter' },
  verified: { glyph: '✓', tone: 'verified' },
};

/** One view per badge, in Kick's order. */
export function toBadgeViews(badges: readonly KickBadge[]): BadgeView[] {
  return badges.map((badge) => {
    const known = KNOWN[badge.type] ?? { glyph: badge.text.slice(0, 1).toUpperCase() || '•', tone: 'other' };
    const label = badge.count ? `${badge.text} (${badge.count})` : badge.text;
    const glyph = badge.type === 'subscriber' && badge.count ? `${badge.count}` : known.glyph;
    return { glyph, label, tone: known.tone };
  });
}
