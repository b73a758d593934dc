/**
 * An ad break from Kick's ad status, in a streamer's words. Kick lists each recent break with its own
 * `status` and `source` codes (`inserted`, `completed`, `public_api`); the panel says what they mean and keeps
 * a code it does not know behind Details rather than guessing
 * ([ads on the wire](../../../docs/kick-wire-reference.md#310-ads)).
 */

/** Kick's break statuses the panel can name. */
const STATUS_WORDS: Readonly<Record<string, string>> = {
  inserted: 'started',
  completed: 'finished',
};

/** Where a break came from. Greenroom runs its breaks through Kick's public API, as other apps can. */
const SOURCE_WORDS: Readonly<Record<string, string>> = {
  public_api: 'run through the API (Greenroom or another app)',
};

export interface AdBreakWords {
  /** What the break did and who ran it ("started · run through the API …"), or "status not known". */
  line: string;
  /** Kick's own codes, for Details, when either is one the panel does not know; null otherwise. */
  details: string | null;
}

export function adBreakWords(status: string, source: string): AdBreakWords {
  const knownStatus = Object.hasOwn(STATUS_WORDS, status) ? STATUS_WORDS[status]! : null;
  const knownSource = Object.hasOwn(SOURCE_WORDS, source) ? SOURCE_WORDS[source]! : null;
  const unknown = knownStatus === null || knownSource === null;
  return {
    line: [knownStatus ?? 'status not known', ...(knownSource === null ? [] : [knownSource])].join(' · '),
    details: unknown ? `Kick's status: ${status || '(empty)'}; source: ${source || '(empty)'}` : null,
  };
}
