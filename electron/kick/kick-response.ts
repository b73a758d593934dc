/**
 * Reads Kick's answer through its schema (`shared/kick/resource-schemas.ts`) before anything uses it: a field Kick
 * changed or dropped gives one error naming the operation and the field, `UnexpectedAnswer`, instead of an
 * `undefined` deep in a view ([reference §3](../../docs/kick-wire-reference.md#3-rest-endpoints)).
 */
import type { z } from 'zod';
import { KickApiError } from './kick-errors';

/** `data` as `schema` reads it, or an `UnexpectedAnswer` naming the first field that does not fit. */
export function readAnswer<T>(operation: string, schema: z.ZodType<T, unknown>, data: unknown, at = 'data'): T {
  const parsed = schema.safeParse(data);
  if (parsed.success) {
    return parsed.data;
  }
  const issue = parsed.error.issues[0];
  const field = [at, ...(issue?.path ?? [])]
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`))
    .join('');
  const why = issue?.message ?? 'not the expected shape';
  throw new KickApiError('UnexpectedAnswer', `${operation}: Kick's answer does not fit at ${field}: ${why}`, {
    operation,
    details: { field, why },
  });
}
