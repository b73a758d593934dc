/**
 * Pre-send checks against Kick's documented limits ([seed §8](../../docs/product-spec.md#8-limits), [§4.2](../../docs/product-spec.md#42-logical-operations)). Each failure is a ValidationError that
 * names the field and the limit, raised before any request leaves the machine.
 */
import { countCodePoints } from '../../shared/limits';
import { ValidationError } from './kick-errors';

export class Checks {
  readonly #operation: string;

  constructor(operation: string) {
    this.#operation = operation;
  }

  fail(field: string, limit: string): never {
    throw new ValidationError(this.#operation, field, limit);
  }

  int(field: string, value: unknown, range: { min?: number; max?: number } = {}): number {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
      this.fail(field, 'must be an integer');
    }
    if (range.min !== undefined && range.max !== undefined && (value < range.min || value > range.max)) {
      this.fail(field, `must be between ${range.min} and ${range.max}`);
    }
    if (range.min !== undefined && value < range.min) {
      this.fail(field, `must be at least ${range.min}`);
    }
    if (range.max !== undefined && value > range.max) {
      this.fail(field, `must be at most ${range.max}`);
    }
    return value;
  }

  optionalInt(field: string, value: unknown, range: { min?: number; max?: number } = {}): number | undefined {
    return value === undefined ? undefined : this.int(field, value, range);
  }

  string(
    field: string,
    value: unknown,
    rule: { min?: number; max?: number; codePoints?: boolean; pattern?: RegExp; hint?: string } = {},
  ): string {
    if (typeof value !== 'string') {
      this.fail(field, 'must be a string');
    }
    const length = rule.codePoints ? countCodePoints(value) : value.length;
    if (rule.min !== undefined && length < rule.min) {
      this.fail(field, rule.min === 1 ? 'must not be empty' : `must be at least ${rule.min} characters`);
    }
    if (rule.max !== undefined && length > rule.max) {
      this.fail(field, `must be at most ${rule.max} characters (got ${length})`);
    }
    if (rule.pattern && !rule.pattern.test(value)) {
      this.fail(field, `must be ${rule.hint ?? 'well formed'}`);
    }
    return value;
  }

  optionalString(field: string, value: unknown, rule: Parameters<Checks['string']>[2] = {}): string | undefined {
    return value === undefined ? undefined : this.string(field, value, rule);
  }

  bool(field: string, value: unknown): boolean | undefined {
    if (value === undefined) {
      return undefined;
    }
    if (typeof value !== 'boolean') {
      this.fail(field, 'must be true or false');
    }
    return value;
  }

  list<T>(
    field: string,
    value: unknown,
    rule: { min?: number; max?: number; unique?: boolean },
    item: (v: unknown, name: string) => T,
  ): T[] {
    if (!Array.isArray(value)) {
      this.fail(field, 'must be a list');
    }
    if (rule.min !== undefined && value.length < rule.min) {
      this.fail(field, `must have at least ${rule.min} entr${rule.min === 1 ? 'y' : 'ies'}`);
    }
    if (rule.max !== undefined && value.length > rule.max) {
      this.fail(field, `must have at most ${rule.max} entries (got ${value.length})`);
    }
    const items = value.map((v, i) => item(v, `${field}[${i}]`));
    if (rule.unique) {
      const seen = new Set<unknown>();
      for (const v of items) {
        if (seen.has(v)) {
          this.fail(field, `must not repeat an entry (${String(v)} appears twice)`);
        }
        seen.add(v);
      }
    }
    return items;
  }

  /** A single value or a list of them, normalised to a list. */
  oneOrMany<T>(
    field: string,
    value: unknown,
    rule: { min?: number; max?: number; unique?: boolean },
    item: (v: unknown, name: string) => T,
  ): T[] {
    return this.list(field, Array.isArray(value) ? value : [value], rule, item);
  }
}

/** An element check for `list`/`oneOrMany`: a positive integer id. */
export const positiveId =
  (c: Checks) =>
  (v: unknown, name: string): number =>
    c.int(name, v, { min: 1 });

/** An element check for `list`/`oneOrMany`: a non-empty string. */
export const nonEmpty =
  (c: Checks) =>
  (v: unknown, name: string): string =>
    c.string(name, v, { min: 1 });
