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

/**
 * A viewer's link: it opens only through the panel's confirm (`onLink`), however it is activated. It has no
 * `href`, so no gesture reaches the browser's own link handling: a middle click, Ctrl/Cmd/Shift-click, a drag
 * onto the tab strip or the context menu's "Open in new tab" would open it in a dock or browser panel without
 * the confirm (../../../docs/chat-tools.md#links-in-chat). It stays a link for assistive technology and the keyboard:
 * `role="link"`, in the tab order, Enter opens the confirm.
 */
function chatLink(doc: Document, segment: { text: string; url: string }, onLink: (url: string) => void): HTMLElement {
  const a = doc.createElement('a');
  a.className = CONTENT_CLASSES.link;
  a.setAttribute('role', 'link');
  a.tabIndex = 0;
  a.title = segment.url;
  a.textContent = segment.text;
  const ask = (event: Event): void => {
    event.preventDefault();
    onLink(segment.url);
  };
  a.addEventListener('click', ask);
  a.addEventListener('auxclick', (event) => (event.button === 1 ? ask(event) : event.preventDefault()));
  // A middle press starts autoscroll on some systems, and a press may start a drag of the link's text.
  a.addEventListener('mousedown', (event) => event.button === 1 && event.preventDefault());
  a.addEventListener('keydown', (event) => event.key === 'Enter' && ask(event));
  return a;
}

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
        out.append(chatLink(doc, segment, onLink));
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
