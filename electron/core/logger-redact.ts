/**
 * Redaction at the source ([logging](../../docs/logging.md#no-secret-in-any-line)): the logger is told each
 * secret the app holds as it is loaded or changed (tokens, the client secret, the stream key, the overlay
 * key, the panel token, the OBS password), and every line it writes, message and fields alike, has each of
 * them replaced with `[redacted]`, in each spelling a URL, a form or JSON gives it. Patterns catch what was
 * never told: a `Bearer …` or `Basic …` header and a `access_token=…`-style parameter or field.
 */

export const REDACTED = '[redacted]';

/**
 * Shorter values are not learned: replacing a two-letter password everywhere would take those letters out
 * of every word. The patterns below still catch one written as a parameter or field.
 */
export const MIN_SECRET_LENGTH = 4;

/** `Bearer <token>` or `Basic <base64 of id:secret>` in a header written into a line: the value whole. */
const SCHEME = /\b(Basic|Bearer)\s+[A-Za-z0-9._~+/=-]+/gi;
/**
 * A parameter or field whose name says it is a secret, in a URL (`?token=…&key=…`), a form
 * (`access_token=…`) or JSON (`"password":"…"`): the name is kept, the value replaced.
 */
const NAMED =
  /\b([A-Za-z_]*(?:token|secret|password|passwd|key|code_verifier|authorization))((?:\\?["'])?\s*[=:]\s*(?:\\?["'])?)([^\s"'&,;}\\]+)/gi;

/** `Authorization: Basic [redacted]`: the scheme is kept, its value already replaced by {@link SCHEME}. */
const SCHEME_WORD = /^(basic|bearer)$/i;

/**
 * A JSON or `name: value` field whose value is null, a boolean or a number (`"clientSecret": null`) holds no
 * secret, and replacing it would leave the JSON unreadable.
 */
function notAString(between: string, value: string): boolean {
  return !/["']\s*$/.test(between) && between.includes(':') && /^(null|true|false|-?\d+(\.\d+)?)$/.test(value);
}

export interface Redactor {
  /** Learns one secret value (and its JSON- and URL-escaped spellings); empty and short values are ignored. */
  add(value: string | null | undefined): void;
  /**
   * A place a secret can be read from as it changes (the overlay key, after "New key"): read before each
   * line is redacted, so a new value is learned before it could be logged. Keep it cheap: a getter.
   */
  watch(source: () => readonly (string | null | undefined)[]): void;
  /** Every learned secret and every pattern in `text`, replaced. */
  redact(text: string): string;
}

export function createRedactor(): Redactor {
  const values = new Set<string>();
  // Longest first, so a secret that contains another is replaced whole.
  let ordered: string[] = [];
  const learn = (value: string): void => {
    if (value.length >= MIN_SECRET_LENGTH && !values.has(value)) {
      values.add(value);
      ordered = [...values].sort((a, b) => b.length - a.length);
    }
  };
  const sources: (() => readonly (string | null | undefined)[])[] = [];
  const add = (value: string | null | undefined): void => {
    if (typeof value !== 'string' || values.has(value)) {
      return;
    }
    learn(value);
    learn(JSON.stringify(value).slice(1, -1));
    // Percent-encoded as a URL writes it, as a form does (space as `+`, `!` as `%21`), and each in lower case.
    const lower = (text: string): string => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
    for (const spelling of [encodeURIComponent(value), new URLSearchParams({ v: value }).toString().slice(2)]) {
      learn(spelling);
      learn(lower(spelling));
    }
  };
  return {
    add,
    watch(source) {
      sources.push(source);
    },
    redact(text) {
      for (const source of sources) {
        try {
          source().forEach(add);
        } catch {
          // A source that cannot answer now (the app between restarts) is asked again on the next line.
        }
      }
      let out = text;
      for (const value of ordered) {
        if (out.includes(value)) {
          out = out.split(value).join(REDACTED);
        }
      }
      return out
        .replace(SCHEME, (_whole, scheme: string) => `${scheme} ${REDACTED}`)
        .replace(NAMED, (whole, name: string, between: string, value: string) =>
          value === REDACTED || value.startsWith('[') || SCHEME_WORD.test(value) || notAString(between, value)
            ? whole
            : `${name}${between}${REDACTED}`,
        );
    },
  };
}

/** The fields of a stored record that hold a secret (`accessToken`, `refresh_token`, `clientSecret`, …). */
const SECRET_FIELD = /token|secret|password|key/i;

/**
 * Learns the secrets in a stored value: a plain string, or a JSON record (a token set holds an access and a
 * refresh token) whose secret-named string fields are each learned. Its other fields (the token type, the
 * scopes) are not secrets, and learning them would take words like "Bearer" out of every line.
 */
export function learnStoredSecret(redactor: Redactor, stored: string | null | undefined): void {
  if (typeof stored !== 'string') {
    return;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    redactor.add(stored);
    return;
  }
  if (typeof parsed !== 'object' || parsed === null) {
    redactor.add(stored);
    return;
  }
  const visit = (record: object, depth: number): void => {
    for (const [name, value] of Object.entries(record as Record<string, unknown>)) {
      if (typeof value === 'string' && SECRET_FIELD.test(name)) {
        redactor.add(value);
      } else if (value && typeof value === 'object' && depth < 4) {
        visit(value, depth + 1);
      }
    }
  };
  visit(parsed, 0);
}
