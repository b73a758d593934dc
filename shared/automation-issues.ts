/**
 * Why an automation file's settings cannot be used, in the streamer's words ([Import and
 * export](../docs/automod.md#import-and-export)): the section by the name the Automation tab gives it and the
 * limit it broke ("Blocked terms in this file: at most 1,000 (it has 5,000)"); the field path and the
 * schema's own message go to the details.
 */
import type { z } from 'zod';
import { findSection } from './automation-sections';
import { TERM_KINDS } from './term-kinds';

/** A refusal: the plain sentence and, behind "Details", the technical part. */
export interface ImportRefusal {
  ok: false;
  reason: string;
  detail: string | null;
}

/** A refusal with its reason and, when there is one, the technical detail. */
export const refuse = (reason: string, detail: string | null = null): ImportRefusal => ({ ok: false, reason, detail });

const n = (value: unknown): string => (typeof value === 'number' ? value.toLocaleString('en') : String(value));

/** The value at `path` in `root`, for "(it has 5,000)". */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) {
      return undefined;
    }
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function words(issue: z.core.$ZodIssue, given: unknown): string {
  const unknownForm = 'not in the form Greenroom exports';
  switch (issue.code) {
    case 'too_big':
      if (issue.origin === 'array') {
        const has = valueAt(given, issue.path);
        return `at most ${n(issue.maximum)}${Array.isArray(has) ? ` (it has ${n(has.length)})` : ''}`;
      }
      return issue.origin === 'string' ? `at most ${n(issue.maximum)} characters` : `at most ${n(issue.maximum)}`;
    case 'too_small':
      if (issue.origin === 'string') {
        return issue.minimum === 1 ? 'a text is empty' : `at least ${n(issue.minimum)} characters`;
      }
      return `at least ${n(issue.minimum)}`;
    case 'invalid_value':
      if (issue.path.at(-1) === 'kind' && issue.path.includes('terms')) {
        // Named as the editor's Kind picker names them, with the file's word for each.
        const kinds = TERM_KINDS.map((k) => `${k.label} ("${k.kind}")`);
        return `the kind must be ${kinds.slice(0, -1).join(', ')} or ${kinds.at(-1)!}`;
      }
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
    case 'custom':
      // The schemas word these for the streamer ("must be 1–25 letters, digits or _").
      return issue.message;
    default:
      return unknownForm;
  }
}

/** The plain refusal for the first issue of a failed parse of `area` (`given` is what was parsed). */
export function refusalForIssues(area: string, issues: readonly z.core.$ZodIssue[], given: unknown): ImportRefusal {
  const issue = issues[0]!;
  const section = findSection(area, issue.path[0] as string | undefined);
  const label =
    section?.label ??
    (area === 'automod'
      ? 'The auto-moderation rules'
      : area === 'obsActions'
        ? 'The OBS actions'
        : 'The chat bot settings');
  const index = issue.path.find((key) => typeof key === 'number');
  const item = typeof index === 'number' ? `, number ${index + 1}` : '';
  const detail = issues
    .slice(0, 3)
    .map((i) => `${[area, ...i.path.map(String)].join('.')}: ${i.message}`)
    .join(' · ');
  return {
    ok: false,
    reason: `${label} in this file${item}: ${words(issue, given)}. Nothing was changed.`,
    detail,
  };
}
