/**
 * The panel's side of an automation import ([Import and
 * export](../../../../docs/automod.md#import-and-export)): the chosen file's size is checked before it is
 * read, its bytes go to the shared plan, and a failed save is worded for the import (the panel's link to
 * Greenroom, not Kick).
 */
import {
  AUTOMATION_FILE_MAX_BYTES,
  planAutomationImport,
  readAutomationFile,
  refuseSize,
  type AutomationSetup,
  type ImportPlan,
  type ImportRefusal,
} from '../../../../shared/automation-import';
import type { ErrorValue } from '../../../../shared/errors';
import { errorDetail, explainError, type ShownError } from '../error-text';
import { plural } from '../../../../shared/plural';
import { termKindWords } from '../../../../shared/term-kinds';

/** An import waiting for the streamer's Replace or Cancel: the parsed file (planned again at Replace) and its plan. */
export interface PendingImport {
  file: unknown;
  plan: ImportPlan;
}

/** Reads `file` (its size first: a 50 MB file is refused unread) and plans its import over `current`. */
export async function planFromFile(
  file: Blob,
  current: AutomationSetup,
): Promise<({ ok: true } & PendingImport) | ImportRefusal> {
  if (file.size > AUTOMATION_FILE_MAX_BYTES) {
    return refuseSize(file.size);
  }
  const read = readAutomationFile(new Uint8Array(await file.arrayBuffer()));
  if (!read.ok) {
    return read;
  }
  const plan = planAutomationImport(read.value, current);
  return plan.ok ? { ok: true, file: read.value, plan } : plan;
}

/** The line after a successful import. */
export function importedMessage(plan: ImportPlan): string {
  const parts = plan.changes.length;
  const left = plan.leftOut.length;
  const regex = termKindWords('regex');
  const leftOut = left === 0 ? '' : ` ${plural(left, regex, `${regex}s`)} the safety check refuses left out.`;
  return `Imported: ${plural(parts, 'part')} of your setup replaced.${leftOut}`;
}

/** A failed import save, in words about the import: the link that failed is the panel's, to Greenroom. */
export function explainImportFailure(error: ErrorValue): ShownError {
  if (error.code === 'AppUnreachable' || error.code === 'AppTimeout') {
    return {
      text: 'The panel lost its connection to Greenroom during the import. Once it is back, check the Automation tab and import again if your setup did not change.',
      detail: errorDetail(error),
    };
  }
  if (error.code === 'Validation' || error.code === 'InvalidArgument') {
    return {
      text: 'Greenroom refused the imported settings; nothing was changed.',
      detail: errorDetail(error),
    };
  }
  return explainError(error);
}
