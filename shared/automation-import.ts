/**
 * Importing an automation file ([Import and export](../docs/automod.md#import-and-export)): what a file
 * exported from the Automation tab would replace, checked before anything is sent, so the streamer confirms
 * a list of changes and risks instead of finding their setup gone. Pure: the panel reads the file's bytes
 * (automation-file.ts), lays it over the setup (automation-merge.ts) and shows the plan; main still checks
 * what is saved like any Save.
 *
 * What is sent has passed the contract's own `settings:update` check here first: a regular expression the
 * safety check (or Save's rule-set budget) refuses is left out and named in the confirm, and anything else
 * the check refuses refuses the file, at the section it concerns. So Replace never meets a refusal that
 * could have been shown before it.
 */
import { automodSettingsSchema, type BlockedTerm } from './automod';
import { AUTOMATION_SEND_MAX_BYTES, formatBytes } from './automation-file';
import { refuse, refusalForIssues, type ImportRefusal } from './automation-issues';
import { mergeFile } from './automation-merge';
import { addedRisks } from './automation-risks';
import {
  AUTOMATION_SECTIONS,
  sectionValue,
  summarise,
  type AutomationSection,
  type AutomationSetup,
} from './automation-sections';
import { chatBotSettingsSchema } from './chat-bot';
import { INVOKE_SCHEMAS } from './ipc-contract';
import { obsActionsSettingsSchema } from './obs-actions';
import { checkRegex } from './safe-regex';
import { termKindWords } from './term-kinds';

export * from './automation-file';
export type { ImportRefusal } from './automation-issues';
export type { AutomationSetup } from './automation-sections';

/** What an import would do, for the confirm. */
export interface ImportPlan {
  ok: true;
  /** What `settings:update` gets: only the halves the file touches. */
  patch: Partial<AutomationSetup>;
  /** "Blocked terms: 12 terms, on, delete → 3 terms, on, delete", one per section that changes. */
  changes: string[];
  /** Sections the file does not hold, left as they are. */
  kept: string[];
  /** Risks the import adds (automation-risks.ts). */
  risks: string[];
  /** Regular expressions left out, each with the safety check's reason. */
  leftOut: string[];
  /** Keys Greenroom does not know, for the details. */
  ignored: string[];
}

const patchOf = (next: AutomationSetup, touched: readonly AutomationSection[]): Partial<AutomationSetup> =>
  Object.fromEntries(touched.map((section) => [section.area, next[section.area]]));

const sentence = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;

/** Leaves out of `terms` each regular expression the safety check refuses, saying why in `leftOut`. */
function safeTerms(terms: BlockedTerm[], leftOut: string[]): BlockedTerm[] {
  return terms.filter((term) => {
    const check = term.kind === 'regex' ? checkRegex(term.pattern) : null;
    if (check && !check.ok) {
      leftOut.push(sentence(`the ${termKindWords(term.kind)} ${term.pattern} is refused: ${check.error.reason}`));
    }
    return !check || check.ok;
  });
}

/**
 * The patch as `settings:update` will check it. A blocked term the check refuses (a rule-set budget Save
 * keeps) is left out like an unsafe one; any other refusal refuses the file.
 */
function checkedPatch(
  next: AutomationSetup,
  touched: readonly AutomationSection[],
  leftOut: string[],
): Partial<AutomationSetup> | ImportRefusal {
  for (let pass = 0; ; pass++) {
    const patch = patchOf(next, touched);
    const checked = INVOKE_SCHEMAS['settings:update'].safeParse([patch]);
    if (checked.success) {
      return patch;
    }
    const issues = checked.error.issues.map((issue) => ({ ...issue, path: issue.path.slice(1) }));
    const termOf = (path: readonly PropertyKey[]): number | null =>
      path[0] === 'automod' && path[1] === 'blockedTerms' && path[2] === 'terms' && typeof path[3] === 'number'
        ? path[3]
        : null;
    const other = issues.find((issue) => termOf(issue.path) === null);
    if (other || pass > 0) {
      const issue = other ?? issues[0]!;
      const area = issue.path[0] === 'automod' || issue.path[0] === 'obsActions' ? issue.path[0] : 'chatBot';
      return refusalForIssues(area, [{ ...issue, path: issue.path.slice(1) }], patch[area]);
    }
    const refused = new Set(issues.map((issue) => termOf(issue.path)));
    issues.forEach((issue) => leftOut.push(sentence(issue.message)));
    next.automod.blockedTerms.terms = next.automod.blockedTerms.terms.filter((_, i) => !refused.has(i));
  }
}

/** What importing `file` (parsed JSON) over `current` would do, or why it cannot. */
export function planAutomationImport(
  file: unknown,
  current: AutomationSetup,
  limits: { sendMaxBytes: number } = { sendMaxBytes: AUTOMATION_SEND_MAX_BYTES },
): ImportPlan | ImportRefusal {
  const merged = mergeFile(file, current);
  if ('ok' in merged) {
    return merged;
  }
  const automod = automodSettingsSchema.safeParse(merged.raw.automod);
  if (!automod.success) {
    return refusalForIssues('automod', automod.error.issues, merged.raw.automod);
  }
  const chatBot = chatBotSettingsSchema.safeParse({ ...merged.raw.chatBot, paused: current.chatBot.paused });
  if (!chatBot.success) {
    return refusalForIssues('chatBot', chatBot.error.issues, merged.raw.chatBot);
  }
  const obsActions = obsActionsSettingsSchema.safeParse(merged.raw.obsActions);
  if (!obsActions.success) {
    return refusalForIssues('obsActions', obsActions.error.issues, merged.raw.obsActions);
  }
  const leftOut: string[] = [];
  automod.data.blockedTerms.terms = safeTerms(automod.data.blockedTerms.terms, leftOut);
  const next: AutomationSetup = { automod: automod.data, chatBot: chatBot.data, obsActions: obsActions.data };
  const patch = checkedPatch(next, merged.touched, leftOut);
  if ('ok' in patch) {
    return patch;
  }
  return describePlan(current, next, patch, merged.touched, { leftOut, ignored: merged.ignored }, limits.sendMaxBytes);
}

function describePlan(
  current: AutomationSetup,
  next: AutomationSetup,
  patch: Partial<AutomationSetup>,
  touched: readonly AutomationSection[],
  notes: { leftOut: string[]; ignored: string[] },
  sendMaxBytes: number,
): ImportPlan | ImportRefusal {
  const size = new TextEncoder().encode(JSON.stringify(patch)).length;
  if (size > sendMaxBytes) {
    return refuse(
      `These settings are too large to send to Greenroom (${formatBytes(size)}; at most ${formatBytes(sendMaxBytes)}). Nothing was changed.`,
      `settings:update would carry ${size} bytes`,
    );
  }
  const changes: string[] = [];
  for (const section of touched) {
    const before = summarise(current, section);
    const after = summarise(next, section);
    if (JSON.stringify(sectionValue(current, section)) !== JSON.stringify(sectionValue(next, section))) {
      changes.push(before === after ? `${section.label}: ${after} (edited)` : `${section.label}: ${before} → ${after}`);
    }
  }
  return {
    ok: true,
    patch,
    changes,
    kept: AUTOMATION_SECTIONS.filter((s) => !touched.includes(s)).map((s) => s.label),
    risks: addedRisks(current, next),
    leftOut: notes.leftOut,
    ignored: notes.ignored,
  };
}
