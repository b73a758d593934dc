/**
 * Request parsing for the sandbox's API handlers. Each helper either returns a well-typed value or ends the
 * request with Kick's 400 shape and a detail naming the field and the rule, so no handler sees bad input.
 */
import type { SandboxRequest } from '../http/types';
import { fail } from './respond';

/** Parses the JSON body; an empty body counts as `{}` only when `allowEmpty`. */
export function readJsonObject(req: SandboxRequest, allowEmpty = false): Record<string, unknown> {
  const text = req.rawBody.toString('utf8').trim();
  if (text.length === 0) {
    if (allowEmpty) {
      return {};
    }
    fail(400, 'request body: expected a JSON object');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    fail(400, 'request body: malformed JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(400, 'request body: expected a JSON object');
  }
  return value as Record<string, unknown>;
}

interface IntRule {
  min?: number;
  max?: number;
}

function checkInt(field: string, value: unknown, rule: IntRule): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    fail(400, `${field}: must be an integer`);
  }
  if (rule.min !== undefined && value < rule.min) {
    fail(400, `${field}: must be at least ${rule.min}`);
  }
  if (rule.max !== undefined && value > rule.max) {
    fail(400, `${field}: must be at most ${rule.max}`);
  }
  return value;
}

export function bodyInt(body: Record<string, unknown>, field: string, rule: IntRule & { required: true }): number;
export function bodyInt(
  body: Record<string, unknown>,
  field: string,
  rule?: IntRule & { required?: boolean },
): number | undefined;
export function bodyInt(
  body: Record<string, unknown>,
  field: string,
  rule: IntRule & { required?: boolean } = {},
): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) {
    if (rule.required) {
      fail(400, `${field}: is required`);
    }
    return undefined;
  }
  return checkInt(field, value, rule);
}

interface StringRule {
  maxLength?: number;
  minLength?: number;
  pattern?: RegExp;
  patternHint?: string;
  /** Count Unicode code points rather than UTF-16 units (chat content). */
  codePoints?: boolean;
}

function checkString(field: string, value: unknown, rule: StringRule): string {
  if (typeof value !== 'string') {
    fail(400, `${field}: must be a string`);
  }
  const length = rule.codePoints ? [...value].length : value.length;
  if (rule.minLength !== undefined && length < rule.minLength) {
    fail(
      400,
      rule.minLength === 1 ? `${field}: must not be empty` : `${field}: must be at least ${rule.minLength} characters`,
    );
  }
  if (rule.maxLength !== undefined && length > rule.maxLength) {
    fail(400, `${field}: must be at most ${rule.maxLength} characters`);
  }
  if (rule.pattern && !rule.pattern.test(value)) {
    fail(400, `${field}: must be ${rule.patternHint ?? 'well formed'}`);
  }
  return value;
}

export function bodyString(body: Record<string, unknown>, field: string, rule: StringRule & { required: true }): string;
export function bodyString(
  body: Record<string, unknown>,
  field: string,
  rule?: StringRule & { required?: boolean },
): string | undefined;
export function bodyString(
  body: Record<string, unknown>,
  field: string,
  rule: StringRule & { required?: boolean } = {},
): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) {
    if (rule.required) {
      fail(400, `${field}: is required`);
    }
    return undefined;
  }
  return checkString(field, value, rule);
}

export function bodyBool(body: Record<string, unknown>, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) {
    return undefined;
  }
  if (typeof value !== 'boolean') {
    fail(400, `${field}: must be a boolean`);
  }
  return value;
}

export function bodyStringArray(
  body: Record<string, unknown>,
  field: string,
  rule: { required?: boolean; minItems?: number; maxItems?: number; unique?: boolean; item?: StringRule } = {},
): string[] | undefined {
  const value = body[field];
  if (value === undefined || value === null) {
    if (rule.required) {
      fail(400, `${field}: is required`);
    }
    return undefined;
  }
  if (!Array.isArray(value)) {
    fail(400, `${field}: must be an array of strings`);
  }
  if (rule.minItems !== undefined && value.length < rule.minItems) {
    fail(400, `${field}: must have at least ${rule.minItems} item(s)`);
  }
  if (rule.maxItems !== undefined && value.length > rule.maxItems) {
    fail(400, `${field}: must have at most ${rule.maxItems} items`);
  }
  const items = value.map((v, i) => checkString(`${field}[${i}]`, v, rule.item ?? {}));
  if (rule.unique && new Set(items).size !== items.length) {
    fail(400, `${field}: must not contain duplicates`);
  }
  return items;
}

/** All values of a repeated query key, as integers. */
export function queryInts(req: SandboxRequest, key: string, rule: IntRule & { maxItems?: number } = {}): number[] {
  const raw = req.query.getAll(key);
  if (rule.maxItems !== undefined && raw.length > rule.maxItems) {
    fail(400, `${key}: at most ${rule.maxItems} values`);
  }
  return raw.map((v) => parseQueryInt(key, v, rule));
}

export function queryInt(req: SandboxRequest, key: string, rule: IntRule = {}): number | undefined {
  const raw = req.query.get(key);
  if (raw === null || raw === '') {
    return undefined;
  }
  return parseQueryInt(key, raw, rule);
}

function parseQueryInt(key: string, raw: string, rule: IntRule): number {
  if (!/^-?\d+$/.test(raw)) {
    fail(400, `${key}: must be an integer`);
  }
  return checkInt(key, Number(raw), rule);
}

export function queryStrings(
  req: SandboxRequest,
  key: string,
  rule: { maxItems?: number } & StringRule = {},
): string[] {
  const raw = req.query.getAll(key);
  if (rule.maxItems !== undefined && raw.length > rule.maxItems) {
    fail(400, `${key}: at most ${rule.maxItems} values`);
  }
  return raw.map((v) => checkString(key, v, rule));
}
