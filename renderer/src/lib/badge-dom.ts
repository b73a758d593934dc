/**
 * A chatter's badges as DOM nodes (the chat row builds them with its line, the overlay through Badges.svelte),
 * styled by `chat-badges.css`: plain class names, so rows built outside a component still get the look.
 */
import type { KickBadge } from '../../../shared/kick/events';
import { toBadgeViews } from './badges';
import './chat-badges.css';

/** The badges in Kick's order, in a fragment not yet in the page. */
export function buildBadges(doc: Document, badges: readonly KickBadge[]): DocumentFragment {
  const out = doc.createDocumentFragment();
  for (const badge of toBadgeViews(badges)) {
    const span = doc.createElement('span');
    span.className = `chat-badge ${badge.tone}`;
    span.setAttribute('role', 'img');
    span.setAttribute('aria-label', badge.label);
    span.title = badge.label;
    span.textContent = badge.glyph;
    out.append(span);
  }
  return out;
}
