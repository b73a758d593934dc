/**
 * A parsed automation file laid over the current setup ([Import and
 * export](../docs/automod.md#import-and-export)), before any schema sees it:
 * - the envelope must be an object of the export's `kind` and a known `version`, each half an object;
 * - only sections the file holds are replaced, the rest stay as they are (never reset to defaults); inside
 *   a section only the fields the file names, while lists (terms, commands, timers) are replaced whole;
 * - keys are looked up by the setup's own field names, never the file's, so `__proto__` or `constructor`
 *   in a file is just an unknown key, noted for the details.
 */
import { AUTOMATION_FILE_KIND, AUTOMATION_FILE_VERSION } from './automation-file';
import { refuse, type ImportRefusal } from './automation-issues';
import {
  AUTOMATION_SECTIONS,
  sectionValue,
  type AutomationArea,
  type AutomationSection,
  type AutomationSetup,
} from './automation-sections';

/** The file over the setup: each half as plain values, the sections the file replaced, and unknown keys. */
export interface MergedFile {
  raw: Record<AutomationArea, Record<string, unknown>>;
  touched: AutomationSection[];
  ignored: string[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const typeName = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value);

const AREAS = ['automod', 'chatBot', 'obsActions'] as const;
const AREA_WORDS = {
  automod: 'auto-moderation rules',
  chatBot: 'chat bot settings',
  obsActions: 'OBS actions',
} as const;
const TOP_KEYS = ['kind', 'version', ...AREAS];
/** The pause switch is known but not imported: it is the header's live switch. */
const KNOWN_NOT_IMPORTED: Record<AutomationArea, string[]> = { automod: [], chatBot: ['paused'], obsActions: [] };
const MAX_IGNORED = 20;

/** Notes keys of `given` that `known` does not have. */
function noteIgnored(given: Record<string, unknown>, known: readonly string[], path: string, ignored: string[]): void {
  for (const key of Object.keys(given)) {
    if (!known.includes(key) && ignored.length < MAX_IGNORED) {
      ignored.push(`${path}${JSON.stringify(key.slice(0, 40))}`);
    }
  }
}

/**
 * `given` over `current`, by `current`'s keys only: an object in both is merged field by field, anything else
 * the file holds replaces. `touched` is false when the file named none of `current`'s keys. The depth is the
 * setup's (a few levels), whatever the file's nesting.
 */
function mergeKnown(
  current: Record<string, unknown>,
  given: Record<string, unknown>,
  path: string,
  ignored: string[],
): { value: Record<string, unknown>; touched: boolean } {
  const value: Record<string, unknown> = {};
  let touched = false;
  for (const key of Object.keys(current)) {
    const mine = current[key];
    if (!Object.hasOwn(given, key)) {
      value[key] = mine;
      continue;
    }
    const theirs = given[key];
    if (isRecord(mine) && isRecord(theirs)) {
      const merged = mergeKnown(mine, theirs, `${path}${key}.`, ignored);
      value[key] = merged.value;
      touched ||= merged.touched;
    } else {
      value[key] = theirs;
      touched = true;
    }
  }
  noteIgnored(given, Object.keys(current), path, ignored);
  return { value, touched };
}

/** Checks the file's envelope: an object of the right kind and version, each half an object. */
function checkEnvelope(file: unknown): ImportRefusal | null {
  const notExport = 'This file is not a Greenroom automation export. Choose a file exported from the Automation tab.';
  if (!isRecord(file)) {
    return refuse(notExport, `the file holds ${typeName(file)}, not an object`);
  }
  if (!Object.hasOwn(file, 'kind') || file.kind !== AUTOMATION_FILE_KIND) {
    return refuse(notExport, `no "kind": "${AUTOMATION_FILE_KIND}"`);
  }
  if (Object.hasOwn(file, 'version') && file.version !== AUTOMATION_FILE_VERSION) {
    const newer = typeof file.version === 'number' && file.version > AUTOMATION_FILE_VERSION;
    return refuse(
      newer
        ? 'This file comes from a newer Greenroom. Update Greenroom, then import it again.'
        : 'This file’s version is not one Greenroom knows.',
      `"version": ${String(JSON.stringify(file.version)).slice(0, 40)}`,
    );
  }
  for (const area of AREAS) {
    if (Object.hasOwn(file, area) && !isRecord(file[area])) {
      return refuse(
        `The ${AREA_WORDS[area]} in this file are not in the form Greenroom exports. Nothing was changed.`,
        `${area}: expected an object, found ${typeName(file[area])}`,
      );
    }
  }
  return null;
}

/** Lays `file` (parsed JSON) over `current`, or says why the file holds nothing to import. */
export function mergeFile(file: unknown, current: AutomationSetup): MergedFile | ImportRefusal {
  const envelope = checkEnvelope(file);
  if (envelope) {
    return envelope;
  }
  const given = file as Record<string, unknown>;
  const halves = Object.fromEntries(
    AREAS.map((area) => [area, Object.hasOwn(given, area) ? (given[area] as Record<string, unknown>) : {}]),
  ) as Record<AutomationArea, Record<string, unknown>>;
  const ignored: string[] = [];
  noteIgnored(given, TOP_KEYS, '', ignored);
  const raw: MergedFile['raw'] = {
    automod: { ...current.automod },
    chatBot: { ...current.chatBot },
    obsActions: { ...current.obsActions },
  };
  const touched = AUTOMATION_SECTIONS.filter((section) => {
    const half = halves[section.area];
    if (!Object.hasOwn(half, section.key)) {
      return false;
    }
    const mine = sectionValue(current, section);
    const theirs = half[section.key];
    if (isRecord(mine) && isRecord(theirs)) {
      const merged = mergeKnown(mine, theirs, `${section.area}.${section.key}.`, ignored);
      raw[section.area][section.key] = merged.value;
      return merged.touched;
    }
    raw[section.area][section.key] = theirs;
    return true;
  });
  for (const area of AREAS) {
    const known = AUTOMATION_SECTIONS.filter((s) => s.area === area).map((s) => s.key);
    noteIgnored(halves[area], [...known, ...KNOWN_NOT_IMPORTED[area]], `${area}.`, ignored);
  }
  if (touched.length === 0) {
    return refuse(
      'This file holds none of the rules, commands, timers, replies or OBS actions Greenroom imports. Nothing was changed.',
      ignored.length > 0 ? `unknown keys: ${ignored.join(', ')}` : 'no automation settings in the file',
    );
  }
  return { raw, touched, ignored };
}
