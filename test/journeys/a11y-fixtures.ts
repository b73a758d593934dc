/**
 * axe-core in the panel's page (docs/design-notes.md#themes): the library's own file is evaluated in the page
 * over the DevTools protocol, which the panel's Content-Security-Policy does not govern (a `<script>` tag would be
 * refused), then `axe.run` checks the whole document: colour contrast, names, roles, labels.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from './app-process';

const AXE_SOURCE = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/** One rule axe found broken: its id, how bad, and where (a few of the nodes' selectors). */
export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: number;
  targets: string[];
}

/** What axe found in one view: counts by impact, and the violations themselves. */
export interface AxeReport {
  view: string;
  counts: Record<'critical' | 'serious' | 'moderate' | 'minor', number>;
  violations: Violation[];
}

/** Runs axe on the page as it is now; `view` names it in the printed line. */
export async function axeCheck(page: Page, view: string): Promise<AxeReport> {
  if (!(await page.evaluate('typeof window.axe === "object"'))) {
    await page.evaluate(`${AXE_SOURCE}\n;undefined`);
  }
  const violations = await page.evaluate<Violation[]>(`(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      nodes: v.nodes.length,
      targets: v.nodes.slice(0, 4).map((n) => String(n.target.join(' ')) + ' :: ' + (n.failureSummary ?? '').split('\\n').slice(1, 2).join('')),
    }));
  })()`);
  const counts = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const v of violations) {
    if (v.impact && v.impact in counts) {
      counts[v.impact as keyof typeof counts] += v.nodes;
    }
  }
  return { view, counts, violations };
}

/** The line the journey prints per view and theme. */
export function reportLine(theme: string, report: AxeReport): string {
  const { critical, serious, moderate, minor } = report.counts;
  return `axe ${theme.padEnd(13)} ${report.view.padEnd(28)} critical ${critical} serious ${serious} moderate ${moderate} minor ${minor}`;
}

/** The serious and critical violations, for an assertion whose failure names them. */
export function blocking(report: AxeReport): Violation[] {
  return report.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
