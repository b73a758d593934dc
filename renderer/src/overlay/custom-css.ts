/**
 * A streamer's custom CSS, kept to the box it was written for (../../../docs/overlays.md#custom-css). The
 * browser parses it into rules (a constructed style sheet, which never loads an `@import`), and each
 * top-level selector gets the box's own attribute in front, so no rule can reach the rest of the page or
 * the panel around a preview. At-rules that could escape that or load something (`@import`, `@font-face`,
 * `@scope`, …) are dropped. What the rules may load is limited again by the page's policy.
 */

type Grouping = { cssRules: CSSRuleList; deleteRule(index: number): void };

const KEEP_INSIDE = ['CSSMediaRule', 'CSSSupportsRule', 'CSSContainerRule', 'CSSLayerBlockRule'];

/** Splits a selector list at its top-level commas (not inside `:is(a, b)`, `[x=","]` or strings). */
export function splitSelectors(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    if (quote) {
      if (c === '\\') {
        i++;
      } else if (c === quote) {
        quote = null;
      }
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '(' || c === '[') {
      depth++;
    } else if (c === ')' || c === ']') {
      depth--;
    } else if (c === ',' && depth === 0) {
      parts.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(list.slice(start).trim());
  return parts.filter((part) => part !== '');
}

function scopeRules(group: Grouping, scope: string): void {
  for (let i = group.cssRules.length - 1; i >= 0; i--) {
    const rule = group.cssRules[i]!;
    const kind = rule.constructor.name;
    if (kind === 'CSSStyleRule') {
      const style = rule as CSSStyleRule;
      style.selectorText = splitSelectors(style.selectorText)
        .map((selector) => `${scope} ${selector}`)
        .join(', ');
    } else if (KEEP_INSIDE.includes(kind)) {
      scopeRules(rule as unknown as Grouping, scope);
    } else if (kind !== 'CSSKeyframesRule') {
      group.deleteRule(i);
    }
  }
}

/** The style sheet for `css` inside the element matching `scope`, or null where the browser has none. */
export function scopedSheet(css: string, scope: string): CSSStyleSheet | null {
  if (css.trim() === '' || typeof CSSStyleSheet === 'undefined' || !('replaceSync' in CSSStyleSheet.prototype)) {
    return null;
  }
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    scopeRules(sheet, scope);
    return sheet;
  } catch {
    // CSS the browser cannot take is left out, as a browser leaves out a broken rule.
    return null;
  }
}

/** Puts `sheet` on the document; returns a function that takes it off again. */
export function adoptSheet(sheet: CSSStyleSheet | null): () => void {
  if (sheet === null || !('adoptedStyleSheets' in document)) {
    return () => undefined;
  }
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  return () => {
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
  };
}
