/**
 * A save main refused, at its fields ([When a save is refused](../../../docs/settings.md#when-a-save-is-refused)):
 * each refused field's reason in plain words, found by its path (`automod.blockedTerms.terms.2.pattern`) so
 * the form marks that row, and one line for the top of the form that says what was not saved and that
 * what was saved before still applies. The field paths and the channel stay behind "Details".
 */
import type { ErrorValue } from '../../../shared/errors';
import { type FieldRefusal, fieldRefusalsOf } from '../../../shared/field-refusal';
import { errorDetail, explainError, type ShownError } from './error-text';

/** The refused fields of one save, each reason in plain words. */
export class FieldErrors {
  readonly #refusals: readonly FieldRefusal[];

  constructor(refusals: readonly FieldRefusal[]) {
    this.#refusals = refusals.map((r) => ({ field: r.field, reason: plainReason(r.reason) }));
  }

  get size(): number {
    return this.#refusals.length;
  }

  /** Why `path` or anything inside it was refused (`chatBot.commands.0` holds `chatBot.commands.0.reply`). */
  at(path: string): string | null {
    const hit = this.#refusals.find((r) => r.field === path || r.field.startsWith(`${path}.`));
    return hit?.reason ?? null;
  }
}

/** A refused save as the form shows it. */
export interface SaveRefusal {
  /** For the top of the form: what was not saved, and that the earlier save still applies. */
  summary: ShownError;
  fields: FieldErrors;
}

/**
 * A failed save as a refusal at its fields, or null when main named no field (the app is unreachable, the
 * disk refused): those keep their own plain words ({@link explainError}).
 * `what` names what the form saves ("your auto-moderation rules"); `kept` says what still applies.
 */
export function saveRefusal(error: ErrorValue, what: string, kept: string): SaveRefusal | null {
  // InvalidArgument: main's contract or settings refused it; Validation: a check against Kick's own limits.
  const refusals = error.code === 'InvalidArgument' || error.code === 'Validation' ? fieldRefusalsOf(error) : [];
  if (refusals.length === 0) {
    return null;
  }
  const count =
    refusals.length === 1
      ? 'One entry was refused; the reason is beside it.'
      : `${refusals.length} entries were refused; each reason is beside its entry.`;
  return {
    summary: { text: `Not saved: ${what}. ${count} ${kept}`, detail: errorDetail(error) },
    fields: new FieldErrors(refusals),
  };
}

/** A failed save's words for the top of the form: the refusal's summary, or the plain words for the code. */
export function saveFailure(error: ErrorValue, what: string, kept: string): ShownError {
  const refusal = saveRefusal(error, what, kept);
  if (refusal) {
    return refusal.summary;
  }
  const shown = explainError(error);
  return { text: `Not saved: ${what}. ${shown.text} ${kept}`, detail: shown.detail ?? errorDetail(error) };
}

/** Zod's own wording of a limit, in a streamer's words; main's own reasons are kept, capitalised. */
export function plainReason(reason: string): string {
  const limit = /^Too (big|small): expected (string|number|int|array) to (?:have|be) ([<>]=?)(\d+)/.exec(reason);
  if (limit) {
    const [, , origin, , n] = limit;
    const most = limit[1] === 'big';
    if (origin === 'string') {
      return most ? `At most ${n} characters.` : n === '1' ? 'This cannot be empty.' : `At least ${n} characters.`;
    }
    if (origin === 'array') {
      return most ? `At most ${n} entries.` : `At least ${n} entries.`;
    }
    return most ? `At most ${n}.` : `At least ${n}.`;
  }
  if (/^Invalid URL\b/.test(reason)) {
    return 'This is not a web address.';
  }
  if (/^Invalid (option|input: expected one of)/.test(reason)) {
    return 'Choose one of the options offered.';
  }
  if (/^Invalid input: expected (\w+)/.test(reason)) {
    return 'This value is not in the right form.';
  }
  // "the regular expression (a+)+$ is refused: a repeated group …": the row already shows the pattern.
  const text = reason.replace(/^the regular expression .* is refused: /s, '');
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?)]$/.test(sentence) ? sentence : `${sentence}.`;
}
