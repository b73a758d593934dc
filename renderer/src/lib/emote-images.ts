/**
 * Emote images, loaded once per page and drawn as CSS backgrounds of fixed-size boxes.
 *
 * A raid spams the same few emotes hundreds of times a second. As `<img>` elements, every one of them ran
 * Chromium's image loading on its own: a resource lookup when it joined the page, a load task when it
 * finished, teardown when its row scrolled away. That was about a tenth of the panel's main thread in the
 * chat storm benchmark (docs/decisions.md, "One image per emote, not one per line"). Here each emote URL
 * gets one style rule in a sheet of the page's own and one probe image that tells whether it loads; a chat
 * line's emote is a `span` with the rule's class, named for screen readers like an image.
 *
 * An emote whose image fails shows its name instead: the lines already on the page are switched, and new
 * lines use the name until the image is tried again a minute later (a CDN hiccup must not leave an emote
 * as text for the rest of the stream).
 */

/** How long an image that failed to load stays failed before a new line tries it again. */
export const EMOTE_RETRY_MS = 60_000;

interface Entry {
  className: string;
  /** When the probe last failed; null while the image loads or has loaded. */
  failedAt: number | null;
}

/** The class names emote nodes carry (styled by chat-content.css). */
export const EMOTE_CLASSES = { emote: 'emote', fallback: 'emote-fallback' } as const;

/** The name shown where an emote's image is missing. */
export function emoteFallback(doc: Document, name: string): HTMLSpanElement {
  const span = doc.createElement('span');
  span.className = EMOTE_CLASSES.fallback;
  span.title = `Emote ${name}`;
  span.textContent = name;
  return span;
}

/**
 * A URL as a CSS string. Quotes, backslashes and line breaks are percent-encoded (the same URL to a browser),
 * so no URL can end the string or the rule.
 */
function cssUrl(url: string): string {
  return `url("${url.replace(/["\\\n\r\f]/g, (c) => encodeURIComponent(c))}")`;
}

/** Loads `url` once and calls `onError` if it cannot; an `<img>` off the page by default, injected in tests. */
export type EmoteProbe = (url: string, onError: () => void) => void;

function imageProbe(doc: Document): EmoteProbe {
  return (url, onError) => {
    const img = doc.createElement('img');
    img.addEventListener('error', onError, { once: true });
    img.src = url;
  };
}

export class EmoteImages {
  readonly #doc: Document;
  readonly #now: () => number;
  readonly #probe: EmoteProbe;
  readonly #sheet: CSSStyleSheet;
  readonly #entries = new Map<string, Entry>();

  constructor(doc: Document, options: { now?: () => number; probe?: EmoteProbe } = {}) {
    this.#doc = doc;
    this.#now = options.now ?? (() => Date.now());
    this.#probe = options.probe ?? imageProbe(doc);
    // A constructed sheet: its rules are the page's own, so the panel's CSP (style-src 'self') allows them,
    // and the images they name still answer to img-src.
    const Sheet = doc.defaultView?.CSSStyleSheet ?? CSSStyleSheet;
    this.#sheet = new Sheet();
    doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, this.#sheet];
  }

  /** The node for one emote: a box drawing `url`, or the name while that image is known not to load. */
  node(url: string, name: string): HTMLElement {
    const className = this.#classFor(url);
    if (className === null) {
      return emoteFallback(this.#doc, name);
    }
    // A fixed box (the class sets width and height): a late image never grows its chat row.
    const span = this.#doc.createElement('span');
    span.className = `${EMOTE_CLASSES.emote} ${className}`;
    span.setAttribute('role', 'img');
    span.setAttribute('aria-label', name);
    span.title = name;
    return span;
  }

  #classFor(url: string): string | null {
    const known = this.#entries.get(url);
    if (known) {
      if (known.failedAt === null) {
        return known.className;
      }
      if (this.#now() - known.failedAt < EMOTE_RETRY_MS) {
        return null;
      }
      known.failedAt = null;
      this.#try(url, known);
      return known.className;
    }
    const entry: Entry = { className: `emote-${this.#entries.size}`, failedAt: null };
    this.#entries.set(url, entry);
    try {
      this.#sheet.insertRule(`.${entry.className} { background-image: ${cssUrl(url)}; }`);
    } catch {
      // Not a URL CSS can hold: the name, for good.
      entry.failedAt = Infinity;
      return null;
    }
    this.#try(url, entry);
    return entry.className;
  }

  /** Loads `url` once to learn whether it loads; on failure, the lines showing it switch to names. */
  #try(url: string, entry: Entry): void {
    this.#probe(url, () => {
      entry.failedAt = this.#now();
      for (const box of this.#doc.querySelectorAll<HTMLElement>(`.${entry.className}`)) {
        box.replaceWith(emoteFallback(this.#doc, box.getAttribute('aria-label') ?? ''));
      }
    });
  }
}

// One registry per document: the panel's, and in tests each test's.
const registries = new WeakMap<Document, EmoteImages>();

/** The emote images of `doc`. */
export function emoteImages(doc: Document): EmoteImages {
  let images = registries.get(doc);
  if (!images) {
    images = new EmoteImages(doc);
    registries.set(doc, images);
  }
  return images;
}
