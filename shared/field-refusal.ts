/**
 * Which fields a refused input names, carried as data: `details.fields` holds each refused field's path
 * (`automod.blockedTerms.terms.2.pattern`) and `details.reasons` the reason at the same position, so the
 * panel marks the row or field itself instead of reading the message text
 * ([When a save is refused](../docs/settings.md#when-a-save-is-refused)). `details.field` keeps the first
 * path alone, as other `InvalidArgument` errors already carry it.
 */
import type { ErrorValue } from './errors';

/** One refused field: its dotted path inside the arguments and why, in the words main wrote. */
export interface FieldRefusal {
  field: string;
  reason: string;
}

/** The most refusals one error carries (a list of 50 bad rows needs no 50 lines to be fixed). */
export const MAX_FIELD_REFUSALS = 20;

/** A zod issue's path as a dotted field path (`chatBot.commands.0.reply`). */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

/** The error details that name `refusals`. */
export function fieldDetails(refusals: readonly FieldRefusal[]): NonNullable<ErrorValue['details']> {
  const kept = refusals.slice(0, MAX_FIELD_REFUSALS);
  return {
    field: kept[0]?.field ?? '',
    fields: kept.map((r) => r.field),
    reasons: kept.map((r) => r.reason),
  };
}

/** The fields a refusal names: from its details, or from `details.field` and the message alone. */
export function fieldRefusalsOf(error: ErrorValue): FieldRefusal[] {
  const { fields, reasons, field } = error.details ?? {};
  if (Array.isArray(fields) && Array.isArray(reasons) && fields.length === reasons.length) {
    return fields.map((path, i) => ({ field: path, reason: reasons[i]! }));
  }
  if (typeof field === 'string' && field !== '') {
    const prefix = `${field}: `;
    const reason = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    return [{ field, reason }];
  }
  return [];
}

/** `reason` without its own field prefix (`seconds: must be …` names the field the path already gives). */
export function withoutFieldPrefix(path: string, reason: string): string {
  const last = path.split('.').at(-1) ?? '';
  return last !== '' && reason.startsWith(`${last}: `) ? reason.slice(last.length + 2) : reason;
}
