import { describe, expect, it } from 'vitest';
import { EMOTE_RETRY_MS, EmoteImages } from '../../../../renderer/src/lib/emote-images';

/** A registry on a fresh document, with a hand-driven clock and probes that fail only when told to. */
function setUp() {
  const doc = document.implementation.createHTMLDocument('emotes');
  const clock = { now: 1_000 };
  const probes: { url: string; fail: () => void }[] = [];
  const images = new EmoteImages(doc, {
    now: () => clock.now,
    probe: (url, onError) => probes.push({ url, fail: onError }),
  });
  const line = (...emotes: [string, string][]): HTMLElement => {
    const p = doc.createElement('p');
    p.append(...emotes.map(([url, name]) => images.node(url, name)));
    doc.body.append(p);
    return p;
  };
  return { doc, clock, probes, images, line };
}

const KEKW = 'https://files.kick.com/emotes/37226/fullsize';
const CATJAM = 'https://files.kick.com/emotes/39261/fullsize';

describe('emote images', () => {
  it('loads each emote image once, however many lines show it, and draws every copy from one rule', () => {
    const { doc, probes, line } = setUp();
    const lines = Array.from({ length: 50 }, () => line([KEKW, 'KEKW'], [CATJAM, 'catJAM']));
    expect(probes.map((p) => p.url)).toEqual([KEKW, CATJAM]);
    expect(doc.adoptedStyleSheets[0]!.cssRules).toHaveLength(2);
    const first = lines[0]!.children[0]!;
    const last = lines[49]!.children[0]!;
    expect(first.className).toBe(last.className);
    expect(getComputedStyle(last).backgroundImage).toBe(`url("${KEKW}")`);
  });

  it('switches the lines on the page to the emote’s name when its image fails, and new lines until a retry', () => {
    const { clock, probes, line } = setUp();
    const shown = line([KEKW, 'KEKW'], [CATJAM, 'catJAM']);
    probes[0]!.fail();
    expect(shown.querySelector('[role="img"]')?.getAttribute('aria-label')).toBe('catJAM');
    expect(shown.querySelector('.emote-fallback')?.textContent).toBe('KEKW');

    clock.now += EMOTE_RETRY_MS - 1;
    expect(line([KEKW, 'KEKW']).querySelector('.emote-fallback')?.textContent).toBe('KEKW');
    expect(probes).toHaveLength(2);

    // A minute on, a new line tries the image again (a CDN hiccup must not last the stream).
    clock.now += 1;
    const retried = line([KEKW, 'KEKW']);
    expect(retried.querySelector('[role="img"]')?.getAttribute('aria-label')).toBe('KEKW');
    expect(probes.map((p) => p.url)).toEqual([KEKW, CATJAM, KEKW]);
  });

  it('keeps a URL inside its CSS string, whatever characters it holds', () => {
    const { doc, line } = setUp();
    const quoted = line(['http://127.0.0.1:9/emotes/a"b\\c/fullsize', 'ab']).children[0]!;
    expect(getComputedStyle(quoted).backgroundImage).toBe('url("http://127.0.0.1:9/emotes/a%22b%5Cc/fullsize")');

    // A URL built to close the rule and style the page: at most its own rule, never a second one.
    const hostile = 'http://127.0.0.1:9/emotes/x"); } body { display: none; } .y { a: url("/fullsize';
    line([hostile, 'x']);
    const rules = [...doc.adoptedStyleSheets[0]!.cssRules] as CSSStyleRule[];
    expect(rules.every((rule) => /^\.emote-\d+$/.test(rule.selectorText))).toBe(true);
    expect(getComputedStyle(doc.body).display).not.toBe('none');
  });
});
