/**
 * Counts in a streamer's words, written one way everywhere: a number grouped by thousands with a comma
 * ("1,445"), and a noun in the form its number takes ("1 sub", "2 subs", "1 entry", "3 entries"). Main's
 * feed text, the panel and the tray all use these, so "1445" never sits beside "1,445 viewers" and no line
 * reads "gifted 1 subs". Locale-free on purpose: the panel's text is English, and tests must not depend on
 * the machine's locale.
 */

/** `1,445`: a whole number grouped by thousands; a fraction is rounded. */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) {
    return String(n);
  }
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * `1 sub`, `2 subs`, `1,000 KICKs`: the number, then the noun in its form for that number. `many` is the
 * plural when adding an "s" is wrong (`entry` → `entries`).
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  // The form follows the number as shown: 0.6 reads "1", so "1 hour".
  const shown = formatNumber(n);
  return `${shown} ${shown === '1' ? one : many}`;
}
