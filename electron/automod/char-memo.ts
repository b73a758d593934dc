/**
 * A per-character answer kept for the characters seen before: a raid repeats the same few emoji and letters, and
 * working each one out again (a one-character string, a case change or a Unicode regular expression) cost more
 * than the rest of a long line's scan. At most `max` answers are kept; when full it starts afresh, so text made
 * of ever new characters costs one lookup more than no memo and never more memory.
 */
export function charMemo<T>(compute: (code: number) => T, max = 4096): (code: number) => T {
  const known = new Map<number, T>();
  return (code) => {
    let answer = known.get(code);
    if (answer === undefined) {
      answer = compute(code);
      if (known.size >= max) {
        known.clear();
      }
      known.set(code, answer);
    }
    return answer;
  };
}
