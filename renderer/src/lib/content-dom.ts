/**
 * A chat message's content as DOM nodes, built off the page and put in with one insertion.
 *
 * Built by hand rather than by a Svelte `{#each}` of segment components because a raid shows hundreds of
 * lines a second: per line, the component tree cost a dozen effects and one live DOM insertion per text run
 * and emote, and inserting into the live page is what Chromium charges for (docs/decisions.md, "Chat rows
 * are built off the page"). Content never changes once sent, so nothing here needs to be reactive.
 *
 * User text only ever becomes text nodes and attribute values: never markup.
 */
import { type ContentSegment, emoteUrl } from './chat-content';

export interface ContentOptions {
  /** The emote image host; without one, emotes show as their names. */
  emoteHost: string;
  /** Links become buttons that ask this first (the panel's confirm); without it they stay text. */
  onLink?: ((url: string) => void) | undefined;
}

/** The class names the nodes carry; the component that holds them styles these. */
export const CONTENT_CLASSES = {
  emote: 'emote',
  emoteFallback: 'emote-fallback',
  link: 'link',
  mention: 'mention',
  self: 'self',
} as const;

function emoteFallback(doc: Document, name: string): HTMLSpanElement {
  const span = doc.createElement('span');
  span.className = CONTENT_CLASSES.emoteFallback;
  span.title = `Emote ${name}`;
  span.textContent = name;
  return span;
}

function emote(doc: Document, segment: Extract<ContentSegment, { kind: 'emote' }>, host: string): Element {
  if (!host) {
    return emoteFallback(doc, segment.name);
  }
  // A fixed box (the class sets width and height), reserved before the image loads: a late image must not
  // grow its chat row.
  const img = doc.createElement('img');
  img.className = CONTENT_CLASSES.emote;
  img.alt = segment.name;
  img.title = segment.name;
  img.addEventListener('error', () => img.replaceWith(emoteFallback(doc, segment.name)), { once: true });
  img.src = emoteUrl(host, segment.id);
  return img;
}

/** The nodes for `segments`, in a fragment not yet in the page. */
export function buildContent(doc: Document, segments: readonly ContentSegment[], options: ContentOptions): Node {
  const out = doc.createDocumentFragment();
  for (const segment of segments) {
    switch (segment.kind) {
      case 'emote':
        out.append(emote(doc, segment, options.emoteHost));
        break;
      case 'link': {
        const onLink = options.onLink;
        if (!onLink) {
          out.append(segment.text);
          break;
        }
        const a = doc.createElement('a');
        a.className = CONTENT_CLASSES.link;
        a.href = segment.url;
        a.title = segment.url;
        a.textContent = segment.text;
        a.addEventListener('click', (event) => {
          event.preventDefault();
          onLink(segment.url);
        });
        out.append(a);
        break;
      }
      case 'mention': {
        const span = doc.createElement('span');
        span.className = segment.self ? `${CONTENT_CLASSES.mention} ${CONTENT_CLASSES.self}` : CONTENT_CLASSES.mention;
        span.textContent = segment.text;
        out.append(span);
        break;
      }
      default:
        out.append(segment.text);
    }
  }
  return out;
}
