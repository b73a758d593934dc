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
import { EMOTE_CLASSES, emoteFallback, emoteImages } from './emote-images';
import './chat-content.css';

export interface ContentOptions {
  /** The emote image host; without one, emotes show as their names. */
  emoteHost: string;
  /** Links become buttons that ask this first (the panel's confirm); without it they stay text. */
  onLink?: ((url: string) => void) | undefined;
}

/** The class names the nodes carry, styled by chat-content.css under `.message-content`. */
export const CONTENT_CLASSES = {
  emote: EMOTE_CLASSES.emote,
  emoteFallback: EMOTE_CLASSES.fallback,
  link: 'link',
  mention: 'mention',
  self: 'self',
} as const;

/** The nodes for `segments`, in a fragment not yet in the page. */
export function buildContent(doc: Document, segments: readonly ContentSegment[], options: ContentOptions): Node {
  const out = doc.createDocumentFragment();
  for (const segment of segments) {
    switch (segment.kind) {
      case 'emote':
        out.append(
          options.emoteHost
            ? emoteImages(doc).node(emoteUrl(options.emoteHost, segment.id), segment.name)
            : emoteFallback(doc, segment.name),
        );
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
